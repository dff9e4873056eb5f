package fs_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/tools/fs"
)

// The file tools register on a server over a sandbox; here the sandbox is
// an in-memory file system, as in unit tests.
func ExampleRegister() {
	mem := afero.NewMemMapFs()
	_ = afero.WriteFile(mem, "notes/todo.txt", []byte("buy milk\nfix the fence\n"), 0o644)
	srv := server.New(server.Options{})
	if err := fs.Register(srv, security.NewSandbox(mem, security.SandboxOptions{})); err != nil {
		fmt.Println(err)
		return
	}
	res, _ := srv.CallTool(context.Background(), "read_file", json.RawMessage(`{"path":"notes/todo.txt","head":1}`))
	fmt.Print(res.Content[0].Text())
	res, _ = srv.CallTool(context.Background(), "read_file", json.RawMessage(`{"path":"../etc/passwd"}`))
	fmt.Println(res.Content[0].Text())
	// Output:
	// buy milk
	// path "../etc/passwd" leaves the root; use a path inside it, such as "etc/passwd"
}
