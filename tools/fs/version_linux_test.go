package fs

import (
	"syscall"
	"time"
)

// sysVersionCases are the cases of TestAVersionChangesWithEveryFactItHolds
// that need what Linux's stat gives: the inode and the change time.
func sysVersionCases(at time.Time) []struct {
	name      string
	a, b      statInfo
	ca, cb    []byte
	different bool
} {
	stat := func(dev, ino uint64, ctime int64) *syscall.Stat_t {
		return &syscall.Stat_t{Dev: dev, Ino: ino, Ctim: syscall.NsecToTimespec(ctime)}
	}
	with := func(sys *syscall.Stat_t) statInfo { return statInfo{size: 3, mtime: at, sys: sys} }
	c := at.UnixNano()
	abc := []byte("abc")
	return []struct {
		name      string
		a, b      statInfo
		ca, cb    []byte
		different bool
	}{
		{name: "another inode changes it", a: with(stat(1, 10, c)), b: with(stat(1, 11, c)), ca: abc, cb: abc, different: true},
		{name: "another change time changes it", a: with(stat(1, 10, c)), b: with(stat(1, 10, c+1)), ca: abc, cb: abc, different: true},
		{name: "the device is not part of it", a: with(stat(1, 10, c)), b: with(stat(2, 10, c)), ca: abc, cb: abc},
	}
}
