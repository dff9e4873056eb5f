package fs

import (
	"context"
	"fmt"
	"strings"

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
		rights := "read and write"
		if root.ReadOnly {
			rights = "read-only"
		}
		fmt.Fprintf(&b, "%s (%s): paths in it are written %s/PATH", root.Path, rights, root.Path)
		if i == 0 {
			b.WriteString(", or as a plain relative PATH")
		}
		if len(root.Directories) != 1 || root.Directories[0] != root.Path {
			shown := make([]string, len(root.Directories))
			for j, d := range root.Directories {
				shown[j], _ = displayName(d)
			}
			if len(shown) == 0 {
				b.WriteString("; none of it may be used")
			} else {
				b.WriteString("; only " + strings.Join(shown, ", ") + " and what is below")
			}
		}
		b.WriteString("\n")
	}
	return []server.Content{server.TextContent(b.String() + r.Note)}
}

// pathRules tells the model how paths work.
const pathRules = `Paths are relative to the root and use "/" as the separator, such as "src/main.go"; "." is the root itself. ` +
	`".." may not lead above the root, absolute paths are accepted only inside it, and "~" is not expanded. ` +
	`Symbolic links that lead outside the root are not followed. ` +
	`A name holding characters that cannot be shown is shown with escapes, \u{X} for the character with code point X and \x{XX} for a byte; give it back exactly as shown.`

func (t *toolset) addListAllowed(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:        "list_allowed_directories",
		Title:       "Where the file tools work",
		Description: t.allowedDescription(),
		Level:       security.Read,
	}, func(ctx context.Context, _ *server.Call, _ ListAllowedArgs) (AllowedResult, error) {
		dirs := t.sb.Allowed()
		if t.sb.Multi() {
			return t.allowedRoots(dirs), nil
		}
		note := pathRules
		switch {
		case len(dirs) == 0:
			note = `No directory may be used: the client's roots include no part of the root. Ask the user to open a folder inside it.`
		case len(dirs) == 1 && dirs[0] == ".":
			note = `The whole root may be used. ` + note
		default:
			note = `Only these directories and what is below them may be used. ` + note
		}
		return AllowedResult{Directories: dirs, Note: note}, nil
	})
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

// multiRules tells the model how paths work with several roots.
const multiRules = `Each root has a name. A path names its root and a path inside it, "NAME:/PATH" (such as "notes:/todo.md"; "notes:" is the root itself); a plain relative path lies in the first root. ` +
	`Paths use "/" as the separator; ".." may not lead above a root, absolute paths are accepted only inside a root, and "~" is not expanded. ` +
	`Symbolic links that lead outside their root are not followed. Write tools refuse every path in a read-only root; copy from it into a writable root instead. ` +
	`A name holding characters that cannot be shown is shown with escapes, \u{X} for the character with code point X and \x{XX} for a byte; give it back exactly as shown.`

// allowedRoots is the result of list_allowed_directories with several
// roots.
func (t *toolset) allowedRoots(dirs []string) AllowedResult {
	res := AllowedResult{Directories: dirs, Note: multiRules}
	for _, r := range t.sb.Roots() {
		res.Roots = append(res.Roots, AllowedRoot{Name: r.Name, ReadOnly: r.ReadOnly, Path: r.Path, Directories: r.Allowed})
		if len(r.Allowed) == 0 || len(r.Allowed) > 1 || r.Allowed[0] != r.Path {
			res.Note = "The client's roots narrow some of these roots; only the directories listed may be used. " + multiRules
		}
	}
	if len(dirs) == 0 {
		res.Note = "No directory may be used: the client's roots include no part of any root. Ask the user to open a folder inside one. " + multiRules
	}
	return res
}
