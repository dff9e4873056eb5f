package fs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"syscall"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// MoveFileArgs are the arguments of move_file.
type MoveFileArgs struct {
	Source      string `json:"source" chars:"path" minLength:"1" description:"The file or directory to move or rename, relative to the root."`
	Destination string `json:"destination" chars:"path" minLength:"1" description:"Its new path, relative to the root, new name included (to move a.txt into docs, give docs/a.txt). Its directory must exist."`
	Overwrite   bool   `json:"overwrite,omitempty" description:"Replace a file already at destination (default false: an existing destination is an error). Directories are never replaced."`
	DryRun      bool   `json:"dry_run,omitempty" description:"Check everything and report what would be moved and replaced, without moving."`
}

// MoveFileResult is the result of move_file.
type MoveFileResult struct {
	Source      string `json:"source" description:"The old path, relative to the root."`
	Destination string `json:"destination" description:"The new path, relative to the root."`
	Type        string `json:"type" description:"What was moved: file, dir, symlink or other."`
	Replaced    bool   `json:"replaced" description:"True when a file at destination was replaced."`
	DryRun      bool   `json:"dry_run,omitempty" description:"True when nothing was moved because dry_run was set."`

	summary string
}

// Content returns one sentence saying what was done.
func (r MoveFileResult) Content() []server.Content {
	return []server.Content{server.TextContent(r.summary)}
}

func (t *toolset) addMoveFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:  "move_file",
		Title: "Move or rename",
		Description: "Moves or renames a file or a directory (with everything in it) within the root, in one step. " +
			"Between file systems (a mount point inside the root) only a file can be moved: it is copied, within the write limit, then the original deleted. " +
			"destination is the full new path, not a folder to move into; its directory must exist. " +
			"An existing destination is an error unless overwrite is true, and even then only a file is replaced, never a directory. " +
			"dry_run reports what would happen without moving.",
		Level:       security.Write,
		Targets:     []string{"source", "destination"},
		DryRun:      "dry_run",
		Destructive: true,
	}, t.moveFile)
}

func (t *toolset) moveFile(ctx context.Context, call *server.Call, in MoveFileArgs) (MoveFileResult, error) {
	src, dst, srcInfo, dstInfo, err := t.checkTransfer("move_file", in.Source, in.Destination, in.Overwrite)
	if err != nil {
		return MoveFileResult{}, err
	}
	res := MoveFileResult{Source: src, Destination: dst, Type: entryType(srcInfo.Mode()), Replaced: dstInfo != nil, DryRun: in.DryRun}
	what := describeEntry(src, srcInfo)
	action := fmt.Sprintf("%s to %s", what, quote(dst))
	if dstInfo != nil {
		action += ", replacing " + describeEntry(dst, dstInfo)
	}
	if in.DryRun {
		res.summary = "Dry run: move_file would move " + action + ". Nothing was moved."
		return res, nil
	}
	if err := confirm(ctx, call, "Move "+action+"."); err != nil {
		return MoveFileResult{}, err
	}
	if err := t.sb.Fs().Rename(src, dst); err != nil {
		if !errors.Is(err, syscall.EXDEV) {
			return MoveFileResult{}, t.sb.Explain("move", src, err)
		}
		if err := t.moveAcross(ctx, src, dst, srcInfo); err != nil {
			return MoveFileResult{}, err
		}
		res.summary = "Moved " + action + ", which is on another file system: copied, then the original deleted."
		return res, nil
	}
	res.summary = "Moved " + action + "."
	return res, nil
}

// moveAcross moves the file src to dst on another file system (where
// rename fails with EXDEV, as across a mount point inside the root): it
// copies src as copy_file does, within the write cap and the free space,
// keeping holes, then removes src. Directories and links are refused.
func (t *toolset) moveAcross(ctx context.Context, src, dst string, srcInfo fs.FileInfo) error {
	if !srcInfo.Mode().IsRegular() {
		return fmt.Errorf("%s and %s are on different file systems, and move_file moves only files between them; copy it with copy_file, then delete the original with delete_file",
			quote(src), quote(path.Dir(dst)))
	}
	const done = "nothing was moved"
	if err := t.checkWrite(dst, quote(src), srcInfo.Size(), allocated(srcInfo), done); err != nil {
		return err
	}
	if err := t.copyOne(ctx, src, dst, srcInfo.Mode().Perm()); err != nil {
		return err
	}
	if err := t.sb.Fs().Remove(src); err != nil {
		return fmt.Errorf("%s was copied to %s (another file system), but the original could not be deleted: %w", quote(src), quote(dst), t.sb.Explain("delete", src, err))
	}
	return nil
}

