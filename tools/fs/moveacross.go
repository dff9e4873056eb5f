package fs

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/internal/sparsecopy"
	"github.com/stdiotools/toolserver/server"
)

// Moving between file systems.
//
// rename(2) cannot cross file systems: across a mount point inside the
// root, or between two roots of the sandbox, it fails with EXDEV, and
// move_file then moves the entry as a copy followed by the deletion of the
// original. The steps are ordered so that a server killed at any moment
// leaves the source whole, or the destination whole, or both, and never
// part of an entry under the destination's name:
//
//   - A file is copied as copy_file copies one (writeAtomic: a file
//     without a name, or a temporary .toolserver-<random>.tmp, in the
//     destination's directory, synced, then linked or renamed into
//     place), the destination's directory is synced, and only then is the
//     source deleted.
//   - A symbolic link is made again under a temporary name beside the
//     destination and renamed into place.
//   - A directory is copied into a temporary directory beside the
//     destination, named as the temporary files of atomic writes are
//     (.toolserver-<random>.tmp); every file and every directory in it is
//     synced, then it is renamed to the destination, whose directory is
//     synced, and only then is the source deleted.
//
// A kill before the rename leaves the source whole, and may leave a
// .toolserver-*.tmp file (where files cannot be created without a name) or
// directory holding part of the copy, which the tools hide and remove
// once stale (see tempfiles.go). A kill after
// it leaves the destination whole and the source whole or partly deleted.
//
// The deletion takes only what was copied: each file still as it was
// copied (same size, modification time and inode), each link copied, and
// each directory that is then empty. What changed or appeared in the
// source meanwhile stays, and the result says so; so does any failure to
// delete. It runs to its end even if the call is cancelled, since the
// destination is complete by then.
//
// Kept: the content (holes of sparse files stay holes), permissions,
// modification times of files and directories, symbolic links as they are
// stored. Not kept: owners, access times, the times of links, extended
// attributes and ACLs, and hard links (each name becomes its own file).
// Named pipes, sockets and devices cannot be made again, so a directory
// holding one is refused, and so is a link the sandbox would not make (an
// absolute one, or one leading out of the root from its new place).

// crossMove is a move between file systems, planned.
type crossMove struct {
	src, dst string
	info     fs.FileInfo // the source, not followed
	plan     copyPlan    // for a file, one file; for a link, one link
}

// planCrossMove plans moving src, whose entry is srcInfo, to dst on
// another file system, and checks that it can be done: within the write
// cap, the entry limit and the free space, with nothing in it that cannot
// be made again.
func (t *toolset) planCrossMove(ctx context.Context, src, dst string, srcInfo fs.FileInfo) (*crossMove, error) {
	// The name is checked now, not after the copy, when the rename would.
	if err := t.sb.CheckNewName(pathArg(dst)); err != nil {
		return nil, err
	}
	mv := &crossMove{src: src, dst: dst, info: srcInfo}
	switch mode := srcInfo.Mode(); {
	case mode.IsRegular():
		mv.plan.files = []planEntry{{sub: "", mode: mode.Perm(), size: srcInfo.Size(), info: srcInfo}}
		mv.plan.bytes, mv.plan.alloc = srcInfo.Size(), sparsecopy.Allocated(srcInfo)
		if err := t.checkCap(lit(quote(src)), srcInfo.Size(), say(msgAcrossCopying, say(msgNothingMoved))); err != nil {
			return nil, err
		}
	case mode&fs.ModeSymlink != 0:
		lr, ok := t.sb.Fs().(afero.LinkReader)
		if !ok {
			return nil, t.sb.Explain("read", src, afero.ErrNoReadlink)
		}
		target, err := lr.ReadlinkIfPossible(src)
		if err != nil {
			return nil, t.sb.Explain("read", src, err)
		}
		if !linkFits(target, dst) {
			return nil, fail(msgLinkCannotMove, lit(quote(src)), lit(quote(path.Dir(dst))), say(msgNothingMoved))
		}
		mv.plan.links = []planEntry{{sub: "", info: srcInfo, target: target}}
	case mode.IsDir():
		plan, err := t.planCopy(ctx, "move_file", src, srcInfo, true)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fail(msgAcrossPlanFailed, lit(quote(src)), lit(quote(path.Dir(dst))), cause{err}, say(msgNothingMoved))
		}
		if len(plan.skipped) > 0 {
			return nil, t.specialInside(src, plan.skipped)
		}
		for _, l := range plan.links {
			if !linkFits(l.target, joinRel(dst, l.sub)) {
				return nil, fail(msgLinkInsideCannotMove, lit(quote(src)), lit(quote(joinRel(src, l.sub))), lit(quote(path.Dir(joinRel(dst, l.sub)))), say(msgNothingMoved))
			}
		}
		mv.plan = plan
	default:
		return nil, fail(msgAcrossSpecialKind, lit(quote(src)), kind(mode), say(msgNothingMoved))
	}
	if err := t.checkSpace(dst, mv.plan.alloc, say(msgNothingMoved)); err != nil {
		return nil, err
	}
	return mv, nil
}

