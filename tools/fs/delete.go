package fs

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// DeleteFileArgs are the arguments of delete_file.
type DeleteFileArgs struct {
	Path      string `json:"path" chars:"path" minLength:"1" description:"The file or directory to delete, relative to the root."`
	Recursive bool   `json:"recursive,omitempty" description:"Required to delete a directory that is not empty, with everything in it."`
	DryRun    bool   `json:"dry_run,omitempty" description:"List what would be deleted (how many files and directories, how many bytes) without deleting anything."`
}

// DeleteFileResult is the result of delete_file.
type DeleteFileResult struct {
	Path   string   `json:"path" description:"What was deleted, relative to the root."`
	Type   string   `json:"type" description:"file, dir, symlink or other."`
	Files  int      `json:"files" description:"How many files (and symbolic links and special files) were deleted."`
	Dirs   int      `json:"dirs" description:"How many directories were deleted, path itself included."`
	Bytes  int64    `json:"bytes" description:"How many bytes the deleted files held."`
	Paths  []string `json:"paths,omitempty" description:"In a dry run, what would be deleted, root-relative, up to the listing limit."`
	DryRun bool     `json:"dry_run,omitempty" description:"True when nothing was deleted because dry_run was set."`
	Note   string   `json:"note,omitempty" description:"Set when the list of paths is cut."`

	summary string
}

// Content returns a sentence saying what was done and, in a dry run, the
// paths that would be deleted.
func (r DeleteFileResult) Content() []server.Content {
	s := r.summary
	if len(r.Paths) > 0 {
		s += "\n" + strings.Join(r.Paths, "\n")
	}
	if r.Note != "" {
		s += "\n" + r.Note
	}
	return []server.Content{server.TextContent(s)}
}

func (t *toolset) addDeleteFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:  "delete_file",
		Title: "Delete a file or directory",
		Description: "Deletes a file, a symbolic link (not what it points to), an empty directory, or, with recursive true, a directory and everything in it. This cannot be undone. " +
			"The root itself is never deleted. Run it with dry_run true first to see how many files and bytes would go and which paths.",
		Level:       security.Admin,
		Targets:     []string{"path"},
		DryRun:      "dry_run",
		Destructive: true,
	}, t.deleteFile)
}

func (t *toolset) deleteFile(ctx context.Context, call *server.Call, in DeleteFileArgs) (DeleteFileResult, error) {
	rel, err := t.sb.Resolve(in.Path)
	if err != nil {
		return DeleteFileResult{}, err
	}
	if rel == "." {
		return DeleteFileResult{}, fmt.Errorf("%s is the root directory, which delete_file never deletes; name a path inside it", quote(in.Path))
	}
	fsys := t.sb.Fs()
	fi, err := lstat(fsys, rel)
	if err != nil {
		return DeleteFileResult{}, t.sb.Explain("delete", rel, err)
	}
	res := DeleteFileResult{Path: rel, Type: entryType(fi.Mode()), DryRun: in.DryRun}
	listMax := t.lim.MaxListEntries
	if !fi.IsDir() {
		res.Files = 1
		if fi.Mode().IsRegular() {
			res.Bytes = fi.Size()
		}
		if in.DryRun {
			res.Paths = []string{rel}
		}
	} else {
		res.Dirs = 1
		err := t.walk(ctx, rel, func(p, _ string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if in.DryRun && len(res.Paths) < listMax {
				if d.IsDir() {
					res.Paths = append(res.Paths, p+"/")
				} else {
					res.Paths = append(res.Paths, p)
				}
			}
			if d.IsDir() {
				res.Dirs++
				return nil
			}
			res.Files++
			if d.Type().IsRegular() {
				if info, err := d.Info(); err == nil {
					res.Bytes += info.Size()
				}
			}
			return nil
		})
		if err != nil {
			return DeleteFileResult{}, err
		}
		if res.Files+res.Dirs > 1 && !in.Recursive {
			return DeleteFileResult{}, fmt.Errorf("%s is a directory that is not empty (%s); pass recursive: true to delete it with everything in it (with dry_run: true as well to first see what that would delete)",
				quote(rel), contents(res))
		}
		if in.DryRun {
			res.Paths = append([]string{rel + "/"}, res.Paths...)
			res.Paths = res.Paths[:min(len(res.Paths), listMax)]
			if n := res.Files + res.Dirs; n > len(res.Paths) {
				res.Note = fmt.Sprintf("Showing %d of the %d paths.", len(res.Paths), n)
			}
		}
	}

	what := describeEntry(rel, fi)
	if fi.IsDir() && res.Files+res.Dirs > 1 {
		what += " and everything in it: " + contents(res)
	}
	if in.DryRun {
		res.summary = "Dry run: delete_file would delete " + what + ". Nothing was deleted."
		return res, nil
	}
	if err := confirm(ctx, call, "Delete "+what+". This cannot be undone."); err != nil {
		return DeleteFileResult{}, err
	}
	if fi.IsDir() && res.Files+res.Dirs > 1 {
		err = fsys.RemoveAll(rel)
	} else {
		err = fsys.Remove(rel)
	}
	if err != nil {
		return DeleteFileResult{}, t.sb.Explain("delete", rel, err)
	}
	res.summary = "Deleted " + what + "."
	return res, nil
}

// contents describes what a directory held: "3 files and 1 subdirectory,
// 120 bytes".
func contents(r DeleteFileResult) string {
	return fmt.Sprintf("%s and %s, %s", plural(r.Files, "file", "files"), plural(r.Dirs-1, "subdirectory", "subdirectories"), byteSize(r.Bytes))
}
