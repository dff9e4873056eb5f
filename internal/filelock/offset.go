package filelock

import (
	"encoding/binary"
	"hash/fnv"
)

// slots is how many bytes of the lock file lock keys: offsets stay below
// 2^31, which every lock protocol carries (the oldest of NFS's took 32-bit
// offsets), and two billion slots make a collision among the locks held
// at one time too rare to matter; a collision only makes two writers of
// unrelated files take turns. The byte at slots is probed by openFile and
// never locks a key.
const slots = 1<<31 - 1

// offsetOf places the lock of k in the lock file: a hash of the folder's
// inode and the name. Not of the device: on NFS each client numbers the
// devices it mounts itself, while inode numbers are the server's, the
// same on every client. The hash is FNV-1a, which is the same in every
// process and every build, as it must be.
func offsetOf(k Key) int64 {
	h := fnv.New64a()
	var ino [8]byte
	binary.LittleEndian.PutUint64(ino[:], k.Ino)
	h.Write(ino[:])
	h.Write([]byte(k.Name))
	return int64(h.Sum64() % slots)
}
