package fs

import (
	"context"
	"io/fs"
	"path"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// WriteFileArgs are the arguments of write_file.
type WriteFileArgs struct {
	Path            string `json:"path" chars:"path" minLength:"1" description:"Relative to the root."`
	Content         string `json:"content" chars:"text" description:"The whole text, exactly as given (no newline added)."`
	ExpectedVersion string `json:"expected_version,omitempty" maxLength:"64" description:"From your last read or write; refused if the file changed since."`
	DryRun          bool   `json:"dry_run,omitempty" description:"Report what would be written."`
}

// Validate refuses an expected_version that is not a version.
func (a *WriteFileArgs) Validate() error { return checkVersionArg(&a.ExpectedVersion) }

// WriteFileResult is the result of write_file.
type WriteFileResult struct {
	Path          string `json:"path" description:"The file, relative to the root."`
	Created       bool   `json:"created" description:"True when the file is new; false when an existing file was replaced."`
	Bytes         int64  `json:"bytes" description:"The size of the new file in bytes."`
	PreviousBytes *int64 `json:"previous_bytes,omitempty" description:"The size of the file that was replaced."`
	Version       string `json:"version,omitempty" description:"The file's version after the write, to pass as expected_version."`
	DryRun        bool   `json:"dry_run,omitempty" description:"True when nothing was written because dry_run was set."`

	inLang
}

// Content returns one sentence saying what was done or, in a dry run,
// what would be, and the file's new version.
func (r WriteFileResult) Content() []server.Content {
	var m message
	switch {
	case r.DryRun && r.Created:
		m = say(msgWriteDryCreate, lit(quote(r.Path)), size(r.Bytes))
	case r.DryRun:
		m = say(msgWriteDryReplace, lit(quote(r.Path)), size(*r.PreviousBytes), size(r.Bytes))
	case r.Created:
		m = say(msgWriteCreated, lit(quote(r.Path)), size(r.Bytes))
	default:
		m = say(msgWriteReplaced, lit(quote(r.Path)), size(*r.PreviousBytes), size(r.Bytes))
	}
	return []server.Content{server.TextContent(sentences{m, versionTag(r.Version)}.In(r.lang))}
}

func (t *toolset) addWriteFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "write_file",
		Schemas: savedSchemas("write_file"),
		Title:   "Write a file",
		Description: "Creates a file or replaces it whole, atomically, keeping its permissions; its directory must exist" + mention(s, "create_directory", " (create_directory)") + ". " +
			mention(s, "edit_file", "To change part of a file use edit_file. ") + "Returns the size and the new version.",
		Level:       security.Write,
		Targets:     []string{"path"},
		DryRun:      "dry_run",
		Destructive: true,
	}, speak(t.writeFile))
}

// writePlan is what write_file is about to do: its result, and the
// permissions the file gets.
type writePlan struct {
	res  WriteFileResult
	perm fs.FileMode
}

func (t *toolset) writeFile(ctx context.Context, call *server.Call, in WriteFileArgs) (WriteFileResult, error) {
	rel, err := t.sb.ResolveNew(in.Path)
	if err != nil {
		return WriteFileResult{}, err
	}
	p, err := change(ctx, t, call, in.DryRun, []string{rel},
		func() (writePlan, message, error) { return t.planWrite(rel, in) },
		func(p *writePlan) error {
			if _, err := t.writeAtomic(ctx, rel, p.perm, syncTheDir, fromText(ctx, in.Content)); err != nil {
				return err
			}
			p.res.Version = t.versionAfter(rel)
			return nil
		})
	return p.res, err
}

