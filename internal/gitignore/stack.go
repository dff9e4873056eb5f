package gitignore

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
)

// GitDir is the name of a repository's own directory: a walk always
// skips it, and a directory that holds one (a directory, or in a worktree
// or a submodule a file) is the top of a repository.
const GitDir = ".git"

// Files are the files a directory's patterns come from, in the order
// they apply: a .ignore file's patterns (as ripgrep reads them) win over
// the .gitignore's beside it.
func Files() [2]string { return [2]string{".gitignore", ".ignore"} }

// Bounds bound the ignore files one walk applies. A file over FileBytes
// is not applied; nor is one that would bring the files in force at once
// past HeldBytes or Lines lines, nor one read after the walk has read
// ReadBytes of them.
type Bounds struct {
	FileBytes int64
	HeldBytes int64
	Lines     int
	ReadBytes int64
}

// The reasons an ignore file is not applied, besides an error reading it.
const (
	TooLarge        = "too_large"         // over Bounds.FileBytes
	TooManyPatterns = "too_many_patterns" // past Bounds.HeldBytes or Bounds.Lines
	ReadLimit       = "read_limit"        // past Bounds.ReadBytes
)

// Source reads the ignore files of a Stack: a caller's file system,
// through which it may refuse what is outside its sandbox.
type Source interface {
	// Lstat describes the entry p without following a symbolic link.
	Lstat(p string) (fs.FileInfo, error)
	// Read returns the content of the regular file p, of about size
	// bytes, reading at most limit+1 bytes.
	Read(ctx context.Context, p string, size, limit int64) ([]byte, error)
}

// Stack follows a walk through a tree and says which rules are in force
// in each directory: those of the directories above it, from the top of
// the repository down, then its own .git/info/exclude (at the top), then
// its .gitignore and .ignore (Files), within Bounds. Files are read as
// the walk enters a directory and count as held until it leaves
// (Release); a breadth-first walk that keeps the rules of many
// directories at once releases nothing, and so counts every file it
// applied.
type Stack struct {
	Source Source
	// Join returns the path of the entry name in the directory dir.
	Join   func(dir, name string) string
	Bounds Bounds
	// Unusable, if set, is told of each ignore file that exists and is not
	// applied: over a bound (reason, one of TooLarge, TooManyPatterns and
	// ReadLimit), or failing to be read (err).
	Unusable func(p, reason string, err error)

	held  int64 // bytes of the ignore files in force
	lines int   // their lines
	read  int64 // bytes of ignore files read
}

// Cost is what one directory's ignore files add to those in force.
type Cost struct {
	bytes int64
	lines int
}

// IsTop reports whether dir is the top of a repository: whether it holds
// a .git entry.
func (s *Stack) IsTop(dir string) bool {
	_, err := s.Source.Lstat(s.Join(dir, GitDir))
	return err == nil
}

// Enter returns the rules in force in the directory dir, whose parent has
// parent, "." being the base of the paths: those, then the patterns of
// dir's ignore files. At the top of a repository, the rules above no
// longer apply (as in git, a repository inside another follows its own),
// and .git/info/exclude comes first. The cost is to be released once the
// walk leaves dir.
func (s *Stack) Enter(ctx context.Context, parent *Rules, dir string) (*Rules, Cost) {
	var patterns []Pattern
	var cost Cost
	add := func(p string) {
		if data, lines, ok := s.load(ctx, p, cost); ok {
			patterns = append(patterns, Parse(data)...)
			cost.bytes += int64(len(data))
			cost.lines += lines
		}
	}
	if fi, err := s.Source.Lstat(s.Join(dir, GitDir)); err == nil {
		parent = nil
		if fi.IsDir() {
			add(s.Join(dir, GitDir+"/info/exclude"))
		}
	}
	for _, name := range Files() {
		add(s.Join(dir, name))
	}
	s.held += cost.bytes
	s.lines += cost.lines
	if dir == "." {
		dir = ""
	}
	return parent.With(dir, patterns), cost
}

// Held returns the bytes of the ignore files in force: entered and not
// released.
func (s *Stack) Held() int64 { return s.held }

// Release takes what a directory's ignore files cost off those in force.
func (s *Stack) Release(c Cost) {
	s.held -= c.bytes
	s.lines -= c.lines
}

// missing reports whether err says that a path does not exist, or that a
// file stands where one of its directories should be.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// load returns the content of the ignore file p and its lines, and
// whether there is one to apply; pending is what the directory's files
// read so far add. A missing file is none; so is a symbolic link, which
// git does not follow either, or anything else that is not a regular
// file. A file that cannot be read or is over a bound is told to
// Unusable, and not applied.
func (s *Stack) load(ctx context.Context, p string, pending Cost) (data string, lines int, ok bool) {
	fi, err := s.Source.Lstat(p)
	switch {
	case missing(err):
		return "", 0, false
	case err != nil:
		s.unusable(p, "", err)
		return "", 0, false
	case !fi.Mode().IsRegular():
		return "", 0, false
	}
	size := fi.Size()
	if reason := s.overBound(size, pending); reason != "" {
		s.unusable(p, reason, nil)
		return "", 0, false
	}
	buf, err := s.Source.Read(ctx, p, size, s.Bounds.FileBytes)
	grown := s.overBound(int64(len(buf)), pending) // before it counts as read
	s.read += int64(len(buf))
	switch {
	case ctx.Err() != nil:
		return "", 0, false // the walk stops at its next check
	case missing(err):
		return "", 0, false // gone since
	case err != nil:
		s.unusable(p, "", err)
		return "", 0, false
	}
	if grown != "" {
		s.unusable(p, grown, nil)
		return "", 0, false
	}
	data = string(buf)
	if lines = Lines(data); s.lines+pending.lines+lines > s.Bounds.Lines {
		s.unusable(p, TooManyPatterns, nil)
		return "", 0, false
	}
	return data, lines, true
}

// unusable tells Unusable, if set.
func (s *Stack) unusable(p, reason string, err error) {
	if s.Unusable != nil {
		s.Unusable(p, reason, err)
	}
}

// overBound returns why an ignore file of size bytes cannot be applied on
// top of those in force and pending, or "".
func (s *Stack) overBound(size int64, pending Cost) string {
	switch {
	case size > s.Bounds.FileBytes:
		return TooLarge
	case s.held+pending.bytes+size > s.Bounds.HeldBytes:
		return TooManyPatterns
	case s.read+size > s.Bounds.ReadBytes:
		return ReadLimit
	}
	return ""
}