// describeEntry names an entry in a sentence: `the file "a.txt" (12
// bytes)`, `the directory "src"`.
func describeEntry(rel string, fi fs.FileInfo) string {
	switch entryType(fi.Mode()) {
	case typeFile:
		return fmt.Sprintf("the file %s (%s)", quote(rel), byteSize(fi.Size()))
	case typeDir:
		return "the directory " + quote(rel)
	case typeSymlink:
		return "the symbolic link " + quote(rel)
	}
	return otherKind(fi.Mode()) + " " + quote(rel)
}

// checkTransfer checks the arguments of move_file and copy_file (tool):
// both paths resolve, the source exists and is not the root, the
// destination is not the source, not inside it and not the root, its
// directory exists, and anything already there may be replaced: only
// with overwrite, only a regular file, and only by a file. It returns the
// resolved paths, the source's entry and the destination's, if it exists.
func (t *toolset) checkTransfer(tool, source, destination string, overwrite bool) (src, dst string, srcInfo, dstInfo fs.FileInfo, err error) {
	resolveSrc := t.sb.Resolve
	if tool == "move_file" {
		resolveSrc = t.sb.ResolveRemove // moving away changes the source's root
	}
	if src, err = resolveSrc(source); err != nil {
		return
	}
	if dst, err = t.sb.ResolveNew(destination); err != nil {
		return
	}
	fsys := t.sb.Fs()
	switch {
	case t.sb.IsRoot(src):
		err = fmt.Errorf("source is the root directory, which %s cannot take; name a file or directory inside it", tool)
		return
	case t.sb.IsRoot(dst):
		err = fmt.Errorf("destination is the root directory; give the full new path, such as %s", quote(path.Base(src)))
		return
	case src == dst:
		err = fmt.Errorf("source and destination are both %s; give a different destination", quote(src))
		return
	}
	if srcInfo, err = lstat(fsys, src); err != nil {
		err = t.sb.Explain("read", src, err)
		return
	}
	if srcInfo.IsDir() && within(dst, src) {
		err = fmt.Errorf("%s is inside %s; a directory cannot go inside itself", quote(dst), quote(src))
		return
	}
	fi, lerr := lstat(fsys, dst)
	switch {
	case isMissing(lerr):
		err = t.checkParent(dst)
		return
	case lerr != nil:
		err = t.sb.Explain("write", dst, lerr)
		return
	case fi.IsDir():
		err = fmt.Errorf("destination %s is an existing directory, which %s never replaces; to put %s inside it, give destination %s",
			quote(dst), tool, quote(path.Base(src)), quote(joinRel(dst, path.Base(src))))
		return
	case !overwrite:
		err = fmt.Errorf("destination %s already exists (%s); pass overwrite: true to replace it, or choose another destination",
			quote(dst), describeEntry(dst, fi))
		return
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("destination %s is %s; only regular files are replaced, so delete it first with delete_file or choose another destination",
			quote(dst), typeArticle(fi.Mode()))
		return
	case srcInfo.IsDir():
		err = fmt.Errorf("destination %s is a file and source %s a directory; a file is only replaced by a file, so delete it first with delete_file or choose another destination",
			quote(dst), quote(src))
		return
	}
	return src, dst, srcInfo, fi, nil
}

// typeArticle names the type of an entry that is not a regular file:
// "a directory", "a symbolic link", "a named pipe"...
func typeArticle(mode fs.FileMode) string {
	switch entryType(mode) {
	case typeDir:
		return "a directory"
	case typeSymlink:
		return "a symbolic link"
	case typeFile:
		return "a file"
	}
	return otherKind(mode)
}
