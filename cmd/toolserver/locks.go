package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/security"
)

// openLocks returns the write locks of the process, shared through the
// lock directory dir (--lock-dir) with every process that uses it. By
// default, dir is a folder of the user in the temporary directory, which
// every toolserver of the user on this machine shares; if that cannot be
// used, the locks hold within the process, and a warning says so. A dir
// given that cannot be used stops the start, since the user asked for
// locks shared with other processes. On systems without shared locks (see
// security.NewLocks), the default is this process alone, silently: the
// docs/http.md says so.
func openLocks(dir string, roots []openRoot, log zerolog.Logger) (*security.Locks, error) {
	given := dir != ""
	if !given {
		dir = filepath.Join(os.TempDir(), "toolserver-"+strconv.Itoa(os.Getuid()))
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		if r := rootHolding(roots, abs); r != "" {
			err = fmt.Errorf("%s is inside the root %s, where the tools would see it; put it outside", abs, r)
		}
	}
	var locks *security.Locks
	if err == nil {
		locks, err = security.NewLocks(abs)
	}
	switch {
	case err == nil:
		log.Debug().Str("lock_dir", abs).Msg("write locks are shared through the lock directory")
		return locks, nil
	case given:
		return nil, fmt.Errorf("--lock-dir %q cannot be used: %w", dir, err)
	case !errors.Is(err, errors.ErrUnsupported):
		log.Warn().Err(err).Msg("the write locks hold within this process only: another toolserver changing the same files is not kept out of their way; give --lock-dir a private folder outside the roots")
	}
	return security.NewLocks("")
}

// rootHolding returns the root whose folder holds dir (which need not
// exist yet), or "". It compares the folders on dir's real path with the
// roots' by identity, so that a symbolic link or a second mount of a
// root does not hide it.
func rootHolding(roots []openRoot, dir string) string {
	if r := insideRoot(roots, dir); r != "" {
		return r
	}
	real, rest := dir, ""
	for {
		if p, err := filepath.EvalSymlinks(real); err == nil {
			real = filepath.Join(p, rest)
			break
		}
		parent := filepath.Dir(real)
		if parent == real {
			return ""
		}
		rest, real = filepath.Join(filepath.Base(real), rest), parent
	}
	for q := real; ; q = filepath.Dir(q) {
		if st, err := os.Stat(q); err == nil {
			for _, r := range roots {
				if rs, err := os.Stat(r.HostPath); err == nil && os.SameFile(st, rs) {
					return r.HostPath
				}
			}
		}
		if filepath.Dir(q) == q {
			return ""
		}
	}
}
