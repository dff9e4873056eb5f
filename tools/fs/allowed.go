package fs

import (
	"context"
	"strings"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// ListAllowedArgs are the arguments of list_allowed_directories: none.
type ListAllowedArgs struct{}

// AllowedResult is the result of list_allowed_directories.
type AllowedResult struct {
	Directories []string `json:"directories" description:"The directories the tools may use, relative to the root; \".\" is the whole root."`
	Note        string   `json:"note" description:"How paths work."`
}

// Content returns the directories one a line, then how paths work.
func (r AllowedResult) Content() []server.Content {
	shown := make([]string, len(r.Directories))
	for i, d := range r.Directories {
		shown[i], _ = displayName(d)
	}
	return []server.Content{server.TextContent(strings.Join(shown, "\n") + "\n" + r.Note)}
}

// pathRules tells the model how paths work.
const pathRules = `Paths are relative to the root and use "/" as the separator, such as "src/main.go"; "." is the root itself. ` +
	`".." may not lead above the root, absolute paths are accepted only inside it, and "~" is not expanded. ` +
	`Symbolic links that lead outside the root are not followed. ` +
	`A name holding characters that cannot be shown is shown with escapes, \u{X} for the character with code point X and \x{XX} for a byte; give it back exactly as shown.`

func (t *toolset) addListAllowed(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:  "list_allowed_directories",
		Title: "Where the file tools work",
		Description: "Lists the directories the file tools may read and change (\".\" means the whole root) and says how paths are written. " +
			"Call it first when unsure which paths are valid; then list_directory or directory_tree to look inside.",
		Level: security.Read,
	}, func(ctx context.Context, _ *server.Call, _ ListAllowedArgs) (AllowedResult, error) {
		dirs := t.sb.Allowed()
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
