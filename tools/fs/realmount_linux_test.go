package fs

import (
	"testing"

	"github.com/stdiotools/toolserver/internal/testmount"
	"github.com/stdiotools/toolserver/security"
)

// TestMoveFileAcrossARealMount moves between the root and a tmpfs mounted
// in it, where the kernel's rename fails with EXDEV. It needs a mount
// namespace and the right to mount (see testmount), and is skipped
// otherwise.
func TestMoveFileAcrossARealMount(t *testing.T) {
	if !testmount.Isolate(t) {
		return
	}
	e := newRealEnv(t, security.Limits{})
	e.mkdir(t, "mnt")
	testmount.Tmpfs(t, e.dir+"/mnt")
	crossFixture(t, e)
	if err := e.fs.Rename("a.txt", "mnt/a.txt"); err == nil {
		t.Fatal("a rename into the tmpfs worked: it is not another file system")
	}
	before := e.snapshot(t)
	wantContains(t, text(e.ok(t, "move_file", `{"source":"dir","destination":"mnt/dir","dry_run":true}`)),
		`Dry run: move_file would move the directory "dir" (2 files, 1 symbolic link and 3 subdirectories, 11 bytes) to "mnt/dir". They are on different file systems, so it would be copied, then the original deleted. Nothing was moved.`)
	if after := e.snapshot(t); after != before {
		t.Fatalf("a dry run changed the tree:\n%s", after)
	}
	topTime, dirTime, fileTime := e.mtime(t, "dir"), e.mtime(t, "dir/sub/deep"), e.mtime(t, "dir/run.sh")
	wantContains(t, text(e.ok(t, "move_file", `{"source":"dir","destination":"mnt/dir"}`)),
		`They are on different file systems, so it was copied, then the original deleted.`)
	wantContains(t, text(e.ok(t, "move_file", `{"source":"a.txt","destination":"mnt/old.txt","overwrite":true}`)),
		`Moved the file "a.txt" (3 bytes) to "mnt/old.txt", replacing the file "mnt/old.txt" (3 bytes). They are on different file systems`)
	if e.exists(t, "dir") || e.exists(t, "a.txt") {
		t.Errorf("the originals are still there:\n%s", e.snapshot(t))
	}
	if e.read(t, "mnt/dir/link") != "y" || e.read(t, "mnt/dir/run.sh") != "#!/bin/sh\n" || e.read(t, "mnt/old.txt") != "aaa" ||
		!e.mtime(t, "mnt/dir").Equal(topTime) || !e.mtime(t, "mnt/dir/sub/deep").Equal(dirTime) || !e.mtime(t, "mnt/dir/run.sh").Equal(fileTime) {
		t.Errorf("the copies are not whole:\n%s", e.snapshot(t))
	}
	// Within the tmpfs a rename does it; back out, a copy again.
	wantContains(t, text(e.ok(t, "move_file", `{"source":"mnt/dir","destination":"mnt/dir2"}`)), `Moved the directory "mnt/dir" to "mnt/dir2".`)
	wantContains(t, text(e.ok(t, "move_file", `{"source":"mnt/dir2","destination":"dir"}`)), `so it was copied`)
	noTempEntries(t, e)
}
