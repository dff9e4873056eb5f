package fs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// MoveFileArgs are the arguments of move_file.
type MoveFileArgs struct {
	Source      string `json:"source" chars:"path" minLength:"1" description:"Relative to the root."`
	Destination string `json:"destination" chars:"path" minLength:"1" description:"Full new path (docs/a.txt, not docs); its directory must exist."`
	Overwrite   bool   `json:"overwrite,omitempty" description:"Replace a file at destination; never a directory."`
	DryRun      bool   `json:"dry_run,omitempty" description:"Report what would be moved."`
}

// MoveFileResult is the result of move_file.
type MoveFileResult struct {
	Source      string `json:"source" description:"The old path, relative to the root."`
	Destination string `json:"destination" description:"The new path, relative to the root."`
	Type        string `json:"type" description:"What was moved: file, dir, symlink or other."`
	Replaced    bool   `json:"replaced" description:"True when a file at destination was replaced."`
	Copied      bool   `json:"copied,omitempty" description:"True when the move crossed file systems: a copy, then the deletion of the original."`
	DryRun      bool   `json:"dry_run,omitempty" description:"True when nothing was moved because dry_run was set."`

	summary message
	inLang
}

// Content returns one sentence saying what was done.
func (r MoveFileResult) Content() []server.Content {
	return []server.Content{server.TextContent(r.summary.In(r.lang))}
}

func (t *toolset) addMoveFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "move_file",
		Schemas: savedSchemas("move_file"),
		Title:   "Move or rename",
		Description: fmt.Sprintf("Moves or renames a file, symbolic link or directory within the root, in one step. "+
			"Across file systems it copies, then deletes the original, within %s and %d entries.", descSize(t.lim.MaxWriteBytes), t.lim.MaxResults),
		Level:       security.Write,
		Targets:     []string{"source", "destination"},
		DryRun:      "dry_run",
		Destructive: true,
	}, speak(t.moveFile))
}

// movePlan is what move_file is about to do: its result, the source as
// found, the copy planned when the paths are known to be on different
// file systems, and the phrases that describe the move.
type movePlan struct {
	res              MoveFileResult
	srcInfo, dstInfo fs.FileInfo
	mv               *crossMove
	across           message
}

// action describes the move: what goes where, and what it replaces.
func (p *movePlan) action() message {
	src, dst := p.res.Source, p.res.Destination
	var what arg = describeEntry(src, p.srcInfo)
	if p.mv != nil {
		what = p.mv.contents()
	}
	s := say(msgMoveAction, what, lit(quote(dst)))
	if p.dstInfo != nil {
		s = say(msgReplacing, s, describeEntry(dst, p.dstInfo))
	}
	return s
}

func (t *toolset) moveFile(ctx context.Context, call *server.Call, in MoveFileArgs) (MoveFileResult, error) {
	src, dst, err := t.resolveTransfer("move_file", in.Source, in.Destination)
	if err != nil {
		return MoveFileResult{}, err
	}
	p, err := change(ctx, t, call, in.DryRun, []string{src, dst},
		func() (movePlan, message, error) { return t.planMove(ctx, src, dst, in) },
		func(p *movePlan) error { return t.runMove(ctx, call, src, dst, p) })
	return p.res, err
}

// planMove checks a move_file of src to dst and returns what it will do
// and the sentence that asks the user to approve it.
func (t *toolset) planMove(ctx context.Context, src, dst string, in MoveFileArgs) (movePlan, message, error) {
	srcInfo, dstInfo, err := t.checkTransfer("move_file", src, dst, in.Overwrite)
	if err != nil {
		return movePlan{}, message{}, err
	}
	p := movePlan{
		res:     MoveFileResult{Source: src, Destination: dst, Type: entryType(srcInfo.Mode()), Replaced: dstInfo != nil, DryRun: in.DryRun},
		srcInfo: srcInfo,
		dstInfo: dstInfo,
		across:  say(msgAcrossFs),
	}
	// When the devices already tell that the paths are on different file
	// systems, the copy is planned, and its limits checked, before the
	// dry run and the confirmation; otherwise only the rename finds out.
	if t.onOtherFileSystem(src, srcInfo, dst) {
		if p.mv, err = t.planCrossMove(ctx, src, dst, srcInfo); err != nil {
			return movePlan{}, message{}, err
		}
	}
	if a, _ := t.sb.SplitRoot(src); a != "" {
		if b, _ := t.sb.SplitRoot(dst); a != b {
			p.across = say(msgAcrossRoots)
		}
	}
	if in.DryRun {
		p.res.summary = say(msgMoveDryRun, p.action())
		if p.mv != nil {
			p.res.Copied = true
			p.res.summary = say(msgMoveDryRunAcross, p.action(), p.across)
		}
		return p, message{}, nil
	}
	ask := say(msgConfirmMove, p.action())
	if p.mv != nil {
		ask = say(msgConfirmMoveAcross, p.action(), p.across)
	}
	return p, ask, nil
}

// runMove moves src to dst as p plans: a rename, or where the rename
// meets another file system, a copy and the deletion of the original.
func (t *toolset) runMove(ctx context.Context, call *server.Call, src, dst string, p *movePlan) error {
	err := t.sb.Fs().Rename(src, dst)
	switch {
	case err == nil:
		if err := t.syncRenamed(src, dst); err != nil {
			return err
		}
		p.res.summary = say(msgMoved, p.action())
		return nil
	case !errors.Is(err, syscall.EXDEV):
		return t.sb.Explain("move", src, err)
	case p.mv == nil:
		if p.mv, err = t.planCrossMove(ctx, src, dst, p.srcInfo); err != nil {
			return err
		}
	}
	if err := t.moveAcross(ctx, call, p.mv); err != nil {
		return err
	}
	p.res.Copied = true
	p.res.summary = say(msgMovedAcross, p.action(), p.across)
	return nil
}

