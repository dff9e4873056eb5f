package servertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/server"
)

// errorsT records the errors of a check instead of failing the test.
type errorsT struct {
	fakeT
	errs []string
}

func (f *errorsT) Name() string { return "TestSavedSchemas" }
func (f *errorsT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

// shoutWith returns a server with the shout tool, registered with saved.
func shoutWith(t *testing.T, saved *server.SavedSchemas) *server.Server {
	srv := server.New(server.Options{})
	err := server.AddTool(srv, server.ToolSpec{Name: "shout", Description: "Shouts.", Schemas: saved},
		func(ctx context.Context, call *server.Call, in shoutArgs) (shoutResult, error) {
			return shoutResult{Text: strings.ToUpper(in.Text)}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestCheckSavedSchemasFindsWhatIsMissingOrStale(t *testing.T) {
	tools, err := shoutServer(t).ReflectSchemas()
	if err != nil {
		t.Fatal(err)
	}
	current := tools[0].Reflected
	src, err := SavedSchemasFile("shout", tools)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "schemas_saved.go")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	stale := current
	stale.Output = `{"type":"object"}`
	cases := []struct {
		name  string
		saved *server.SavedSchemas
		file  []byte
		want  []string
	}{
		{"current schemas and file", &current, src, nil},
		{"a tool without saved schemas", nil, src, []string{`tool shout has no saved schemas: give its spec Schemas: savedSchemas("shout")`}},
		{"stale saved schemas", &stale, src, []string{"the saved schemas of tool shout differ from its types"}},
		{"a stale file", &current, append([]byte("// edited\n"), src...), []string{"is not the file the tools' types give now"}},
	}
	for _, tc := range cases {
		if err := os.WriteFile(file, tc.file, 0o644); err != nil {
			t.Fatal(err)
		}
		ft := &errorsT{}
		CheckSavedSchemas(ft, shoutWith(t, tc.saved), file, "shout")
		if ft.msg != "" || len(ft.errs) != len(tc.want) {
			t.Errorf("%s: fatal %q, errors %q; want %q", tc.name, ft.msg, ft.errs, tc.want)
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(ft.errs[i], w) {
				t.Errorf("%s: error %q, want it to contain %q", tc.name, ft.errs[i], w)
			}
		}
	}
}

func TestSavedSchemasFileIsGoOfThePackage(t *testing.T) {
	tools := []server.ToolSchemas{{Name: "a", Reflected: server.SavedSchemas{Input: "{\"description\":\"a `tick`\"}", Output: `{"type":"object"}`}}}
	src, err := SavedSchemasFile("tools", tools)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"package tools\n", `case "a":`, "Input:  \"{\\\"description\\\":\\\"a `tick`\\\"}\",", "Output: `{\"type\":\"object\"}`,", "return nil\n}\n"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the file lacks %s:\n%s", want, src)
		}
	}
}
