package fs

import (
	"io/fs"
	"syscall"
	"time"
)

// fileTimes returns the access time of fi, where the file system gives
// one; Linux's stat has no creation time.
func fileTimes(fi fs.FileInfo) (accessed, created *time.Time) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return nil, nil
	}
	a := time.Unix(st.Atim.Unix()).UTC()
	return &a, nil
}

// changeTime returns the change time (ctime) of fi in nanoseconds since
// 1970, which every change of the file's content or metadata sets.
func changeTime(fi fs.FileInfo) (int64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return 0, false
	}
	return st.Ctim.Nano(), true
}
