package watch

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/fsnotify/fsnotify"
	"golang.org/x/sys/unix"
)

// Supported reports whether watching works on this system.
const Supported = true

// system is the operating system's notification instance, and the
// goroutine that reads it.
type system struct {
	fsw *fsnotify.Watcher
}

// startSystem opens a notification instance whose events go to changed
// (the path of what changed, and whether it is gone: deleted or moved
// away) and whose losses go to lost.
func startSystem(changed func(p string, gone bool), lost func()) (*system, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("open a file notification instance: %w", err)
	}
	go func() {
		for {
			select {
			case ev, ok := <-fsw.Events:
				if !ok {
					return
				}
				changed(ev.Name, ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename))
			case _, ok := <-fsw.Errors:
				if !ok {
					return
				}
				lost()
			}
		}
	}()
	return &system{fsw: fsw}, nil
}

// add watches the folder dir and returns the path events name it by.
func (s *system) add(dir *os.File) (string, error) {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(dir.Fd()), &st); err != nil {
		return "", fmt.Errorf("statfs: %w", err)
	}
	if kind := remoteFS(int64(st.Type)); kind != "" {
		return "", &UnwatchableError{FS: kind}
	}
	p := "/proc/self/fd/" + strconv.Itoa(int(dir.Fd()))
	if err := s.fsw.Add(p); err != nil {
		if errors.Is(err, unix.ENOSPC) {
			return "", errors.New("the system's limit on watches (fs.inotify.max_user_watches) is reached")
		}
		return "", fmt.Errorf("watch: %w", err)
	}
	return p, nil
}

// remove stops watching the folder events name p.
func (s *system) remove(p string) { _ = s.fsw.Remove(p) }

// close gives the notification instance back.
func (s *system) close() { _ = s.fsw.Close() }

// identify returns the identity of the open folder f.
func identify(f *os.File) (folderID, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return folderID{}, fmt.Errorf("stat: %w", err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return folderID{}, errors.New("not a folder")
	}
	return folderID{dev: uint64(st.Dev), ino: st.Ino}, nil
}

// remoteFS names the kind of file system statfs's type fsType is when
// the system does not report its changes (those made elsewhere never
// produce an event), or returns "".
func remoteFS(fsType int64) string {
	switch uint32(fsType) {
	case unix.NFS_SUPER_MAGIC:
		return "NFS"
	case unix.SMB_SUPER_MAGIC, unix.SMB2_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC:
		return "SMB"
	case unix.FUSE_SUPER_MAGIC:
		return "FUSE"
	case unix.V9FS_MAGIC:
		return "9P"
	case unix.CEPH_SUPER_MAGIC:
		return "Ceph"
	case unix.AFS_SUPER_MAGIC, unix.AFS_FS_MAGIC:
		return "AFS"
	case unix.CODA_SUPER_MAGIC:
		return "Coda"
	}
	return ""
}