// planWrite checks a write_file of in to rel and returns what it will do
// and the sentence that asks the user to approve it.
func (t *toolset) planWrite(rel string, in WriteFileArgs) (writePlan, message, error) {
	old, err := t.checkWritable(rel)
	if err != nil {
		return writePlan{}, message{}, err
	}
	if old == nil {
		// Before the dry run and the confirmation, which would otherwise
		// promise a file that writeAtomic then refuses.
		if err := refuseTempName(rel); err != nil {
			return writePlan{}, message{}, err
		}
		if err := t.sb.CheckNewName(pathArg(rel)); err != nil {
			return writePlan{}, message{}, err
		}
	}
	if err := t.checkExpected(rel, in.ExpectedVersion, old != nil, ""); err != nil {
		return writePlan{}, message{}, err
	}
	p := writePlan{
		res:  WriteFileResult{Path: rel, Created: old == nil, Bytes: int64(len(in.Content)), DryRun: in.DryRun},
		perm: newFileMode,
	}
	if err := t.checkWrite(rel, say(msgTheContentFor, lit(quote(rel))), p.res.Bytes, p.res.Bytes, say(msgNothingWritten)); err != nil {
		return writePlan{}, message{}, err
	}
	ask := say(msgConfirmCreate, lit(quote(rel)), size(p.res.Bytes))
	if old != nil {
		prev := old.Size()
		p.res.PreviousBytes, p.perm = &prev, old.Mode().Perm()
		ask = say(msgConfirmOverwrite, lit(quote(rel)), size(old.Size()), size(p.res.Bytes))
	}
	return p, ask, nil
}

// confirm asks the user to approve msg, in the call's language, through
// call, if there is one.
func confirm(ctx context.Context, call *server.Call, msg message) error {
	if call == nil {
		return nil
	}
	return call.Confirm(ctx, msg.In(call.Lang()))
}

// checkWritable checks that rel can be written as a whole file: that it is
// an existing regular file, returned, or does not exist (nil) in an
// existing directory.
func (t *toolset) checkWritable(rel string) (fs.FileInfo, error) {
	if t.sb.IsRoot(rel) {
		if root, _ := t.sb.SplitRoot(rel); root != "" {
			return nil, fail(msgRootOfSeveral, lit(quote(rel)), lit(quote(t.sb.JoinRoot(root, "notes.txt"))))
		}
		return nil, fail(msgRootDot)
	}
	fi, err := lstat(t.sb.Fs(), rel)
	switch {
	case err == nil:
		return fi, t.checkRegular(rel, fi)
	case !isMissing(err):
		return nil, t.sb.Explain("write", rel, err)
	}
	return nil, t.checkParent(rel)
}

// checkRegular refuses anything but a regular file where a file is to be
// written.
func (t *toolset) checkRegular(rel string, fi fs.FileInfo) error {
	mode := fi.Mode()
	switch {
	case mode.IsRegular():
		return nil
	case mode.IsDir():
		return fail(msgWriteIsDir, lit(quote(rel)), lit(quote(joinRel(rel, "new.txt"))))
	case mode&fs.ModeSymlink != 0:
		hint := say(msgWriteLinkHint)
		if target, inside, err := linkTarget(t.sb, rel); err == nil && inside {
			hint = say(msgWriteLinkHintInside, lit(quote(target)))
		}
		return fail(msgWriteIsLink, lit(quote(rel)), hint)
	}
	return fail(msgWriteIsSpecial, lit(quote(rel)), kind(mode))
}

// checkParent checks that the directory that is to hold the new entry rel
// exists.
func (t *toolset) checkParent(rel string) error {
	fsys := t.sb.Fs()
	dir := path.Dir(rel)
	fi, err := fsys.Stat(dir)
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		return fileInTheWay(dir, rel)
	case !isMissing(err):
		return t.sb.Explain("write", dir, err)
	}
	// Say so if a file further up is in the way.
	for p := dir; p != "."; {
		child := p
		p = path.Dir(p)
		fi, err := fsys.Stat(p)
		if err == nil && !fi.IsDir() {
			return fileInTheWay(p, child)
		}
		if err == nil || !isMissing(err) {
			break
		}
	}
	return fail(msgNoParentDir, lit(quote(dir)))
}

// fileInTheWay is the error for the file dir standing where a directory
// holding rel should be.
func fileInTheWay(dir, rel string) error {
	return fail(msgFileInTheWay, lit(quote(dir)), lit(quote(rel[len(dir)+1:])))
}