// specialInside is the refusal to move the directory src, which holds the
// special files special, to another file system.
func (t *toolset) specialInside(src string, special []string) error {
	var which arg = say(msgAnySpecial)
	if fi, err := lstat(t.sb.Fs(), special[0]); err == nil {
		which = kind(fi.Mode())
	}
	what := say(msgSpecialInsideNamed, which, lit(quote(special[0])))
	if n := len(special) - 1; n > 0 {
		what = say(msgSpecialInsideMore, what, counted(n, msgOtherSpecial, msgOtherSpecials))
	}
	return fail(msgSpecialsInside, lit(quote(src)), what, say(msgNothingMoved))
}

// linkFits reports whether a symbolic link to target can be made at the
// root-relative path at: the sandbox makes only relative links that stay
// inside the root (see security.RootFs.SymlinkIfPossible).
func linkFits(target, at string) bool {
	if target == "" || path.IsAbs(target) {
		return false
	}
	p := path.Join(path.Dir(at), target)
	return p != ".." && !strings.HasPrefix(p, "../")
}

// contents describes what the move carries: `the file "a.txt" (3 bytes)`,
// `the directory "src" (2 files, 1 symbolic link and 1 subdirectory, 40
// bytes)`.
func (mv *crossMove) contents() message {
	s := describeEntry(mv.src, mv.info)
	if !mv.info.IsDir() {
		return s
	}
	p := mv.plan
	var files arg = counted(len(p.files), msgFile, msgFiles)
	if len(p.links) > 0 {
		files = joined{files, counted(len(p.links), msgLink, msgLinks)}
	}
	return say(msgMoveContents, s, files, counted(len(p.dirs)-1, msgSubdir, msgSubdirs), size(p.bytes))
}

// moveAcross carries out mv. Its errors say what was done and what was
// not.
func (t *toolset) moveAcross(ctx context.Context, call *server.Call, mv *crossMove) error {
	t.sweepBeforeWrite(ctx, path.Dir(mv.dst))
	switch {
	case mv.info.IsDir():
		return t.moveTreeAcross(ctx, call, mv)
	case mv.info.Mode().IsRegular():
		return t.moveFileAcross(ctx, call, mv)
	}
	return t.moveLinkAcross(mv)
}

// moveFileAcross moves a file: an atomic copy, then the deletion.
func (t *toolset) moveFileAcross(ctx context.Context, call *server.Call, mv *crossMove) error {
	fsys := t.sb.Fs()
	e := &mv.plan.files[0]
	fi, err := t.copyOne(ctx, mv.src, mv.dst, e.mode, copyOpts{move: true, meter: newCopyMeter(call, mv.plan), dirSynced: true})
	if err != nil {
		return fail(msgNotMovedAcross, lit(quote(mv.src)), lit(quote(mv.dst)), cause{err})
	}
	e.info = fi
	keepTime(fsys, mv.dst, fi)
	return t.finishMove(mv)
}

// moveLinkAcross moves a symbolic link: made again under a temporary name
// beside the destination, renamed into place, then deleted.
func (t *toolset) moveLinkAcross(mv *crossMove) error {
	fsys := t.sb.Fs()
	tmp := joinRel(path.Dir(mv.dst), tempName())
	err := symlink(fsys, mv.plan.links[0].target, tmp)
	if err == nil {
		if err = fsys.Rename(tmp, mv.dst); err != nil {
			_ = fsys.Remove(tmp)
		}
	}
	if err != nil {
		return fail(msgNotMovedAcross, lit(quote(mv.src)), lit(quote(mv.dst)), cause{t.sb.Explain("create", mv.dst, err)})
	}
	return t.finishMove(mv)
}

