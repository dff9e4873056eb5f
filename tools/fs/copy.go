package fs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/internal/sparsecopy"
	"github.com/stdiotools/toolserver/internal/walk"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// CopyFileArgs are the arguments of copy_file.
type CopyFileArgs struct {
	Source      string `json:"source" chars:"path" minLength:"1" description:"The file or directory to copy, relative to the root."`
	Destination string `json:"destination" chars:"path" minLength:"1" description:"The path of the copy, relative to the root, name included (to copy a.txt into docs, give docs/a.txt). Its directory must exist."`
	Overwrite   bool   `json:"overwrite,omitempty" description:"Replace a file already at destination (default false: an existing destination is an error). Directories are never replaced or merged."`
	DryRun      bool   `json:"dry_run,omitempty" description:"Check everything and report what would be copied, without copying."`
}

// CopyFileResult is the result of copy_file.
type CopyFileResult struct {
	Source      string   `json:"source" description:"What was copied, relative to the root."`
	Destination string   `json:"destination" description:"The copy, relative to the root."`
	Type        string   `json:"type" description:"file or dir."`
	Files       int      `json:"files" description:"How many files were copied."`
	Dirs        int      `json:"dirs" description:"How many directories were created, the top one included."`
	Bytes       int64    `json:"bytes" description:"How many bytes were copied."`
	Replaced    bool     `json:"replaced" description:"True when a file at destination was replaced."`
	Skipped     []string `json:"skipped,omitempty" description:"Symbolic links and special files inside a copied directory, which are not copied."`
	Version     string   `json:"version,omitempty" description:"For a file: the copy's version, to pass as expected_version."`
	DryRun      bool     `json:"dry_run,omitempty" description:"True when nothing was copied because dry_run was set."`

	summary message
	inLang
}

// Content returns one sentence saying what was done and, for a file, the
// copy's version.
func (r CopyFileResult) Content() []server.Content {
	return []server.Content{server.TextContent(sentences{r.summary, versionTag(r.Version)}.In(r.lang))}
}

func (t *toolset) addCopyFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "copy_file",
		Schemas: savedSchemas("copy_file"),
		Title:   "Copy a file or directory",
		Description: fmt.Sprintf("Copies a file, or a directory with everything in it, to a new path within the root. Each file is written atomically and keeps its permissions. "+
			"destination is the full path of the copy; its directory must exist. An existing destination is an error unless overwrite is true, which replaces a file (never a directory). "+
			"One call copies at most %s (a file's full size, though holes in sparse files are kept as holes) and, for a directory, %d entries; symbolic links and special files inside a directory are skipped and listed. "+
			"dry_run reports what would be copied.", byteSize(t.lim.MaxWriteBytes), t.lim.MaxResults),
		Level:       security.Write,
		Targets:     []string{"source", "destination"},
		DryRun:      "dry_run",
		Destructive: true, // overwrite: true replaces the destination
	}, speak(t.copyFile))
}

// copyPlan is what copying a directory involves.
type copyPlan struct {
	dirs    []planEntry // parents before children, the top one first
	files   []planEntry
	links   []planEntry // symbolic links, kept only when planned for a move
	skipped []string    // what is not copied: links (unless kept) and special files
	bytes   int64       // the files' sizes, holes included
	alloc   int64       // the disk they occupy, holes left out
}

// planEntry is one entry to copy: its path below the source, its
// permissions, its size and, for a link kept, its target as stored. info
// is the entry as the plan found it; copyTree replaces a file's with the
// version it copied.
type planEntry struct {
	sub    string
	mode   fs.FileMode
	size   int64
	info   fs.FileInfo
	target string
}

// copyFilePlan is what copy_file is about to do: its result, what it
// copies, and the phrase that describes it.
type copyFilePlan struct {
	res    CopyFileResult
	plan   copyPlan
	action message
}

