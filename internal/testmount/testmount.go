//go:build linux

// Package testmount lets a test meet a real second file system: it runs
// the test again in a child process with a mount namespace of its own,
// where a tmpfs can be mounted without touching the host's mounts, and
// where everything mounted goes away with the process, even one killed.
//
//	func TestAcrossAMount(t *testing.T) {
//		if !testmount.Isolate(t) {
//			return // the test ran in the child; its outcome is t's
//		}
//		dir := t.TempDir()
//		testmount.Tmpfs(t, dir)
//		...
//	}
//
// It needs the right to make a mount namespace and to mount (root, or
// CAP_SYS_ADMIN); where either is refused, the test is skipped and says
// why.
package testmount

import (
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// envKey names the environment variable that tells the child which test
// it runs isolated.
const envKey = "TOOLSERVER_TESTMOUNT_TEST"

// Isolate reports whether t runs in its own mount namespace. The first
// time, in the test process, it runs t again in a child process in a new
// mount namespace (os.Args[0] with -test.run naming t alone, the mounts
// made private so that nothing leaks to the host), reports the child's
// outcome as t's (passed, skipped with the child's reason, or failed with
// its output) and returns false; the caller then returns. In the child it
// returns true, and the test goes on there. Only top-level tests can be
// isolated.
func Isolate(t *testing.T) bool {
	t.Helper()
	if os.Getenv(envKey) == t.Name() {
		return true
	}
	if strings.Contains(t.Name(), "/") {
		t.Fatalf("testmount: only top-level tests can be isolated, not %s", t.Name())
	}
	args := []string{"-test.run=^" + regexp.QuoteMeta(t.Name()) + "$", "-test.v"}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout="+time.Until(d).Round(time.Second).String())
	}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envKey+"="+t.Name())
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		t.Fatalf("in its own mount namespace, %s failed:\n%s", t.Name(), out)
	case err != nil:
		t.Skipf("cannot make a mount namespace here: %v", err)
	case strings.Contains(string(out), "--- SKIP: "+t.Name()):
		t.Skipf("in its own mount namespace:\n%s", out)
	}
	t.Logf("in its own mount namespace:\n%s", out)
	return false
}

// Tmpfs mounts a new tmpfs of at most 256 MiB on the directory dir, and
// unmounts it when the test ends (before the cleanups registered earlier,
// such as t.TempDir's). It may only be called in a test that Isolate
// isolated; it skips the test when the mount is refused.
func Tmpfs(t *testing.T, dir string) {
	t.Helper()
	if os.Getenv(envKey) != t.Name() {
		t.Fatal("testmount: Tmpfs outside an isolated test would mount on the host")
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=256m,mode=0755"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount the tmpfs: %v", err)
		}
	})
}
