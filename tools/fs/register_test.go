package fs

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

func TestRegisterAddsTheToolsReadsFirst(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	var names []string
	for _, tool := range e.srv.Tools() {
		names = append(names, tool.Name)
	}
	want := "read_file read_multiple_files list_directory directory_tree search_files grep get_file_info list_allowed_directories " +
		"write_file edit_file append_file create_directory copy_file move_file delete_file"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("tools = %s\nwant %s", got, want)
	}
}

func TestToolAnnotationsMatchWhatTheToolsDo(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	type hints struct{ readOnly, destructive, idempotent bool }
	want := map[string]hints{
		"write_file": {false, true, false}, "edit_file": {false, true, false}, "append_file": {false, false, false}, "move_file": {false, true, false},
		"delete_file": {false, true, false}, "create_directory": {false, false, true}, "copy_file": {false, true, false},
	}
	for _, tool := range e.srv.Tools() {
		a := tool.Annotations
		w, writes := want[tool.Name]
		if !writes {
			if !a.ReadOnlyHint {
				t.Errorf("%s should be read-only", tool.Name)
			}
			continue
		}
		if a.ReadOnlyHint || *a.DestructiveHint != w.destructive || *a.IdempotentHint != w.idempotent {
			t.Errorf("%s annotations = %+v, want %+v", tool.Name, a, w)
		}
	}
}

func TestEveryToolTellsTheModelWhatItDoes(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	for _, tool := range e.srv.Tools() {
		if len(tool.Description) < 150 || tool.Title == "" {
			t.Errorf("%s: description too short or no title: %q", tool.Name, tool.Description)
		}
		var schema struct {
			Properties map[string]struct {
				Description string
				Pattern     string
				Type        any
			}
		}
		if err := json.Unmarshal(tool.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		for name, p := range schema.Properties {
			if p.Description == "" {
				t.Errorf("%s.%s has no description", tool.Name, name)
			}
		}
	}
}

func TestDescriptionSizesGiveTheMagnitude(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{1, "1 byte"},
		{1023, "1023 bytes"},
		{1024, "1 KiB"},
		{4 << 20, "4 MiB"},
		{3 << 19, "1.5 MiB"},
		{1234567, "1.2 MiB"},
		{256 << 20, "256 MiB"},
		{1 << 62, "4 EiB"},
	} {
		if got := descSize(c.n); got != c.want {
			t.Errorf("descSize(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestRegisterNeedsASandbox(t *testing.T) {
	if err := Register(server.New(server.Options{}), nil); err == nil {
		t.Error("Register accepted a nil sandbox")
	}
	srv := server.New(server.Options{})
	sb := newMemEnv(t, security.Limits{}).sb
	if err := Register(srv, sb); err != nil {
		t.Fatal(err)
	}
	if err := Register(srv, sb); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("registering twice: %v", err)
	}
}

func TestListAllowedDirectories(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	res := e.ok(t, "list_allowed_directories", `{}`)
	wantContains(t, text(res), ".\nThe whole root may be used. Paths are relative to the root")
	e.sb.Restrict([]string{"src", "docs"})
	res = e.ok(t, "list_allowed_directories", `{}`)
	var got AllowedResult
	structured(t, res, &got)
	if strings.Join(got.Directories, ",") != "docs,src" {
		t.Errorf("directories = %v", got.Directories)
	}
	wantContains(t, text(res), "docs\nsrc\nOnly these directories and what is below them may be used.")
	wantContains(t, e.fail(t, "read_file", `{"path":"other/x"}`), "outside the folders the client allowed")
	wantContains(t, e.fail(t, "list_allowed_directories", `{"x":1}`), `unknown argument "x"`)
}

// TestNoDescriptionNamesAToolThatIsNotServed: with --tools or
// --disable-tools leaving tools out, a description points the model to
// none of them, for every tool left out alone and for every tool served
// alone; with all served, each neighbour is named.
func TestNoDescriptionNamesAToolThatIsNotServed(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	var all []string
	for _, tool := range e.srv.Tools() {
		all = append(all, tool.Name)
	}
	named := func(desc, tool string) bool {
		return regexp.MustCompile(`(^|[^a-z_])` + tool + `($|[^a-z_])`).MatchString(desc)
	}
	var cases []server.Options
	for _, name := range all {
		cases = append(cases,
			server.Options{AllowAdmin: true, DisableTools: []string{name}},
			server.Options{AllowAdmin: true, Tools: []string{name}})
	}
	for _, opts := range cases {
		srv := server.New(opts)
		if err := newToolset(e.sb).register(srv); err != nil {
			t.Fatal(err)
		}
		served := srv.Tools()
		for _, tool := range served {
			for _, other := range all {
				if other != tool.Name && !srv.Serves(other) && named(tool.Description, other) {
					t.Errorf("with tools %v, disabled %v: %s's description names %s: %q",
						opts.Tools, opts.DisableTools, tool.Name, other, tool.Description)
				}
			}
		}
	}
	for _, want := range []struct{ tool, names string }{
		{"read_file", "read_multiple_files"}, {"read_file", "grep"},
		{"read_multiple_files", "read_file"}, {"list_directory", "directory_tree"},
		{"directory_tree", "list_directory"}, {"search_files", "grep"},
		{"grep", "search_files"}, {"write_file", "create_directory"},
		{"write_file", "edit_file"}, {"edit_file", "write_file"}, {"append_file", "write_file"},
	} {
		for _, tool := range e.srv.Tools() {
			if tool.Name == want.tool && !named(tool.Description, want.names) {
				t.Errorf("with every tool served, %s's description does not name %s: %q", want.tool, want.names, tool.Description)
			}
		}
	}
}