func (t *toolset) copyFile(ctx context.Context, call *server.Call, in CopyFileArgs) (CopyFileResult, error) {
	src, dst, err := t.resolveTransfer("copy_file", in.Source, in.Destination)
	if err != nil {
		return CopyFileResult{}, err
	}
	p, err := change(ctx, t, call, in.DryRun, []string{dst},
		func() (copyFilePlan, message, error) { return t.planCopyFile(ctx, src, dst, in) },
		func(p *copyFilePlan) error {
			if err := t.runCopy(ctx, call, src, dst, p.plan); err != nil {
				return err
			}
			p.res.summary = say(msgCopied, p.action)
			if p.res.Type == typeFile {
				p.res.Version = t.versionAfter(dst)
			}
			return nil
		})
	return p.res, err
}

// planCopyFile checks a copy_file of src to dst and returns what it will
// copy and the sentence that asks the user to approve it.
func (t *toolset) planCopyFile(ctx context.Context, src, dst string, in CopyFileArgs) (copyFilePlan, message, error) {
	srcInfo, dstInfo, err := t.checkTransfer("copy_file", src, dst, in.Overwrite)
	if err != nil {
		return copyFilePlan{}, message{}, err
	}
	if dstInfo == nil {
		if err := t.sb.CheckNewName(pathArg(dst)); err != nil {
			return copyFilePlan{}, message{}, err
		}
	}
	if srcInfo.Mode()&fs.ModeSymlink != 0 {
		// Copy what the link points to, as cp does.
		if srcInfo, err = t.sb.Fs().Stat(src); err != nil {
			return copyFilePlan{}, message{}, t.sb.Explain("read", src, err)
		}
		if srcInfo.IsDir() {
			return copyFilePlan{}, message{}, fail(msgCopyLinkToDir, lit(quote(src)))
		}
	}
	res := CopyFileResult{Source: src, Destination: dst, Replaced: dstInfo != nil, DryRun: in.DryRun}
	plan := copyPlan{}
	switch {
	case srcInfo.Mode().IsRegular():
		res.Type, res.Files, res.Bytes = typeFile, 1, srcInfo.Size()
		plan.files = []planEntry{{sub: "", mode: srcInfo.Mode().Perm(), size: srcInfo.Size(), info: srcInfo}}
		plan.bytes, plan.alloc = srcInfo.Size(), sparsecopy.Allocated(srcInfo)
		if err := t.checkCap(lit(quote(src)), plan.bytes, say(msgNothingCopied)); err != nil {
			return copyFilePlan{}, message{}, err
		}
	case srcInfo.IsDir():
		res.Type = typeDir
		if plan, err = t.planCopy(ctx, "copy_file", src, srcInfo, false); err != nil {
			return copyFilePlan{}, message{}, err
		}
		res.Files, res.Dirs, res.Bytes, res.Skipped = len(plan.files), len(plan.dirs), plan.bytes, plan.skipped
	default:
		return copyFilePlan{}, message{}, fail(msgCopyIsSpecial, lit(quote(src)), kind(srcInfo.Mode()))
	}
	if err := t.checkSpace(dst, plan.alloc, say(msgNothingCopied)); err != nil {
		return copyFilePlan{}, message{}, err
	}

	action := say(msgCopyAction, describeEntry(src, srcInfo), lit(quote(dst)))
	if res.Type == typeDir {
		action = say(msgCopyActionTree, describeEntry(src, srcInfo), counted(res.Files, msgFile, msgFiles),
			counted(res.Dirs-1, msgSubdir, msgSubdirs), size(res.Bytes), lit(quote(dst)))
	}
	if dstInfo != nil {
		action = say(msgReplacing, action, describeEntry(dst, dstInfo))
	}
	if len(res.Skipped) > 0 {
		action = say(msgLeavingOut, action, counted(len(res.Skipped), msgSkippedOne, msgSkippedMany))
	}
	if in.DryRun {
		res.summary = say(msgCopyDryRun, action)
	}
	return copyFilePlan{res: res, plan: plan, action: action}, say(msgConfirmCopy, action), nil
}

