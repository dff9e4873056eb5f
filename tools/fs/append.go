package fs

import (
	"context"
	"io"
	"os"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// AppendFileArgs are the arguments of append_file.
type AppendFileArgs struct {
	Path            string `json:"path" chars:"path" minLength:"1" description:"Relative to the root; created if missing."`
	Content         string `json:"content" chars:"text" description:"Text to add, exactly as given (no newline added)."`
	ExpectedVersion string `json:"expected_version,omitempty" maxLength:"64" description:"From your last read or write; refused if the file changed since."`
	DryRun          bool   `json:"dry_run,omitempty" description:"Report what would be added."`
}

// Validate refuses an expected_version that is not a version.
func (a *AppendFileArgs) Validate() error { return checkVersionArg(&a.ExpectedVersion) }

// AppendFileResult is the result of append_file.
type AppendFileResult struct {
	Path    string `json:"path" description:"The file, relative to the root."`
	Created bool   `json:"created" description:"True when the file did not exist and was created."`
	Bytes   int64  `json:"bytes" description:"How many bytes were added."`
	Size    int64  `json:"size" description:"The size of the file after the append."`
	Version string `json:"version,omitempty" description:"The file's version after the append, to pass as expected_version."`
	DryRun  bool   `json:"dry_run,omitempty" description:"True when nothing was written because dry_run was set."`

	inLang
}

// Content returns one sentence saying what was done or, in a dry run,
// what would be, and the file's new version.
func (r AppendFileResult) Content() []server.Content {
	var m message
	name := lit(quote(r.Path))
	switch {
	case r.DryRun && r.Created:
		m = say(msgAppendDryCreate, name, size(r.Bytes))
	case r.DryRun:
		m = say(msgAppendDryAppend, name, size(r.Bytes), size(r.Size-r.Bytes), size(r.Size))
	case r.Created:
		m = say(msgWriteCreated, name, size(r.Bytes))
	default:
		m = say(msgAppended, name, size(r.Bytes), size(r.Size))
	}
	return []server.Content{server.TextContent(sentences{m, versionTag(r.Version)}.In(r.lang))}
}

func (t *toolset) addAppendFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "append_file",
		Schemas: savedSchemas("append_file"),
		Title:   "Append to a file",
		Description: "Adds text to the end of a text file, creating it if missing (its directory must exist): for logs, notes and lists" + mention(s, "write_file", ", rather than rewriting with write_file") + ". " +
			"A failed append is cut back. The file may reach " + descSize(t.lim.MaxWriteBytes) + ".",
		Level:   security.Write,
		Targets: []string{"path"},
		DryRun:  "dry_run",
	}, speak(t.appendFile))
}

// appendPlan is what append_file is about to do: its result, and the
// size of the file it adds to.
type appendPlan struct {
	res    AppendFileResult
	before int64
}

func (t *toolset) appendFile(ctx context.Context, call *server.Call, in AppendFileArgs) (AppendFileResult, error) {
	rel, err := t.sb.ResolveNew(in.Path)
	if err != nil {
		return AppendFileResult{}, err
	}
	p, err := change(ctx, t, call, in.DryRun, []string{rel},
		func() (appendPlan, message, error) { return t.planAppend(rel, in) },
		func(p *appendPlan) error {
			if p.res.Created {
				if _, err := t.writeAtomic(ctx, rel, newFileMode, syncTheDir, fromText(ctx, in.Content)); err != nil {
					return err
				}
			} else {
				n, err := t.appendInPlace(ctx, rel, in.Content)
				if err != nil {
					return err
				}
				p.res.Size = n
			}
			p.res.Version = t.versionAfter(rel)
			return nil
		})
	return p.res, err
}

