package fs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// WriteFileArgs are the arguments of write_file.
type WriteFileArgs struct {
	Path    string `json:"path" chars:"path" minLength:"1" description:"The file to create or replace, relative to the root. Its directory must exist."`
	Content string `json:"content" chars:"text" description:"The complete new text of the file, written exactly as given (no newline is added)."`
	DryRun  bool   `json:"dry_run,omitempty" description:"Check everything and report whether the file would be created or replaced, and with how many bytes, without writing."`
}

// WriteFileResult is the result of write_file.
type WriteFileResult struct {
	Path          string `json:"path" description:"The file, relative to the root."`
	Created       bool   `json:"created" description:"True when the file is new; false when an existing file was replaced."`
	Bytes         int64  `json:"bytes" description:"The size of the new file in bytes."`
	PreviousBytes *int64 `json:"previous_bytes,omitempty" description:"The size of the file that was replaced."`
	DryRun        bool   `json:"dry_run,omitempty" description:"True when nothing was written because dry_run was set."`
}

// Content returns one sentence saying what was done or, in a dry run,
// what would be.
func (r WriteFileResult) Content() []server.Content {
	var s string
	switch {
	case r.DryRun && r.Created:
		s = fmt.Sprintf("Dry run: write_file would create %s with %s. Nothing was written.", quote(r.Path), byteSize(r.Bytes))
	case r.DryRun:
		s = fmt.Sprintf("Dry run: write_file would replace %s (%s) with %s. Nothing was written.", quote(r.Path), byteSize(*r.PreviousBytes), byteSize(r.Bytes))
	case r.Created:
		s = fmt.Sprintf("Created %s with %s.", quote(r.Path), byteSize(r.Bytes))
	default:
		s = fmt.Sprintf("Replaced %s (%s before) with %s.", quote(r.Path), byteSize(*r.PreviousBytes), byteSize(r.Bytes))
	}
	return []server.Content{server.TextContent(s)}
}

func (t *toolset) addWriteFile(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:  "write_file",
		Title: "Write a file",
		Description: "Creates a file, or replaces an existing one completely, with the given text. The write is atomic: readers see the old file or the new one, never a mix, and an existing file keeps its permissions. " +
			"The directory must exist (create_directory makes it). Directories, symbolic links and special files are never written over. " +
			"To change part of an existing file use edit_file instead, which shows a diff and cannot lose the rest of the file. " +
			"dry_run reports what would happen without writing.",
		Level:       security.Write,
		Targets:     []string{"path"},
		DryRun:      "dry_run",
		Destructive: true,
	}, t.writeFile)
}

func (t *toolset) writeFile(ctx context.Context, call *server.Call, in WriteFileArgs) (WriteFileResult, error) {
	rel, err := t.sb.ResolveNew(in.Path)
	if err != nil {
		return WriteFileResult{}, err
	}
	old, err := t.checkWritable(rel)
	if err != nil {
		return WriteFileResult{}, err
	}
	if old == nil {
		// Before the dry run and the confirmation, which would otherwise
		// promise a file that writeAtomic then refuses.
		if err := refuseTempName(rel); err != nil {
			return WriteFileResult{}, err
		}
		if err := t.sb.CheckNewName(pathArg(rel)); err != nil {
			return WriteFileResult{}, err
		}
	}
	res := WriteFileResult{Path: rel, Created: old == nil, Bytes: int64(len(in.Content)), DryRun: in.DryRun}
	if err := t.checkWrite(rel, "the content for "+quote(rel), res.Bytes, res.Bytes, "nothing was written"); err != nil {
		return WriteFileResult{}, err
	}
	perm := newFileMode
	msg := fmt.Sprintf("Create %s with %s.", quote(rel), byteSize(res.Bytes))
	if old != nil {
		size := old.Size()
		res.PreviousBytes, perm = &size, old.Mode().Perm()
		msg = fmt.Sprintf("Overwrite %s (%s now) with %s.", quote(rel), byteSize(size), byteSize(res.Bytes))
	}
	if in.DryRun {
		return res, nil
	}
	if err := confirm(ctx, call, msg); err != nil {
		return WriteFileResult{}, err
	}
	if _, err := t.writeAtomic(ctx, rel, perm, syncTheDir, fromText(ctx, in.Content)); err != nil {
		return WriteFileResult{}, err
	}
	return res, nil
}

// confirm asks the user to approve msg through call, if there is one.
func confirm(ctx context.Context, call *server.Call, msg string) error {
	if call == nil {
		return nil
	}
	return call.Confirm(ctx, msg)
}

// checkWritable checks that rel can be written as a whole file: that it is
// an existing regular file, returned, or does not exist (nil) in an
// existing directory.
func (t *toolset) checkWritable(rel string) (fs.FileInfo, error) {
	if t.sb.IsRoot(rel) {
		if root, _ := t.sb.SplitRoot(rel); root != "" {
			return nil, fmt.Errorf("%s is a root directory; give the path of a file inside it, such as %s", quote(rel), quote(t.sb.JoinRoot(root, "notes.txt")))
		}
		return nil, errors.New(`"." is the root directory; give the path of a file inside it, such as "notes.txt"`)
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
		return fmt.Errorf("%s is a directory, and only files can be written; give a path inside it, such as %s",
			quote(rel), quote(joinRel(rel, "new.txt")))
	case mode&fs.ModeSymlink != 0:
		hint := "change the file it points to instead"
		if target, inside, err := linkTarget(t.sb, rel); err == nil && inside {
			hint = "write to " + quote(target) + ", the file it points to, instead"
		}
		return fmt.Errorf("%s is a symbolic link, and writing here would replace the link itself with a file; %s", quote(rel), hint)
	}
	return fmt.Errorf("%s is %s, not a regular file; only regular files can be written", quote(rel), otherKind(mode))
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
	return fmt.Errorf("the directory %s does not exist; create it with create_directory first", quote(dir))
}

// fileInTheWay is the error for the file dir standing where a directory
// holding rel should be.
func fileInTheWay(dir, rel string) error {
	return fmt.Errorf("%s is a file, so it cannot hold %s; choose another path", quote(dir), quote(rel[len(dir)+1:]))
}