// planCopy lists what copying the directory src involves for tool
// (copy_file or move_file), within the limits. With keepLinks, symbolic
// links are planned to be made again, their targets read; otherwise they
// are skipped, as special files always are.
func (t *toolset) planCopy(ctx context.Context, tool, src string, srcInfo fs.FileInfo, keepLinks bool) (copyPlan, error) {
	plan := copyPlan{dirs: []planEntry{{sub: "", mode: srcInfo.Mode().Perm(), info: srcInfo}}}
	maxEntries, maxBytes := t.lim.MaxResults, t.lim.MaxWriteBytes
	verb, verbs := say(msgVerbCopy), say(msgVerbCopies)
	if tool == "move_file" {
		verb, verbs = say(msgVerbMove), say(msgVerbMoves)
	}
	err := t.walk(ctx, src, func(p, sub string, d fs.DirEntry, err error) error {
		if err != nil {
			return walkRefusal(tool, verb, src, p, err)
		}
		if len(plan.dirs)+len(plan.files)+len(plan.links) > maxEntries {
			return fail(msgTreeTooMany, lit(quote(src)), num(maxEntries), lit(tool), verbs, verb)
		}
		keep := d.IsDir() || d.Type().IsRegular() || keepLinks && d.Type()&fs.ModeSymlink != 0
		if !keep {
			plan.skipped = append(plan.skipped, p)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return t.sb.Explain("read", p, err)
		}
		e := planEntry{sub: sub, mode: info.Mode().Perm(), info: info}
		switch {
		case d.IsDir():
			plan.dirs = append(plan.dirs, e)
		case d.Type().IsRegular():
			e.size = info.Size()
			plan.files = append(plan.files, e)
			plan.bytes += info.Size()
			plan.alloc += sparsecopy.Allocated(info)
			if plan.bytes > maxBytes {
				return fail(msgTreeTooBig, lit(quote(src)), size(maxBytes), verb)
			}
		default:
			lr, ok := t.sb.Fs().(afero.LinkReader)
			if !ok {
				return t.sb.Explain("read", p, afero.ErrNoReadlink)
			}
			if e.target, err = lr.ReadlinkIfPossible(p); err != nil {
				return t.sb.Explain("read", p, err)
			}
			plan.links = append(plan.links, e)
		}
		return nil
	})
	slices.Sort(plan.skipped) // the walk comes in the file system's order
	return plan, err
}

// walkRefusal is the error of a plan whose walk could not go into p, below
// src, for the reason err.
func walkRefusal(tool string, verb message, src, p string, err error) error {
	switch {
	case errors.Is(err, walk.ErrTooDeep):
		return fail(msgTreeTooDeep, lit(quote(p)), num(walk.MaxDepth), lit(quote(src)), lit(tool), verb)
	case errors.Is(err, walk.ErrTooManyDirs), errors.Is(err, walk.ErrBudget):
		return fail(msgTreeTooManyDirs, lit(quote(src)), lit(tool), verb, verb)
	}
	return err
}

// copyOpts say how copyOne and copyTree copy.
type copyOpts struct {
	// move is set for move_file, whose copy replaces the source: links
	// are made again, modification times kept, every directory synced,
	// and a file whose size or modification time changed while it was
	// copied makes the copy fail with errChanged, since the source is
	// deleted next.
	move bool
	// meter, if not nil, is told of what is copied, for progress.
	meter *copyMeter
	// dirSynced says that the caller syncs the directories the files go
	// in (copyTree, finishMove), so that copyOne need not after each.
	dirSynced bool
}

// runCopy carries out plan for copy_file, copying src to dst. A
// directory's copy ends with the sync of the directory that holds it, as
// a file's copy does (writeAtomic).
func (t *toolset) runCopy(ctx context.Context, call *server.Call, src, dst string, plan copyPlan) error {
	if len(plan.dirs) > 0 {
		t.sweepBeforeWrite(ctx, path.Dir(dst))
	}
	done, err := t.copyTree(ctx, src, dst, plan, copyOpts{meter: newCopyMeter(call, plan)})
	if err != nil && len(plan.dirs) > 0 {
		if _, lerr := lstat(t.sb.Fs(), dst); isMissing(lerr) {
			return fail(msgNothingCopiedAfter, cause{err}) // dst itself could not be made
		}
		return t.partialCopy(dst, done, len(plan.files), err)
	}
	if err == nil && len(plan.dirs) > 0 && !t.noDirSync {
		if err := syncDir(t.sb.Fs(), path.Dir(dst)); err != nil {
			return t.notSynced(dst, path.Dir(dst), err)
		}
	}
	return err
}

