package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAKilledMoveAcrossRootsLosesNothing kills the server with SIGKILL at
// ever later moments of a move_file from one root into another (on tmpfs
// when there is one, so the move also crosses file systems), for a large
// file and for a directory: after every kill, the source is whole or the
// destination is, and a destination under its final name is never
// partial.
func TestAKilledMoveAcrossRootsLosesNothing(t *testing.T) {
	roots, work, _, scratch := threeRoots(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<20) // 16 MiB
	tree := map[string][]byte{"f1.bin": big[:4<<20], "sub/f2.bin": big[:6<<20], "sub/deeper/f3.txt": []byte("small\n")}
	for _, tc := range []struct {
		name  string
		src   string // in work
		dst   string // in scratch
		files map[string][]byte
	}{
		{"a file", "big.bin", "moved.bin", map[string][]byte{"": big}},
		{"a directory", "dir", "moved-dir", tree},
	} {
		t.Run(tc.name, func(t *testing.T) {
			place := func(base string) {
				for rel, data := range tc.files {
					p := filepath.Join(base, rel)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			// whole reports whether base holds exactly tc.files; partial
			// whether it exists at all.
			whole := func(base string) (ok, exists bool) {
				if _, err := os.Lstat(base); err != nil {
					return false, false
				}
				n := 0
				err := filepath.Walk(base, func(p string, fi os.FileInfo, err error) error {
					if err != nil || fi.IsDir() {
						return err
					}
					rel, _ := filepath.Rel(base, p)
					if rel == "." {
						rel = ""
					}
					want, known := tc.files[filepath.ToSlash(rel)]
					got, rerr := os.ReadFile(p)
					if !known || rerr != nil || !bytes.Equal(got, want) {
						return fmt.Errorf("%s differs", rel)
					}
					n++
					return nil
				})
				return err == nil && n == len(tc.files), true
			}
			src, dst := filepath.Join(work, tc.src), filepath.Join(scratch, tc.dst)
			request := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"move_file","arguments":{"source":"work:/%s","destination":"scratch:/%s"}}}`, tc.src, tc.dst)
			done, kills := false, 0
			for delay := time.Duration(0); !done && delay < 10*time.Second; delay = delay*3/2 + time.Millisecond {
				os.RemoveAll(src)
				os.RemoveAll(dst)
				place(src)
				p := start(t, roots...)
				p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
				p.recv()
				p.send(request)
				time.Sleep(delay)
				_ = p.cmd.Process.Kill()
				<-p.waited
				kills++
				srcOK, srcThere := whole(src)
				dstOK, dstThere := whole(dst)
				switch {
				case dstThere && !dstOK:
					t.Fatalf("killed after %v: a partial destination is under its final name", delay)
				case srcThere && !srcOK && !dstOK:
					t.Fatalf("killed after %v: the source is partial and the destination missing", delay)
				case !srcOK && !dstOK:
					t.Fatalf("killed after %v: neither the source nor the destination is whole", delay)
				case dstOK && !srcThere:
					done = true
				}
			}
			if !done {
				t.Fatalf("the move never completed in %d tries", kills)
			}
			t.Logf("%d kills", kills)
		})
	}
}

// TestKillsAtRandomMomentsOfMovesBetweenRoots runs killDuringMoves (kills
// at random moments, both ways) between two roots on different file
// systems: a folder on disk and one on tmpfs.
func TestKillsAtRandomMomentsOfMovesBetweenRoots(t *testing.T) {
	roots, work, _, scratch := threeRoots(t)
	if !strings.HasPrefix(scratch, "/dev/shm/") {
		t.Skip("needs /dev/shm for a root on another file system")
	}
	killDuringMoves(t, roots, work, "work:", scratch, "scratch:")
}