// moveTreeAcross moves a directory: copied into a temporary directory
// beside the destination, renamed into place, then deleted.
func (t *toolset) moveTreeAcross(ctx context.Context, call *server.Call, mv *crossMove) error {
	fsys := t.sb.Fs()
	tmp := joinRel(path.Dir(mv.dst), tempName())
	done, err := t.copyTree(ctx, mv.src, tmp, mv.plan, copyOpts{move: true, meter: newCopyMeter(call, mv.plan)})
	stage := say(msgStageStopped, num(done), num(len(mv.plan.files)))
	if err == nil {
		stage = say(msgStagePlaced)
		if cerr := ctx.Err(); cerr != nil {
			err = cerr // the last moment to stop with nothing moved
		} else if _, lerr := lstat(fsys, mv.dst); !isMissing(lerr) {
			// A rename would replace an empty directory that appeared
			// there since the check; a move never replaces one.
			err = fail(msgAppeared, lit(quote(mv.dst)))
		} else if rerr := fsys.Rename(tmp, mv.dst); rerr != nil {
			err = t.sb.Explain("rename", mv.dst, rerr)
		}
	}
	if err == nil {
		keepTime(fsys, mv.dst, mv.plan.dirs[0].info)
		return t.finishMove(mv)
	}
	if ctx.Err() == nil {
		stage = say(msgWithCause, stage, cause{err})
	}
	msg := say(msgNotMovedStage, lit(quote(mv.src)), lit(quote(mv.dst)), stage)
	if rerr := t.removeTree(context.WithoutCancel(ctx), tmp); rerr != nil {
		msg = say(msgCopyLeftIn, msg, lit(quote(tmp)))
	} else {
		msg = say(msgCopyDeleted, msg)
	}
	if ctx.Err() != nil {
		return fail(msgWithCause, msg, cause{ctx.Err()})
	}
	return &msgError{m: msg}
}

// finishMove ends a move whose copy is in place at mv.dst: it syncs the
// destination's directory, so that the copy is on disk before the
// original goes, and deletes the original.
func (t *toolset) finishMove(mv *crossMove) error {
	fsys := t.sb.Fs()
	if err := syncDir(fsys, path.Dir(mv.dst)); err != nil {
		return fail(msgMoveCopyNotSynced, lit(quote(mv.src)), lit(quote(mv.dst)), cause{t.sb.Explain("sync", path.Dir(mv.dst), err)})
	}
	kept, err := t.removeSource(mv)
	if len(kept) == 0 && err == nil {
		_ = syncDir(fsys, path.Dir(mv.src)) // durable or not, nothing is lost
		return nil
	}
	var why reasons
	if err != nil {
		why = append(why, cause{err})
	}
	if !mv.info.IsDir() {
		if len(kept) > 0 {
			why = append(why, say(msgMoveSourceChanged, lit(quote(mv.src))))
		}
		return fail(msgMoveOriginalKept, lit(quote(mv.src)), lit(quote(mv.dst)), why)
	}
	if len(kept) > 0 {
		var first skipList
		for _, p := range kept {
			first.add(p, nil)
		}
		names := make(list, len(first.first))
		for i, e := range first.first {
			names[i] = quote(e.Path)
		}
		var s arg = names
		if more := first.n - len(first.first); more > 0 {
			s = say(msgAndMore, s, num(more))
		}
		why = append(why, say(msgMoveTreeKept, s))
	}
	return fail(msgMoveTreeRemains, lit(quote(mv.src)), lit(quote(mv.dst)), why)
}