// copyTree copies the entries of plan from src to dst, which it creates
// (with plan.dirs[0]; a plan without directories is one file). It
// returns how many files it copied, and records in plan.files the version
// of each it copied. Directories are created writable, so that entries
// can go in, and once full, deepest first, are synced (once each, rather
// than after each file) and get their modes and, for a move, their
// times; the top one's time a move sets once it is in place (see
// moveTreeAcross), so that until then the temporary directory looks as
// new as it is. The directory holding dst is the caller's to sync.
func (t *toolset) copyTree(ctx context.Context, src, dst string, plan copyPlan, opts copyOpts) (int, error) {
	fsys := t.sb.Fs()
	opts.dirSynced = opts.dirSynced || len(plan.dirs) > 0
	for _, d := range plan.dirs {
		p := joinRel(dst, d.sub)
		if err := fsys.Mkdir(p, d.mode|0o700); err != nil {
			return 0, t.sb.Explain("create", p, err)
		}
	}
	for _, l := range plan.links {
		p := joinRel(dst, l.sub)
		if err := symlink(fsys, l.target, p); err != nil {
			return 0, t.sb.Explain("create", p, err)
		}
	}
	for i, f := range plan.files {
		if err := ctx.Err(); err != nil {
			return i, err
		}
		from, to := joinRel(src, f.sub), joinRel(dst, f.sub)
		fi, err := t.copyOne(ctx, from, to, f.mode, opts)
		if err != nil {
			return i, err
		}
		plan.files[i].info = fi
		if opts.move {
			keepTime(fsys, to, fi)
		}
		opts.meter.fileDone()
	}
	for i := len(plan.dirs) - 1; i >= 0; i-- {
		d := plan.dirs[i]
		p := joinRel(dst, d.sub)
		if !t.noDirSync {
			if err := syncDir(fsys, p); err != nil {
				return len(plan.files), t.sb.Explain("sync", p, err)
			}
		}
		if err := fsys.Chmod(p, d.mode); err != nil {
			return len(plan.files), t.sb.Explain("copy", p, err)
		}
		if opts.move && i > 0 {
			keepTime(fsys, p, d.info)
		}
	}
	return len(plan.files), nil
}

// partialCopy is the error of a directory copy that stopped after done of
// total files.
func (t *toolset) partialCopy(dst string, done, total int, err error) error {
	return fail(msgPartialCopy, num(done), num(total), cause{err}, lit(quote(dst)))
}

// copyOne copies the file src to dst atomically with mode perm, keeping
// holes, and returns the source as it was opened. The size copied is the
// size of the opened source, which is checked against the cap again,
// since the source may have grown since the plan.
func (t *toolset) copyOne(ctx context.Context, src, dst string, perm fs.FileMode, opts copyOpts) (fs.FileInfo, error) {
	f, fi, err := t.sb.OpenRead(pathArg(src), false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n := fi.Size()
	if err := t.checkCap(lit(quote(src)), n, say(msgNothingCopied)); err != nil {
		return nil, err
	}
	sync := syncTheDir
	if opts.dirSynced {
		sync = dirSyncedLater
	}
	_, err = t.writeAtomic(ctx, dst, perm, sync, func(w afero.File) (int64, error) {
		if opts.meter != nil {
			w = meteredFile{File: w, meter: opts.meter}
		}
		n, err := copyData(ctx, w, f, n)
		if err == nil && opts.move {
			// What is deleted next must be what was copied.
			if now, serr := f.Stat(); serr != nil || !sameVersion(now, fi) {
				err = errChanged
			}
		}
		return n, err
	})
	if errors.Is(err, errChanged) {
		return nil, fail(msgCopySourceChanged, lit(quote(src)), lit(quote(dst)))
	}
	return fi, err
}

// errChanged is the failure of a copy whose source changed under it.
var errChanged = fail(msgSourceChanged)

// copyData copies the first size bytes of src into the empty file dst,
// keeping holes (sparsecopy.Copy); a source that shrank is errChanged.
func copyData(ctx context.Context, dst, src afero.File, size int64) (int64, error) {
	n, err := sparsecopy.Copy(ctx, dst, src, size)
	if errors.Is(err, sparsecopy.ErrShrank) {
		err = errChanged
	}
	return n, err
}
