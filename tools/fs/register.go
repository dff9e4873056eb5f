package fs

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/stdiotools/toolserver/internal/atomicfile"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// toolset holds what every file tool works with.
type toolset struct {
	sb  *security.Sandbox
	lim security.Limits
	// diskSpace says how much room the file system holding a directory
	// has, for the free-space check of writes; nil where the file system
	// cannot tell (tests replace it).
	diskSpace func(dir string) (avail, total uint64, err error)
	// createUnnamed creates a file without a name in a directory, for
	// atomic writes, where the file system can (unnamedOf); nil where it
	// cannot (tests wrap it).
	createUnnamed func(dir string, perm fs.FileMode) (atomicfile.Unnamed, error)
	// now is the clock that tells stale temporary files; time.Now.
	now func() time.Time
	// sweep is set when the tools may remove stale temporary files
	// (tempfiles.go): when the server serves tools that write, since
	// tools that only read never change anything.
	sweep bool
	// swept remembers the directories swept before a write.
	swept sweptDirs
	// noDirSync leaves out the sync of a directory after a file is
	// renamed or linked into it, for the benchmark that measures what the
	// sync costs; never set otherwise.
	noDirSync bool
}

// Register adds the file tools to s, all working inside sb: first those
// that only read (read_file, read_multiple_files, list_directory,
// directory_tree, search_files, grep, get_file_info,
// list_allowed_directories), then those that write (write_file,
// edit_file, append_file, create_directory, copy_file, move_file), then
// delete_file.
// The server lists and runs only the tools its level allows.
func Register(s *server.Server, sb *security.Sandbox) error {
	if s == nil || sb == nil {
		return errors.New("fs.Register needs a server and a sandbox")
	}
	return newToolset(sb).register(s)
}

// newToolset returns the toolset of the file tools over sb.
func newToolset(sb *security.Sandbox) *toolset {
	t := &toolset{sb: sb, lim: sb.Limits(), now: time.Now}
	if ds, ok := unwrapFs(sb.Fs()).(diskSpacer); ok {
		t.diskSpace = ds.DiskSpace
	}
	t.createUnnamed = unnamedOf(unwrapFs(sb.Fs()))
	return t
}

// mention returns clause when s serves tool, and "" when it does not, so
// that a description points the model to no tool it cannot call (with
// --tools or --disable-tools, say).
func mention(s *server.Server, tool, clause string) string {
	if !s.Serves(tool) {
		return ""
	}
	return clause
}

// register adds the tools of t to s, in the order Register documents.
func (t *toolset) register(s *server.Server) error {
	t.sweep = s.MaxLevel() >= security.Write
	for _, add := range []func(*server.Server) error{
		t.addReadFile,
		t.addReadMultiple,
		t.addListDirectory,
		t.addDirectoryTree,
		t.addSearchFiles,
		t.addGrep,
		t.addFileInfo,
		t.addListAllowed,
		t.addWriteFile,
		t.addEditFile,
		t.addAppendFile,
		t.addCreateDirectory,
		t.addCopyFile,
		t.addMoveFile,
		t.addDeleteFile,
		t.addResources,
	} {
		if err := add(s); err != nil {
			return fmt.Errorf("fs: %w", err)
		}
	}
	return nil
}
