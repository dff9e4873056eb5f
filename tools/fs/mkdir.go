package fs

import (
	"context"
	"fmt"
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
	Path   string `json:"path" chars:"path" minLength:"1" description:"The directory to create, relative to the root; missing parents are created too."`
	DryRun bool   `json:"dry_run,omitempty" description:"Report which directories would be created without creating them."`
}

// CreateDirectoryResult is the result of create_directory.
type CreateDirectoryResult struct {
	Path    string   `json:"path" description:"The directory, relative to the root."`
	Created bool     `json:"created" description:"False when the directory already existed, which is not an error."`
	Made    []string `json:"made,omitempty" description:"The directories created (or, in a dry run, to be created), parents first."`
	DryRun  bool     `json:"dry_run,omitempty" description:"True when nothing was created because dry_run was set."`
}

// Content returns one sentence saying what was done.
func (r CreateDirectoryResult) Content() []server.Content {
	var s string
	switch {
	case !r.Created:
		s = fmt.Sprintf("The directory %s already exists; nothing was changed.", quote(r.Path))
	case r.DryRun:
		s = fmt.Sprintf("Dry run: create_directory would create %s. Nothing was created.", quoteList(r.Made))
	default:
		s = fmt.Sprintf("Created %s.", quoteList(r.Made))
	}
	return []server.Content{server.TextContent(s)}
}

// quoteList quotes paths and joins them with commas and "and".
func quoteList(paths []string) string {
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = quote(p)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func (t *toolset) addCreateDirectory(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:  "create_directory",
		Title: "Create a directory",
		Description: "Creates a directory and any missing parents (like mkdir -p). A directory that already exists is a success with created=false, so it is safe to call again; a file in the way is an error. " +
			"Use it before write_file or copy_file into a new folder. dry_run reports what would be created.",
		Level:      security.Write,
		Targets:    []string{"path"},
		DryRun:     "dry_run",
		Idempotent: true,
	}, t.createDirectory)
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
			return CreateDirectoryResult{}, fmt.Errorf("%s already exists and is a file, not a directory; choose another name", quote(rel))
		}
		return CreateDirectoryResult{}, fmt.Errorf("%s is a file, so no directory can be created under it; choose another path", quote(p))
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
	msg := fmt.Sprintf("Create the directory %s.", quote(rel))
	if len(missing) > 1 {
		msg = fmt.Sprintf("Create the directory %s and %s.", quote(rel), plural(len(missing)-1, "missing parent", "missing parents"))
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
				return CreateDirectoryResult{}, fmt.Errorf("%s was created, but %s could not be synced to disk (%w), so a power loss may still undo it; check the disk",
					quote(rel), quote(path.Dir(p)), t.sb.Explain("sync", path.Dir(p), err))
			}
		}
	}
	return res, nil
}
