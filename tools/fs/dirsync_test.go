package fs

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/internal/atomicfile"
	"github.com/stdiotools/toolserver/security"
)

// syncLog records, in order, the renames, removals and directories made
// through a syncRecorder and the syncs of directories opened through it.
type syncLog struct {
	mu  sync.Mutex
	ops []string
}

func (l *syncLog) add(op string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ops = append(l.ops, op)
}

// syncedAfterLastChange returns the directories synced after the last
// rename, removal or mkdir.
func (l *syncLog) syncedAfterLastChange() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var synced []string
	for _, op := range l.ops {
		switch kind, arg, _ := strings.Cut(op, " "); kind {
		case "rename", "mkdir", "remove":
			synced = nil
		case "sync":
			synced = append(synced, arg)
		}
	}
	slices.Sort(synced)
	return slices.Compact(synced)
}

// syncRecorder is a file system that logs what changes the names in a
// directory, and the syncs of directories, to log.
type syncRecorder struct {
	afero.Fs
	log *syncLog
}

func (r syncRecorder) Rename(oldname, newname string) error {
	r.log.add("rename " + newname)
	return r.Fs.Rename(oldname, newname)
}

func (r syncRecorder) Remove(name string) error {
	r.log.add("remove " + name)
	return r.Fs.Remove(name)
}

func (r syncRecorder) RemoveAll(name string) error {
	r.log.add("remove " + name)
	return r.Fs.RemoveAll(name)
}

func (r syncRecorder) Mkdir(name string, perm os.FileMode) error {
	r.log.add("mkdir " + name)
	return r.Fs.Mkdir(name, perm)
}

func (r syncRecorder) MkdirAll(name string, perm os.FileMode) error {
	r.log.add("mkdir " + name)
	return r.Fs.MkdirAll(name, perm)
}

func (r syncRecorder) Open(name string) (afero.File, error) {
	f, err := r.Fs.Open(name)
	if err != nil {
		return nil, err
	}
	return syncRecorderFile{File: f, name: name, log: r.log}, nil
}

type syncRecorderFile struct {
	afero.File
	name string
	log  *syncLog
}

func (f syncRecorderFile) Sync() error {
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.log.add("sync " + f.name)
	}
	return f.File.Sync()
}

func TestWhatIsRenamedMadeOrDeletedHasItsDirectorySynced(t *testing.T) {
	tests := []struct {
		name, tool, args string
		want             []string // directories synced after the last change
	}{
		{name: "write_file of a new file", tool: "write_file", args: `{"path":"d/new.txt","content":"x"}`, want: []string{"d"}},
		{name: "write_file over a file", tool: "write_file", args: `{"path":"d/a.txt","content":"new"}`, want: []string{"d"}},
		{name: "edit_file", tool: "edit_file", args: `{"path":"d/a.txt","edits":[{"old_text":"old","new_text":"new"}]}`, want: []string{"d"}},
		{name: "copy_file of a file", tool: "copy_file", args: `{"source":"d/a.txt","destination":"b.txt"}`, want: []string{"."}},
		{name: "copy_file of a directory syncs each directory once full, and the one holding it",
			tool: "copy_file", args: `{"source":"d","destination":"e/d2"}`, want: []string{"e", "e/d2", "e/d2/sub"}},
		{name: "move_file within a directory", tool: "move_file", args: `{"source":"d/a.txt","destination":"d/b.txt"}`, want: []string{"d"}},
		{name: "move_file between directories syncs both", tool: "move_file", args: `{"source":"d/a.txt","destination":"e/a.txt"}`, want: []string{"d", "e"}},
		{name: "create_directory syncs the parent of each directory made",
			tool: "create_directory", args: `{"path":"e/x/y"}`, want: []string{"e", "e/x"}},
		{name: "delete_file of a file", tool: "delete_file", args: `{"path":"d/a.txt"}`, want: []string{"d"}},
		{name: "delete_file of a tree syncs the folder that held it",
			tool: "delete_file", args: `{"path":"d","recursive":true}`, want: []string{"."}},
		{name: "delete_file of an empty directory", tool: "delete_file", args: `{"path":"e"}`, want: []string{"."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, noSync := range []bool{false, true} {
				log := &syncLog{}
				e := newEnv(t, "mem", syncRecorder{Fs: afero.NewMemMapFs(), log: log}, "", security.Limits{},
					func(ts *toolset) { ts.noDirSync = noSync })
				e.write(t, "d/a.txt", "old")
				e.write(t, "d/sub/b.txt", "b")
				e.mkdir(t, "e")
				log.ops = nil
				e.ok(t, tt.tool, tt.args)
				got := log.syncedAfterLastChange()
				want := tt.want
				if noSync {
					want = nil
				}
				if !slices.Equal(got, want) {
					t.Errorf("noDirSync %v: directories synced after the last rename or mkdir = %q, want %q; log %q", noSync, got, want, log.ops)
				}
			}
		})
	}
}

