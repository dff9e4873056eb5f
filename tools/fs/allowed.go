package fs

import (
	"context"
	"strings"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// ListAllowedArgs are the arguments of list_allowed_directories: none.
type ListAllowedArgs struct{}

// AllowedResult is the result of list_allowed_directories.
type AllowedResult struct {
	Directories []string      `json:"directories" description:"The directories the tools may use, relative to the root; \".\" is the whole root. With several roots, each starts with its root's name, such as \"notes:\" or \"notes:/docs\"."`
	Roots       []AllowedRoot `json:"roots,omitempty" description:"With several roots, each root: its name, whether it is read-only, and how paths in it are written."`
	Note        string        `json:"note" description:"How paths work."`

	inLang
}

// AllowedRoot describes one root of several.
type AllowedRoot struct {
	Name        string   `json:"name" description:"The root's name."`
	ReadOnly    bool     `json:"read_only" description:"Whether the root may only be read: write tools refuse every path in it."`
	Path        string   `json:"path" description:"How a path names the root itself, such as \"notes:\"; a file in it is written \"notes:/todo.md\"."`
	Directories []string `json:"directories" description:"The directories of this root the tools may use."`
}

// Content returns the directories one a line, then how paths work; with
// several roots, one line for each root.
func (r AllowedResult) Content() []server.Content {
	var b strings.Builder
	if len(r.Roots) == 0 {
		shown := make([]string, len(r.Directories))
		for i, d := range r.Directories {
			shown[i], _ = displayName(d)
		}
		return []server.Content{server.TextContent(strings.Join(shown, "\n") + "\n" + r.Note)}
	}
	for i, root := range r.Roots {
		rights := say(msgReadWrite)
		if root.ReadOnly {
			rights = say(msgReadOnly)
		}
		line := say(msgRootLine, lit(root.Path), rights)
		if i == 0 {
			line = say(msgRootLineFirst, lit(root.Path), rights)
		}
		if len(root.Directories) != 1 || root.Directories[0] != root.Path {
			shown := make(list, len(root.Directories))
			for j, d := range root.Directories {
				shown[j], _ = displayName(d)
			}
			if len(shown) == 0 {
				line = say(msgRootNone, line)
			} else {
				line = say(msgRootOnly, line, shown)
			}
		}
		b.WriteString(line.In(r.lang))
		b.WriteString("\n")
	}
	return []server.Content{server.TextContent(b.String() + r.Note)}
}

func (t *toolset) addListAllowed(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:        "list_allowed_directories",
		Schemas:     savedSchemas("list_allowed_directories"),
		Title:       "Where the file tools work",
		Description: t.allowedDescription(),
		Level:       security.Read,
	}, speak(func(ctx context.Context, call *server.Call, _ ListAllowedArgs) (AllowedResult, error) {
		dirs := t.sb.Allowed()
		if t.sb.Multi() {
			return t.allowedRoots(dirs, call.Lang()), nil
		}
		note := say(msgPathRules)
		switch {
		case len(dirs) == 0:
			note = say(msgNoDirs)
		case len(dirs) == 1 && dirs[0] == ".":
			note = say(msgWholeRoot, note)
		default:
			note = say(msgOnlyThese, note)
		}
		return AllowedResult{Directories: dirs, Note: note.In(call.Lang())}, nil
	}))
}

// allowedDescription is the description of list_allowed_directories.
func (t *toolset) allowedDescription() string {
	if t.sb.Multi() {
		return "Lists the roots the file tools work in (each with its name, whether it is read-only, and the directories that may be used) and says how paths are written: " +
			"\"NAME:/PATH\" in the root NAME, such as " + quote(t.example()) + ", and a plain relative path in the first root. " +
			"Call it first when unsure which paths are valid; then list_directory or directory_tree to look inside."
	}
	return "Lists the directories the file tools may read and change (\".\" means the whole root) and says how paths are written. " +
		"Call it first when unsure which paths are valid; then list_directory or directory_tree to look inside."
}

// example returns a path in the second root, for the descriptions.
func (t *toolset) example() string {
	roots := t.sb.Roots()
	return roots[min(1, len(roots)-1)].Path + "/README.md"
}

// allowedRoots is the result of list_allowed_directories with several
// roots, its note in lang.
func (t *toolset) allowedRoots(dirs []string, lang i18n.Lang) AllowedResult {
	res := AllowedResult{Directories: dirs}
	note := say(msgMultiRules)
	for _, r := range t.sb.Roots() {
		res.Roots = append(res.Roots, AllowedRoot{Name: r.Name, ReadOnly: r.ReadOnly, Path: r.Path, Directories: r.Allowed})
		if len(r.Allowed) == 0 || len(r.Allowed) > 1 || r.Allowed[0] != r.Path {
			note = say(msgRootsNarrowed, say(msgMultiRules))
		}
	}
	if len(dirs) == 0 {
		note = say(msgNoDirsAny, say(msgMultiRules))
	}
	res.Note = note.In(lang)
	return res
}
