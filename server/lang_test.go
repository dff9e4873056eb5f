package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// TestTheBusyRefusalIsInTheServersLanguage fills the one slot and the
// line of one behind it: the next call is refused in Chinese.
func TestTheBusyRefusalIsInTheServersLanguage(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 4)
	srv := server.New(server.Options{MaxInFlight: 1, MaxQueued: 1, MaxRepeats: -1, Lang: i18n.Chinese})
	err := server.AddTool(srv, server.ToolSpec{Name: "hold", Description: "d", Level: security.Read},
		func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
			started <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return Greeting{Text: in.Name}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	c := servertest.Start(t, srv)
	defer close(release)
	call := func(id int) {
		c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{"name":"x"}}}`, id))
	}
	call(1)
	<-started
	call(2)
	call(3)
	want := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"服务器繁忙：所有槽位都在执行调用，另有 1 个在排队。请等你的部分调用完成后，再重试这一个。"}],"isError":true}}`
	if got := c.Recv(); got != want {
		t.Errorf("\n got: %s\nwant: %s", got, want)
	}
}
