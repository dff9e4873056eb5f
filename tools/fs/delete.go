package fs

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"syscall"

	"github.com/spf13/afero"
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

	summary message
	inLang
}

// Content returns a sentence saying what was done and, in a dry run, the
// paths that would be deleted.
func (r DeleteFileResult) Content() []server.Content {
	s := r.summary.In(r.lang)
	marked := false
	for _, p := range r.Paths {
		shown, escaped := displayName(p)
		s += "\n" + shown
		if escaped {
			s += escapedMark
			marked = true
		}
	}
	if r.Note != "" {
		s += "\n" + r.Note
	}
	if marked {
		s += "\n" + escapedNote(r.lang)
	}
	return []server.Content{server.TextContent(s)}
}

func (t *toolset) addDeleteFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "delete_file",
		Schemas: savedSchemas("delete_file"),
		Title:   "Delete a file or directory",
		Description: "Deletes a file, a symbolic link (not what it points to), an empty directory, or, with recursive true, a directory and everything in it. This cannot be undone. " +
			"The root itself is never deleted. Run it with dry_run true first to see how many files and bytes would go and which paths.",
		Level:       security.Admin,
		Targets:     []string{"path"},
		DryRun:      "dry_run",
		Destructive: true,
	}, speak(t.deleteFile))
}

// deletePlan is what delete_file is about to do: its result, and the
// entry as found.
type deletePlan struct {
	res DeleteFileResult
	fi  fs.FileInfo
}

func (t *toolset) deleteFile(ctx context.Context, call *server.Call, in DeleteFileArgs) (DeleteFileResult, error) {
	rel, err := t.sb.ResolveRemove(in.Path)
	if err != nil {
		return DeleteFileResult{}, err
	}
	if t.sb.IsRoot(rel) {
		return DeleteFileResult{}, fail(msgDeleteRoot, lit(quoteText(in.Path)))
	}
	p, err := change(ctx, t, call, in.DryRun, []string{rel},
		func() (deletePlan, message, error) { return t.planDelete(ctx, call, rel, in) },
		func(p *deletePlan) error { return t.runDelete(ctx, rel, p) })
	return p.res, err
}

// planDelete counts what a delete_file of rel takes and returns it with
// the sentence that asks the user to approve it.
func (t *toolset) planDelete(ctx context.Context, call *server.Call, rel string, in DeleteFileArgs) (deletePlan, message, error) {
	fsys := t.sb.Fs()
	fi, err := lstat(fsys, rel)
	if err != nil {
		return deletePlan{}, message{}, t.sb.Explain("delete", rel, err)
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
		var sel firstPaths
		add := func(p func() string, dir, regular bool, size func() int64) {
			if in.DryRun {
				s := p()
				if dir {
					s += "/"
				}
				sel.add(s, listMax)
			}
			if dir {
				res.Dirs++
				return
			}
			res.Files++
			if regular {
				res.Bytes += size()
			}
		}
		if tf, ok := asTreeFs(fsys); ok {
			// By descriptor: a tree deeper than the path limit is
			// counted, and then deleted, whole.
			err = tf.WalkTree(ctx, rel, func(e security.TreeEntry) error {
				if isTempName(e.Name()) {
					// The server's, counted nowhere (see streamDir,
					// which skips them in the walk below).
					if e.IsDir() {
						return fs.SkipDir
					}
					return nil
				}
				add(e.Path, e.IsDir(), e.Type.IsRegular(), func() int64 { return e.Size })
				return nil
			})
		} else {
			err = t.walk(ctx, rel, func(p, _ string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				add(func() string { return p }, d.IsDir(), d.Type().IsRegular(), func() int64 {
					if info, err := d.Info(); err == nil {
						return info.Size()
					}
					return 0
				})
				return nil
			})
		}
		if err != nil {
			if ctx.Err() != nil {
				return deletePlan{}, message{}, ctx.Err()
			}
			return deletePlan{}, message{}, t.sb.Explain("delete", rel, err)
		}
		res.Paths = sel.sorted(listMax)
		if res.Files+res.Dirs > 1 && !in.Recursive {
			return deletePlan{}, message{}, fail(msgDeleteNotEmpty, lit(quote(rel)), contents(res))
		}
		if in.DryRun {
			res.Paths = append([]string{rel + "/"}, res.Paths...)
			res.Paths = res.Paths[:min(len(res.Paths), listMax)]
			if n := res.Files + res.Dirs; n > len(res.Paths) {
				res.Note = say(msgDeleteShowing, num(len(res.Paths)), num(n)).In(call.Lang())
			}
		}
	}

	what := describeEntry(rel, fi)
	if fi.IsDir() && res.Files+res.Dirs > 1 {
		what = say(msgEverythingIn, what, contents(res))
	}
	res.summary = say(msgDeleted, what)
	if in.DryRun {
		res.summary = say(msgDeleteDryRun, what)
	}
	return deletePlan{res: res, fi: fi}, say(msgConfirmDelete, what), nil
}