// unnamedRecorder is an unnamed file that logs its links, the syncs of
// its directory and its closing.
type unnamedRecorder struct {
	atomicfile.Unnamed
	log *syncLog
}

func (u unnamedRecorder) Link(tmp, name string) error {
	u.log.add("link " + name)
	return u.Unnamed.Link(tmp, name)
}

func (u unnamedRecorder) SyncDir() error {
	u.log.add("syncdir")
	return u.Unnamed.SyncDir()
}

func (u unnamedRecorder) Close() error {
	u.log.add("close")
	return u.Unnamed.Close()
}

// TestAWriteWithoutANameSyncsItsDirectoryAfterTheLink: on a real file
// system, where write_file, edit_file and copy_file write a file without
// a name (O_TMPFILE) and link it into place, the directory is synced
// after the link and before it is let go. A copy of a directory syncs
// each directory once full instead (see the test above), and no sync is
// made with the syncs turned off.
func TestAWriteWithoutANameSyncsItsDirectoryAfterTheLink(t *testing.T) {
	tests := []struct {
		tool, args string
		want       string // what the unnamed files saw
	}{
		{"write_file", `{"path":"d/new.txt","content":"x"}`, "link new.txt, syncdir, close"},
		{"write_file", `{"path":"d/a.txt","content":"new"}`, "link a.txt, syncdir, close"},
		{"edit_file", `{"path":"d/a.txt","edits":[{"old_text":"old","new_text":"new"}]}`, "link a.txt, syncdir, close"},
		{"copy_file", `{"source":"d/a.txt","destination":"b.txt"}`, "link b.txt, syncdir, close"},
		{"copy_file", `{"source":"d","destination":"e"}`, "link a.txt, close"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			for _, noSync := range []bool{false, true} {
				log := &syncLog{}
				e := newRealEnv(t, security.Limits{}, func(ts *toolset) {
					create := ts.createUnnamed
					if create == nil {
						t.Fatal("the real file system has no CreateUnnamed")
					}
					ts.createUnnamed = func(dir string, perm fs.FileMode) (atomicfile.Unnamed, error) {
						u, err := create(dir, perm)
						if errors.Is(err, errors.ErrUnsupported) {
							t.Skip("no O_TMPFILE here")
						}
						if err != nil {
							return nil, err
						}
						return unnamedRecorder{u, log}, nil
					}
					ts.noDirSync = noSync
				})
				e.write(t, "d/a.txt", "old")
				e.ok(t, tt.tool, tt.args)
				want := tt.want
				if noSync {
					want = strings.ReplaceAll(want, "syncdir, ", "")
				}
				if got := strings.Join(log.ops, ", "); got != want {
					t.Errorf("noDirSync %v: the unnamed files saw %q, want %q", noSync, got, want)
				}
				noTempEntries(t, e)
			}
		})
	}
}