// removeSource deletes the source of a move whose copy is in place: each
// file and link still as it was copied, then each directory, deepest
// first, that this leaves empty. It deletes nothing it did not copy: what
// changed or appeared since stays, and so does every directory holding
// it. It returns what it kept because it changed (a file or link) or
// gained entries (a directory), and the first failure to delete, which
// stays as well.
func (t *toolset) removeSource(mv *crossMove) (kept []string, firstErr error) {
	fsys := t.sb.Fs()
	var failed []string
	fail := func(p string, err error) {
		failed = append(failed, p)
		if firstErr == nil {
			firstErr = t.sb.Explain("delete", p, err)
		}
	}
	for _, list := range [][]planEntry{mv.plan.files, mv.plan.links} {
		for _, e := range list {
			p := joinRel(mv.src, e.sub)
			now, err := lstat(fsys, p)
			switch {
			case isMissing(err):
				continue // gone already: the copy has it
			case err != nil:
				fail(p, err)
				continue
			case !sameVersion(now, e.info):
				kept = append(kept, p)
				continue
			}
			if err := fsys.Remove(p); err != nil && !isMissing(err) {
				fail(p, err)
			}
		}
	}
	for i := len(mv.plan.dirs) - 1; i >= 0; i-- {
		p := joinRel(mv.src, mv.plan.dirs[i].sub)
		switch err := fsys.Remove(p); {
		case err == nil, isMissing(err):
		case errors.Is(err, syscall.ENOTEMPTY), errors.Is(err, syscall.EEXIST):
			if !holdsAny(p, kept) && !holdsAny(p, failed) {
				kept = append(kept, p) // something appeared in it
			}
		default:
			fail(p, err)
		}
	}
	return kept, firstErr
}

// holdsAny reports whether one of paths lies below the directory dir.
func holdsAny(dir string, paths []string) bool {
	for _, p := range paths {
		if p != dir && within(p, dir) {
			return true
		}
	}
	return false
}

// removeTree deletes the tree rel: by descriptor where the file system
// can (see treeFs), otherwise by path.
func (t *toolset) removeTree(ctx context.Context, rel string) error {
	if tf, ok := asTreeFs(t.sb.Fs()); ok {
		return tf.RemoveTree(ctx, rel)
	}
	return t.sb.Fs().RemoveAll(rel)
}

// onOtherFileSystem reports whether src, whose entry is srcInfo, and dst
// lie on different file systems, as far as the devices Stat reports tell:
// the directory holding src (src itself if it is a directory) against the
// one that will hold dst. Directories are compared, not files, because
// an overlay file system reports the device of the layer that holds a
// file. It returns false when it cannot tell; the rename finds out then.
// Two roots of a sandbox with several count as two file systems, even on
// one disk: each is its own os.Root, and no rename crosses from one to
// the other.
func (t *toolset) onOtherFileSystem(src string, srcInfo fs.FileInfo, dst string) bool {
	if a, _ := t.sb.SplitRoot(src); a != "" {
		if b, _ := t.sb.SplitRoot(dst); a != b {
			return true
		}
	}
	fsys := t.sb.Fs()
	from := srcInfo
	if !srcInfo.IsDir() {
		fi, err := fsys.Stat(path.Dir(src))
		if err != nil {
			return false
		}
		from = fi
	}
	to, err := fsys.Stat(path.Dir(dst))
	if err != nil {
		return false
	}
	a, _, okA := fileID(from)
	b, _, okB := fileID(to)
	return okA && okB && a != b
}

// sameVersion reports whether now describes the same version of a file
// as then: the same type, size and modification time and, where the file
// system gives them, the same device and inode.
func sameVersion(now, then fs.FileInfo) bool {
	if now.Mode().Type() != then.Mode().Type() || now.Size() != then.Size() || !now.ModTime().Equal(then.ModTime()) {
		return false
	}
	devNow, inoNow, okNow := fileID(now)
	devThen, inoThen, okThen := fileID(then)
	return !okNow || !okThen || devNow == devThen && inoNow == inoThen
}

// keepTime gives rel the modification time of fi, where the file system
// allows; a move keeps times as well as it can, and a failure loses
// nothing. The access time is left as it is.
func keepTime(fsys afero.Fs, rel string, fi fs.FileInfo) {
	if fi != nil {
		_ = fsys.Chtimes(rel, time.Time{}, fi.ModTime())
	}
}

// symlink makes name a symbolic link to target, where fsys can.
func symlink(fsys afero.Fs, target, name string) error {
	l, ok := fsys.(afero.Linker)
	if !ok {
		return afero.ErrNoSymlink
	}
	return l.SymlinkIfPossible(target, name)
}