// syncRenamed syncs the directories of dst and src after a rename, the
// new name's first, so that a power loss cannot undo a move reported done
// (nor, the old name's sync failing, lose it: the new name is on disk).
func (t *toolset) syncRenamed(src, dst string) error {
	if t.noDirSync {
		return nil
	}
	dirs := []string{path.Dir(dst)}
	if d := path.Dir(src); d != dirs[0] {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		if err := syncDir(t.sb.Fs(), dir); err != nil {
			return fail(msgMoveNotSynced, lit(quote(src)), lit(quote(dst)), lit(quote(dir)), cause{t.sb.Explain("sync", dir, err)})
		}
	}
	return nil
}

// describeEntry names an entry in a sentence: `the file "a.txt" (12
// bytes)`, `the directory "src"`.
func describeEntry(rel string, fi fs.FileInfo) message {
	switch entryType(fi.Mode()) {
	case typeFile:
		return say(msgTheFile, lit(quote(rel)), size(fi.Size()))
	case typeDir:
		return say(msgTheDir, lit(quote(rel)))
	case typeSymlink:
		return say(msgTheLink, lit(quote(rel)))
	}
	return say(msgTheOther, kind(fi.Mode()), lit(quote(rel)))
}

// resolveTransfer resolves the paths of move_file and copy_file (tool)
// and checks them against each other: the source is not the root, the
// destination is not the root and not the source.
func (t *toolset) resolveTransfer(tool, source, destination string) (src, dst string, err error) {
	resolveSrc := t.sb.Resolve
	if tool == "move_file" {
		resolveSrc = t.sb.ResolveRemove // moving away changes the source's root
	}
	if src, err = resolveSrc(source); err != nil {
		return "", "", err
	}
	if dst, err = t.sb.ResolveNew(destination); err != nil {
		return "", "", err
	}
	switch {
	case t.sb.IsRoot(src):
		return "", "", fail(msgSourceIsRoot, lit(tool))
	case t.sb.IsRoot(dst):
		root, _ := t.sb.SplitRoot(dst)
		_, name := t.sb.SplitRoot(src)
		return "", "", fail(msgDestIsRoot, lit(quote(t.sb.JoinRoot(root, path.Base(name)))))
	case src == dst:
		return "", "", fail(msgSameSourceDest, lit(quote(src)))
	}
	return src, dst, nil
}

// checkTransfer checks a move_file or copy_file (tool) of src to dst,
// resolved by resolveTransfer: the source exists, the destination is not
// inside it, its directory exists, and anything already there may be
// replaced: only with overwrite, only a regular file, and only by a file.
// It returns the source's entry and the destination's, if it exists.
func (t *toolset) checkTransfer(tool, src, dst string, overwrite bool) (srcInfo, dstInfo fs.FileInfo, err error) {
	fsys := t.sb.Fs()
	if srcInfo, err = lstat(fsys, src); err != nil {
		err = t.sb.Explain("read", src, err)
		return
	}
	if srcInfo.IsDir() && within(dst, src) {
		err = fail(msgIntoItself, lit(quote(dst)), lit(quote(src)))
		return
	}
	fi, lerr := lstat(fsys, dst)
	switch {
	case isMissing(lerr):
		if err = refuseTempName(dst); err == nil {
			err = t.checkParent(dst)
		}
		return
	case lerr != nil:
		err = t.sb.Explain("write", dst, lerr)
		return
	case fi.IsDir():
		err = fail(msgDestIsDir, lit(quote(dst)), lit(tool), lit(quote(path.Base(src))), lit(quote(joinRel(dst, path.Base(src)))))
		return
	case !overwrite:
		err = fail(msgDestExists, lit(quote(dst)), describeEntry(dst, fi))
		return
	case tool == "move_file" && t.sameFileAcrossRoots(src, dst, srcInfo, fi):
		// Two roots on one folder, or one inside another, name one file
		// twice. A rename onto itself would change nothing, but between
		// roots a move is a copy and a removal, which would delete it.
		err = fail(msgSameFileTwoRoots, lit(quote(src)), lit(quote(dst)))
		return
	case !fi.Mode().IsRegular():
		err = fail(msgDestNotRegular, lit(quote(dst)), typeArticle(fi.Mode()))
		return
	case srcInfo.IsDir():
		err = fail(msgDestFileSrcDir, lit(quote(dst)), lit(quote(src)))
		return
	}
	return srcInfo, fi, nil
}

// typeArticle names the type of an entry that is not a regular file:
// "a directory", "a symbolic link", "a named pipe"...
func typeArticle(mode fs.FileMode) arg {
	switch entryType(mode) {
	case typeDir:
		return say(msgADir)
	case typeSymlink:
		return say(msgALink)
	case typeFile:
		return say(msgAFile)
	}
	return kind(mode)
}

// sameFileAcrossRoots reports whether src and dst, in different roots,
// are one file.
func (t *toolset) sameFileAcrossRoots(src, dst string, srcInfo, dstInfo fs.FileInfo) bool {
	srcRoot, _ := t.sb.SplitRoot(src)
	dstRoot, _ := t.sb.SplitRoot(dst)
	return srcRoot != dstRoot && os.SameFile(srcInfo, dstInfo)
}