// planAppend checks an append_file of in to rel and returns what it will
// do and the sentence that asks the user to approve it.
func (t *toolset) planAppend(rel string, in AppendFileArgs) (appendPlan, message, error) {
	old, err := t.checkWritable(rel)
	if err != nil {
		return appendPlan{}, message{}, err
	}
	n := int64(len(in.Content))
	name := lit(quote(rel))
	if old == nil {
		if err := refuseTempName(rel); err != nil {
			return appendPlan{}, message{}, err
		}
		if err := t.sb.CheckNewName(pathArg(rel)); err != nil {
			return appendPlan{}, message{}, err
		}
		if err := t.checkExpected(rel, in.ExpectedVersion, false, ""); err != nil {
			return appendPlan{}, message{}, err
		}
		if err := t.checkWrite(rel, say(msgTheContentFor, name), n, n, say(msgNothingWritten)); err != nil {
			return appendPlan{}, message{}, err
		}
		p := appendPlan{res: AppendFileResult{Path: rel, Created: true, Bytes: n, Size: n, DryRun: in.DryRun}}
		return p, say(msgConfirmCreate, name, size(n)), nil
	}
	before, version, err := t.textVersion(rel, in.ExpectedVersion != "")
	if err != nil {
		return appendPlan{}, message{}, err
	}
	if err := t.checkExpected(rel, in.ExpectedVersion, true, version); err != nil {
		return appendPlan{}, message{}, err
	}
	if limit := t.lim.MaxWriteBytes; before+n > limit {
		return appendPlan{}, message{}, fail(msgAppendOverCap, size(n), name, size(before), size(before+n), size(limit))
	}
	if err := t.checkSpace(rel, n, say(msgNothingWritten)); err != nil {
		return appendPlan{}, message{}, err
	}
	p := appendPlan{res: AppendFileResult{Path: rel, Bytes: n, Size: before + n, DryRun: in.DryRun}, before: before}
	return p, say(msgConfirmAppend, name, size(n), size(before)), nil
}

// textVersion checks that the regular file rel holds text, reading its
// start only, and returns its size and, when withVersion, its version.
func (t *toolset) textVersion(rel string, withVersion bool) (int64, string, error) {
	f, fi, err := t.sb.OpenRead(pathArg(rel), false)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	head := make([]byte, min(max(fi.Size(), 0), sniffLen))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return 0, "", t.sb.Explain("read", rel, err)
	}
	head = head[:n]
	if kind, _ := sniff(head); kind != kindText {
		return 0, "", fail(msgNotText, lit(quote(rel)), kindPhrase(kind), lit("append_file"))
	}
	if !withVersion {
		return fi.Size(), "", nil
	}
	version, err := readVersion(f, fi, head)
	if err != nil {
		return 0, "", t.sb.Explain("read", rel, err)
	}
	return fi.Size(), version, nil
}

// appendInPlace adds text to the end of the existing file rel, in place
// (O_APPEND), and syncs it, so that an append costs the bytes it adds
// rather than a copy of the file; it returns the file's new size. A
// reader at the same moment may see part of text at the end. A write or
// sync that fails cuts the file back to the size it had, so that it
// holds all of text or none of it, short of a crash during the append.
func (t *toolset) appendInPlace(ctx context.Context, rel, text string) (int64, error) {
	f, err := t.sb.OpenWrite(pathArg(rel), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return 0, t.explainWrite(rel, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, t.sb.Explain("write", rel, err)
	}
	before := fi.Size()
	written, err := fromText(ctx, text)(f)
	if err == nil {
		err = f.Sync()
	}
	if err != nil && written == 0 {
		// Nothing reached the file: it is as it was, version included (a
		// truncation would change its times, and so its version).
		f.Close()
		return 0, t.failWrite(ctx, rel, err)
	}
	if err != nil {
		if terr := f.Truncate(before); terr != nil {
			f.Close()
			return 0, fail(msgAppendNotCutBack, lit(quote(rel)), cause{t.explainWrite(rel, err)}, size(before))
		}
		_ = f.Sync() // the text is gone for readers; a crash may bring it back
		f.Close()
		return 0, t.failWrite(ctx, rel, err)
	}
	// The text is in the file and synced: whatever fails from here on,
	// the append is done, and must not be reported failed (a model would
	// append it again).
	after := before + written
	if fi, err := f.Stat(); err == nil {
		after = fi.Size()
	}
	_ = f.Close()
	return after, nil
}
