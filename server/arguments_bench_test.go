package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/cpumeter"
	"github.com/stdiotools/toolserver/schemagen"
)

// fileWriteArgs are the arguments of a tool that writes a file, as
// tools/fs's write_file declares them.
type fileWriteArgs struct {
	Path    string `json:"path" chars:"path" minLength:"1" description:"The file."`
	Content string `json:"content" chars:"text" description:"The new text of the file."`
	DryRun  bool   `json:"dry_run,omitempty" description:"Only say what would be done."`
}

// BenchmarkArgumentCheck reads a tools/call request line whose arguments
// carry 1 MiB or 8 MiB of source code, as a client encodes it (tabs, line
// breaks and quotes escaped), and checks and decodes its arguments into
// the tool's struct: the reader's walk over the line, then the arguments'
// stage, as a call over a session takes them. SetBytes is the length of
// the line, so MB/s is the speed of checking arguments.
func BenchmarkArgumentCheck(b *testing.B) {
	const unit = "\tif err := run(ctx, \"write\", path); err != nil { // naïve retry\n\t\treturn fmt.Errorf(\"writing %s: %w\", path, err)\n\t}\n"
	srv := New(Options{MaxRepeats: -1})
	err := AddTool(srv, ToolSpec{Name: "write", Description: "Writes.", Targets: []string{"path"}, DryRun: "dry_run"},
		func(context.Context, *Call, fileWriteArgs) (struct{}, error) { return struct{}{}, nil })
	if err != nil {
		b.Fatal(err)
	}
	t := srv.tools.byName["write"]
	schema, err := schemagen.For[fileWriteArgs]()
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{1 << 20, 8 << 20} {
		content := strings.Repeat(unit, size/len(unit)+1)[:size]
		args, err := json.Marshal(fileWriteArgs{Path: "src/big.go", Content: content})
		if err != nil {
			b.Fatal(err)
		}
		line := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write","arguments":` + string(args) + `}}`)
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			cpu := cpumeter.Start()
			for b.Loop() {
				env, werr := parseEnvelope(line)
				if werr != nil {
					b.Fatal(werr.message)
				}
				c := &Call{srv: srv}
				if werr := srv.bind(c, t, "write", env.arguments, env.argMembers()); werr != nil {
					b.Fatal(werr.message)
				}
				var in fileWriteArgs
				if _, err := decodeArguments(schema, c, &in); err != nil {
					b.Fatal(err)
				}
				if len(in.Content) != size {
					b.Fatal("content lost")
				}
			}
			cpu.Report(b)
		})
	}
}