// runDelete deletes rel as p plans.
func (t *toolset) runDelete(ctx context.Context, rel string, p *deletePlan) error {
	fsys := t.sb.Fs()
	var err error
	switch tf, ok := asTreeFs(fsys); {
	case !p.fi.IsDir():
		err = fsys.Remove(rel)
	case p.res.Files+p.res.Dirs == 1:
		// Empty but for the server's temporary entries, perhaps, which
		// go with it.
		if err = fsys.Remove(rel); errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST) {
			t.removeTemps(ctx, rel)
			err = fsys.Remove(rel)
		}
	case ok:
		err = tf.RemoveTree(ctx, rel)
	default:
		err = fsys.RemoveAll(rel)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return t.sb.Explain("delete", rel, err)
	}
	// The folder is synced, as after a write, so that a deletion reported
	// done survives a power loss. Its error is not the model's concern:
	// the entry is gone either way, and saying otherwise would be false.
	if !t.noDirSync {
		_ = syncDir(fsys, path.Dir(rel))
	}
	return nil
}

// contents describes what a directory held: "3 files and 1 subdirectory,
// 120 bytes".
func contents(r DeleteFileResult) message {
	return say(msgDirContents, counted(r.Files, msgFile, msgFiles), counted(r.Dirs-1, msgSubdir, msgSubdirs), size(r.Bytes))
}

// treeFs is a file system that walks and removes trees by descriptor, not
// by path, so that their depth is not bounded by the path limit:
// *security.RootFs on Linux. Elsewhere delete_file walks by path.
type treeFs interface {
	WalkTree(ctx context.Context, name string, fn func(security.TreeEntry) error) error
	RemoveTree(ctx context.Context, name string) error
}

// asTreeFs returns fsys, or the file system it wraps, as a treeFs if it
// is one.
func asTreeFs(fsys afero.Fs) (treeFs, bool) {
	tf, ok := unwrapFs(fsys).(treeFs)
	return tf, ok
}

// unwrapFs returns the file system below the sandbox's guard of new
// names, for what needs no such guard: walking and removing a tree,
// asking how much room a disk has.
func unwrapFs(fsys afero.Fs) afero.Fs {
	if u, ok := fsys.(interface{ Unwrap() afero.Fs }); ok {
		return u.Unwrap()
	}
	return fsys
}

// firstPaths keeps the first paths in sorted order of those added, up to
// a limit, in memory bounded by twice the limit: a dry run lists what it
// would delete without holding every path of a large tree.
type firstPaths struct{ paths []string }

// add adds the path p.
func (f *firstPaths) add(p string, limit int) {
	f.paths = append(f.paths, p)
	if len(f.paths) >= 2*max(limit, 1) {
		f.paths = f.sorted(limit)
	}
}

// sorted returns the first limit paths, sorted.
func (f *firstPaths) sorted(limit int) []string {
	slices.Sort(f.paths)
	return f.paths[:min(len(f.paths), limit)]
}
