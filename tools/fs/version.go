package fs

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"strings"
)

// A file's version is the token that read_file, read_multiple_files,
// get_file_info and the writes give, and that write_file, edit_file and
// append_file take back as expected_version to change a file only if it
// is as the caller last saw it. What it is made of, and why, is written
// in the package doc ("Versions"); it is computed here and nowhere else.

// versionContentMax is the largest file whose content goes into its
// version, besides its metadata. Hashing costs about half of what
// read_file spends on a byte of text, so a version adds up to half to a
// read of a file this small, some 0.1 ms at most; above it the version is
// its metadata alone and reads nothing (BenchmarkVersion, and the
// figures in doc.go).
const versionContentMax = 64 << 10

// versionDigits is the length of a version: hexadecimal digits of the
// first 8 bytes of a SHA-256.
const versionDigits = 16

// fileVersion returns the version of a file in the state fi describes (a
// stat of it, through an open descriptor or by name), with content its
// bytes when fi.Size() is at most versionContentMax (ignored otherwise).
// It hashes the inode, the size, the modification and change times in
// nanoseconds and, for a small file, the content: what the file system
// gives of them (a file system in memory has no inode or change time).
// The device is left out, since NFS clients see one file under
// different devices.
func fileVersion(fi fs.FileInfo, content []byte) string {
	h := versionHash(fi)
	if withContent(fi) {
		h.Write(content)
	}
	return versionSum(h)
}

// readVersion returns the version of the open file f, which fi describes
// (its Stat), reading only what it needs: nothing of a file larger than
// versionContentMax, and of a smaller one, beyond have (the bytes from
// its start the caller read already), the rest of it.
func readVersion(f io.ReaderAt, fi fs.FileInfo, have []byte) (string, error) {
	h := versionHash(fi)
	if !withContent(fi) {
		return versionSum(h), nil
	}
	n := fi.Size()
	if int64(len(have)) >= n {
		h.Write(have[:n])
		return versionSum(h), nil
	}
	h.Write(have)
	buf := make([]byte, min(n-int64(len(have)), 16<<10))
	for off := int64(len(have)); off < n; {
		m, err := f.ReadAt(buf[:min(int64(len(buf)), n-off)], off)
		h.Write(buf[:m])
		off += int64(m)
		if errors.Is(err, io.EOF) {
			break // it shrank since fi: its version is what it holds
		}
		if err != nil {
			return "", err
		}
	}
	return versionSum(h), nil
}

// withContent reports whether the version of the file fi describes
// includes its content.
func withContent(fi fs.FileInfo) bool { return fi.Size() <= versionContentMax }

// hasher is what a version is summed with: a SHA-256.
type hasher interface {
	io.Writer
	Sum([]byte) []byte
}

// versionHash returns a hash holding the metadata of the file fi
// describes, and whether its content follows.
func versionHash(fi fs.FileInfo) hasher {
	var meta [4*8 + 1]byte
	_, ino, _ := fileID(fi)
	ctime, _ := changeTime(fi)
	binary.LittleEndian.PutUint64(meta[0:], ino)
	binary.LittleEndian.PutUint64(meta[8:], uint64(fi.Size()))
	binary.LittleEndian.PutUint64(meta[16:], uint64(fi.ModTime().UnixNano()))
	binary.LittleEndian.PutUint64(meta[24:], uint64(ctime))
	if withContent(fi) {
		meta[32] = 1
	}
	h := sha256.New()
	h.Write(meta[:])
	return h
}

// versionSum returns the version a hash gives.
func versionSum(h hasher) string {
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])[:versionDigits/2])
}

// parseVersion returns the version s names, as a model sends it back
// (upper-case digits read as lower-case ones), and whether it is one: 16
// hexadecimal digits.
func parseVersion(s string) (string, bool) {
	if len(s) != versionDigits {
		return "", false
	}
	for _, c := range []byte(s) {
		switch {
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		default:
			return "", false
		}
	}
	return strings.ToLower(s), true
}

// versionOf returns the version of the regular file rel as it is now, and
// its stat.
func (t *toolset) versionOf(rel string) (string, fs.FileInfo, error) {
	f, fi, err := t.sb.OpenRead(pathArg(rel), false)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	v, err := readVersion(f, fi, nil)
	if err != nil {
		return "", nil, t.sb.Explain("read", rel, err)
	}
	return v, fi, nil
}

// versionAfter returns the version of rel after a change that succeeded,
// or "" when it cannot be read (a file its owner may write but not
// read): the change is done either way, and its result says so.
func (t *toolset) versionAfter(rel string) string {
	v, _, err := t.versionOf(rel)
	if err != nil {
		return ""
	}
	return v
}

// checkExpected refuses a change of rel when expected, the call's
// expected_version, is set and the file is not at that version: it no
// longer exists (exists false), or now is another version. now is the
// version of the file as the change found it, "" to read it.
func (t *toolset) checkExpected(rel, expected string, exists bool, now string) error {
	switch {
	case expected == "":
		return nil
	case !exists:
		return fail(msgVersionGone, lit(quote(rel)), lit(expected))
	case now == "":
		var err error
		if now, _, err = t.versionOf(rel); err != nil {
			return err
		}
	}
	if now != expected {
		return fail(msgVersionStale, lit(quote(rel)), lit(now), lit(expected))
	}
	return nil
}

// checkVersionArg refuses an expected_version that is not a version, and
// makes one written in upper-case digits lower-case.
func checkVersionArg(v *string) error {
	if *v == "" {
		return nil
	}
	p, ok := parseVersion(*v)
	if !ok {
		return fail(msgBadVersion, lit(quoteText(*v)))
	}
	*v = p
	return nil
}

// versionTag is the tag that shows a version in the text the model reads:
// "[version 3f9a0c1e22b4d5e6]"; empty without one.
func versionTag(v string) message {
	if v == "" {
		return message{}
	}
	return say(msgVersionTag, lit(v))
}
