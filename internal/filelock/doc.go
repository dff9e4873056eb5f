// Package filelock keeps two changes of one file apart, within a process
// and across the processes that share a lock directory: a writer takes
// the file's lock before it reads what it decides on and lets it go
// after the rename that puts the new file in place.
//
// A file is known by a [Key]: the identity (device and inode) of the
// folder holding it and its name there. Not by the file's own identity,
// which every atomic write replaces (a waiter would get the lock of an
// inode already unlinked), and not by a path, which two spellings or a
// renamed folder make ambiguous. The caller checks again, once it holds
// the lock, whatever it decided before taking it.
//
// # Two layers
//
// Within the process, each key held has a line of waiters, served first
// come first served. Across processes (Linux only), each key is also one
// byte of one lock file, locked with an open-file-description lock
// (F_OFD_SETLKW): the kernel drops it when the description closes, so a
// process that crashes or is killed never leaves a stale lock behind. The
// byte's offset is a hash of the folder's inode and the name, below
// 2^31; not of the device, which each NFS client numbers its own way. A
// collision of two keys only makes two writers of unrelated files take
// turns. Every Lock opens the file anew and closes it on release, since
// the locks of one description never conflict with each other. A wait the
// caller gives up on (its context ends) leaves a goroutine blocked in
// the kernel, which closes its description when the wait ends, and so
// drops the byte at once. [Table.Lock] says why no set of callers can
// wait for each other in a circle.
//
// # Where the lock file lives
//
// In a directory of its own, named by the caller ([Open]), outside every
// folder the tools serve: a lock file beside each target would show in
// listings, searches and git status, and one per target would be more to
// clean up. The lock file, "locks", is never renamed or rewritten, so
// the byte locked is on a file that stays put. The directory must belong
// to the user and be closed to the group and others (made 0700 if it is
// missing); otherwise another user could remove the file and break the
// exclusion. A lock file removed anyway (a cleaner of temporary folders)
// is made again, and a waiter that got its lock on the removed file
// starts again on the new one; only a change under way at the moment of
// the removal is not kept apart from one that starts on the new file.
//
// Processes that change the same files must use the same directory: on
// one machine, the default of toolserver (a folder of the user in the
// temporary directory) does it; across machines, name a folder on the
// shared volume.
//
// # Verified where
//
// The tests run two tables on one lock file (which exclude each other as
// two processes do), a child process holding a lock that the test waits
// for, and the same child killed with SIGKILL while holding it (the lock
// is free at once): on each file system they find, and they log its name.
// Here they ran on ext4 (/tmp, on the disk that also holds the working
// tree) and on tmpfs (/dev/shm).
//
// NFSv4 is expected to work: the protocol carries byte-range locks
// between clients. A process that dies frees its locks at once, as here;
// a client machine that dies holds them until its lease with the server
// runs out (90 s by default on Linux). It was not tested here and must be
// tested there, with the lock directory on the shared volume, before
// relying on it; a file system that refuses these locks makes Open fail.
// On macOS, Windows and other systems, which have no
// open-file-description locks, Open of a directory fails with
// errors.ErrUnsupported, and the locks hold within the process only.
//
// # Cost
//
// BenchmarkLockUnlock: an uncontended lock and unlock takes about 1 µs
// within the process, and about 25 µs with the lock file (an open, a lock,
// a stat of the description and of the name, a close: system calls cost
// 0.5 to 7 µs each on the test machine), against some 3 ms for a
// write_file of 1 KiB with its fsyncs.
package filelock
