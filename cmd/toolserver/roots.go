package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stdiotools/toolserver/security"
)

// rootFlag is one --root or --read-only-root, in the order given.
type rootFlag struct {
	flag     string // "--root" or "--read-only-root", for messages
	given    string // the value as typed
	name     string // from NAME=DIR, else ""
	dir      string
	readOnly bool
}

// rootsValue is the flag.Value of --root and --read-only-root: both
// append to one list, so that the first root given, of either kind, is
// the first root.
type rootsValue struct {
	list     *[]rootFlag
	readOnly bool
}

// String returns the roots of this flag's kind given so far, joined by
// ",".
func (v rootsValue) String() string {
	if v.list == nil {
		return ""
	}
	var given []string
	for _, f := range *v.list {
		if f.readOnly == v.readOnly {
			given = append(given, f.given)
		}
	}
	return strings.Join(given, ",")
}

// Set adds a root: "DIR" or "NAME=DIR". The part before "=" is a name
// only if it follows security.CheckRootName, so that a folder whose path
// holds "=" can still be given alone.
func (v rootsValue) Set(s string) error {
	f := rootFlag{flag: "--root", given: s, dir: s, readOnly: v.readOnly}
	if v.readOnly {
		f.flag = "--read-only-root"
	}
	if name, dir, ok := strings.Cut(s, "="); ok && security.CheckRootName(name) == nil {
		f.name, f.dir = name, dir
	}
	if f.dir == "" {
		return errors.New("the folder is empty; give DIR or NAME=DIR")
	}
	*v.list = append(*v.list, f)
	return nil
}

// openRoot is a root opened for the sandbox.
type openRoot struct {
	security.Root
	fs *security.RootFs
}

// openRoots checks the roots the flags give and opens each: its folder
// must exist, and with several roots each needs a name (NAME=DIR, or the
// folder's own name) that follows security.CheckRootName and that no
// other root has. The caller closes what it returns.
func openRoots(flags []rootFlag) ([]openRoot, error) {
	if len(flags) == 0 {
		return nil, fmt.Errorf("--root is required: the folder the tools may work in (or --read-only-root, for one they may only read)")
	}
	var out []openRoot
	fail := func(err error) ([]openRoot, error) {
		closeRoots(out)
		return nil, err
	}
	for _, f := range flags {
		if f.name != "" {
			// NAME=DIR whose DIR does not exist, but which is a folder as
			// given ("key=value"): the folder, as before several roots.
			if _, err := os.Stat(f.dir); err != nil {
				if st, err := os.Stat(f.given); err == nil && st.IsDir() {
					f.name, f.dir = "", f.given
				}
			}
		}
		abs, err := filepath.Abs(f.dir)
		if err != nil {
			return fail(fmt.Errorf("%s %q: %w", f.flag, f.given, err))
		}
		st, err := os.Stat(abs)
		switch {
		case err != nil && f.name == "" && strings.Contains(f.given, "="):
			name, _, _ := strings.Cut(f.given, "=")
			return fail(fmt.Errorf("%s %q: no such folder, and %q cannot name a root (%v)", f.flag, f.given, name, security.CheckRootName(name)))
		case err != nil:
			return fail(fmt.Errorf("%s %q cannot be used: %w", f.flag, f.given, err))
		case !st.IsDir():
			return fail(fmt.Errorf("%s %q is not a directory", f.flag, f.given))
		}
		name := f.name
		if name == "" {
			name = filepath.Base(abs)
		}
		if len(flags) > 1 {
			if err := security.CheckRootName(name); err != nil {
				return fail(fmt.Errorf("%s %q: the folder's name cannot name a root (%v); name it yourself: %s NAME=%s", f.flag, f.given, err, f.flag, f.dir))
			}
			for _, o := range out {
				if strings.EqualFold(o.Name, name) {
					return fail(fmt.Errorf("%s %q: a root named %q was given already; name each root yourself: %s NAME=%s", f.flag, f.given, o.Name, f.flag, f.dir))
				}
			}
		}
		rfs, err := security.OpenRoot(abs)
		if err != nil {
			return fail(fmt.Errorf("%s %q cannot be opened: %w", f.flag, f.given, err))
		}
		out = append(out, openRoot{Root: security.Root{Name: name, Fs: rfs, HostPath: abs, ReadOnly: f.readOnly}, fs: rfs})
	}
	return out, nil
}

// closeRoots closes the roots.
func closeRoots(roots []openRoot) error {
	var errs []error
	for _, r := range roots {
		errs = append(errs, r.fs.Close())
	}
	return errors.Join(errs...)
}

// allReadOnly reports whether every root is read-only.
func allReadOnly(roots []openRoot) bool {
	for _, r := range roots {
		if !r.ReadOnly {
			return false
		}
	}
	return true
}

// insideRoot returns the root that dir, an absolute path, lies in, or "".
func insideRoot(roots []openRoot, dir string) string {
	for _, r := range roots {
		if rel, err := filepath.Rel(r.HostPath, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return r.HostPath
		}
	}
	return ""
}
