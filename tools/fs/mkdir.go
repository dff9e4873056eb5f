package fs

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// newDirMode is the mode of directories the tools create.
const newDirMode fs.FileMode = 0o755

// CreateDirectoryArgs are the arguments of create_directory.
type CreateDirectoryArgs struct {
	Path   string `json:"path" chars:"path" minLength:"1" description:"Relative to the root."`
	DryRun bool   `json:"dry_run,omitempty" description:"Report what would be created."`
}

// CreateDirectoryResult is the result of create_directory.
type CreateDirectoryResult struct {
	Path    string   `json:"path" description:"The directory, relative to the root."`
	Created bool     `json:"created" description:"False when the directory already existed, which is not an error."`
	Made    []string `json:"made,omitempty" description:"The directories created (or, in a dry run, to be created), parents first."`
	DryRun  bool     `json:"dry_run,omitempty" description:"True when nothing was created because dry_run was set."`

	inLang
}

// Content returns one sentence saying what was done.
func (r CreateDirectoryResult) Content() []server.Content {
	var m message
	switch {
	case !r.Created:
		m = say(msgMkdirExists, lit(quote(r.Path)))
	case r.DryRun:
		m = say(msgMkdirDryRun, quoteList(r.Made))
	default:
		m = say(msgMkdirCreated, quoteList(r.Made))
	}
	return []server.Content{server.TextContent(m.In(r.lang))}
}

// quoteList quotes paths and joins them with commas and "and".
func quoteList(paths []string) arg {
	q := make(list, len(paths))
	for i, p := range paths {
		q[i] = quote(p)
	}
	if len(q) < 2 {
		return lit(strings.Join(q, ""))
	}
	return say(msgAnd, q[:len(q)-1], lit(q[len(q)-1]))
}

func (t *toolset) addCreateDirectory(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "create_directory",
		Schemas: savedSchemas("create_directory"),
		Title:   "Create a directory",
		Description: "Creates a directory and any missing parents, like mkdir -p; one that exists already is a success, a file in the way an error. " +
			"Use it before writing into a new folder.",
		Level:      security.Write,
		Targets:    []string{"path"},
		DryRun:     "dry_run",
		Idempotent: true,
	}, speak(t.createDirectory))
}

func (t *toolset) createDirectory(ctx context.Context, call *server.Call, in CreateDirectoryArgs) (CreateDirectoryResult, error) {
	rel, err := t.sb.ResolveNew(in.Path)
	if err != nil {
		return CreateDirectoryResult{}, err
	}
	res := CreateDirectoryResult{Path: rel, DryRun: in.DryRun}
	fsys := t.sb.Fs()
	var missing []string
	for p := rel; p != "."; p = path.Dir(p) {
		fi, err := fsys.Stat(p)
		if isMissing(err) {
			missing = append(missing, p)
			continue
		}
		if err != nil {
			return CreateDirectoryResult{}, t.sb.Explain("create", p, err)
		}
		if fi.IsDir() {
			break
		}
		if p == rel {
			return CreateDirectoryResult{}, fail(msgMkdirIsFile, lit(quote(rel)))
		}
		return CreateDirectoryResult{}, fail(msgMkdirUnderFile, lit(quote(p)))
	}
	if len(missing) == 0 {
		return res, nil
	}
	for _, p := range missing {
		if err := refuseTempName(p); err != nil {
			return CreateDirectoryResult{}, err
		}
	}
	if err := t.sb.CheckNewName(pathArg(rel)); err != nil {
		return CreateDirectoryResult{}, err
	}
	slices.Reverse(missing)
	res.Created, res.Made = true, missing
	if in.DryRun {
		return res, nil
	}
	msg := say(msgConfirmMkdir, lit(quote(rel)))
	if len(missing) > 1 {
		msg = say(msgConfirmMkdirParents, lit(quote(rel)), counted(len(missing)-1, msgMissingParent, msgMissingParents))
	}
	if err := confirm(ctx, call, msg); err != nil {
		return CreateDirectoryResult{}, err
	}
	if err := fsys.MkdirAll(rel, newDirMode); err != nil {
		return CreateDirectoryResult{}, t.sb.Explain("create", rel, err)
	}
	if !t.noDirSync {
		// Each new directory's entry is in its parent, which is synced so
		// that what was reported created stays so after a power loss.
		for _, p := range missing {
			if err := syncDir(fsys, path.Dir(p)); err != nil {
				return CreateDirectoryResult{}, fail(msgMkdirNotSynced, lit(quote(rel)), lit(quote(path.Dir(p))), cause{t.sb.Explain("sync", path.Dir(p), err)})
			}
		}
	}
	return res, nil
}
