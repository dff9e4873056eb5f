// Package watch reports changes to files and folders through the
// operating system's own notifications (inotify, read by
// github.com/fsnotify/fsnotify), for many watchers at once.
//
// A [Watcher] is meant to be one per process: it holds one notification
// instance (Linux allows 128 per user by default) while anything is
// watched and none while nothing is, and one watch per folder however
// many of the folder's files are watched and by how many watchers.
//
// The caller opens each folder itself, through whatever confines its
// paths, and hands the open folder to [Watcher.Watch]; the watch is set on
// what that descriptor names (/proc/self/fd/N), never on a path looked up
// again, so that a symbolic link swapped in meanwhile cannot point the
// watch elsewhere, and nothing it reports names a host path: a change
// reaches its watcher as a call of the function it gave.
//
// A file is watched through its folder, so that a file replaced by a
// rename (as atomic writes do) is still watched. Changes come as they
// happen, one call for each event the system reports; gathering them is
// the caller's part. When the system drops events (its queue overflowed),
// every watcher is told, since anything may have changed. A folder moved
// away is reported to every watcher of it, then watched no more: a
// watcher that wants it again watches it again. A folder deleted is
// reported through the deletion of its entries (a folder must be empty to
// be deleted); since the open folder stays alive while watched, the
// deletion of the empty folder itself is not an event.
//
// Watching needs Linux; elsewhere [Watcher.Watch] returns an error that
// says so. Folders on file systems whose changes the system does not
// report (NFS, SMB, FUSE and other network or user-space file systems,
// where changes made by other machines never produce an event) are
// refused with an [*UnwatchableError], rather than watched in silence.
package watch
