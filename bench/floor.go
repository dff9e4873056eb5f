//go:build !windows

package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/bench/internal/listing"
)

// floorMain is the hidden "toolbench floor -root DIR" subcommand: runFloor
// on stdin and stdout in DIR. It keeps a spare P for the reason echoMain
// gives.
func floorMain(args []string) error {
	fs := flag.NewFlagSet("toolbench floor", flag.ContinueOnError)
	root := fs.String("root", ".", "the folder the operations work in")
	if err := fs.Parse(args); err != nil {
		return err
	}
	runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	return runFloor(*root, os.Stdin, os.Stdout)
}

// runFloor is the floor of the work toolserver's read_file, list_directory
// and write_file do: the same system calls and the same output, with no
// protocol around them. It serves three requests, each answered with
// exactly one line written with one Write:
//
//	read PATH\n              PATH opened through an os.Root of root, as
//	                         the sandbox opens files, and read whole (its
//	                         size from fstat, then reads to the end),
//	                         answered as one JSON string of its text
//	list PATH\n              os.ReadDir of PATH, the text list_directory
//	                         gives for it (package listing), answered as one
//	                         JSON string
//	write N PATH\n + N bytes the bytes written to PATH as write_file writes:
//	                         a new temporary file in PATH's folder, write,
//	                         fsync, close, rename over PATH, fsync of the
//	                         folder; answered "ok N"
//
// PATH is relative to root, and runs to the end of the line. A request
// that fails is answered "error: …" and the floor goes on; a request it
// cannot read ends it with an error. It returns nil at the end of in.
func runFloor(root string, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	sandbox, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("floor: %w", err)
	}
	defer sandbox.Close()
	var data, reply []byte
	for {
		line, err := r.ReadSlice('\n')
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("floor: reading a request: %w", err)
		}
		line = trimEOL(line)
		op, arg, _ := bytes.Cut(line, []byte(" "))
		reply = reply[:0]
		switch string(op) {
		case "read":
			text, err := readWhole(sandbox, string(arg), data[:0])
			if err != nil {
				reply = appendFloorError(reply, err)
				break
			}
			reply = appendJSONString(reply, text)
			data = text[:0]
		case "list":
			entries, err := os.ReadDir(filepath.Join(root, string(arg)))
			if err != nil {
				reply = appendFloorError(reply, err)
				break
			}
			text := listing.Append(data[:0], string(arg), entries)
			reply = appendJSONString(reply, text)
			data = text[:0]
		case "write":
			size, name, _ := bytes.Cut(arg, []byte(" "))
			n, err := strconv.Atoi(string(size))
			if err != nil || n < 0 || len(name) == 0 {
				return fmt.Errorf("floor: bad request %q: want write N PATH", snippet(line))
			}
			path := filepath.Join(root, string(name)) // before the read, which overwrites line
			if cap(data) < n {
				data = make([]byte, n)
			}
			if _, err := io.ReadFull(r, data[:n]); err != nil {
				return fmt.Errorf("floor: reading %d bytes to write: %w", n, err)
			}
			if err := writeDurably(path, data[:n]); err != nil {
				reply = appendFloorError(reply, err)
				break
			}
			reply = strconv.AppendInt(append(reply, "ok "...), int64(n), 10)
		default:
			return fmt.Errorf("floor: unknown request %q: want read, list or write", snippet(line))
		}
		if _, err := out.Write(append(reply, '\n')); err != nil {
			return err
		}
	}
}

// readWhole appends the whole file name in root to buf: open, fstat for
// the size, read to the end, close.
func readWhole(root *os.Root, name string, buf []byte) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return buf, err
	}
	buf = slices.Grow(buf, int(st.Size())+1)
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 4096)
		}
	}
}

func appendFloorError(dst []byte, err error) []byte {
	return append(append(dst, "error: "...), bytes.ReplaceAll([]byte(err.Error()), []byte("\n"), []byte(" "))...)
}

// writeDurably replaces or creates path with data as an atomic write that
// survives a crash once it returns: temporary file, write, fsync, rename,
// fsync of the folder.
func writeDurably(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".floor-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// would (without its HTML escaping), so that the floor's answer carries
// the text in the form a server's does.
func appendJSONString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				dst = append(dst, s[start:i]...)
				if r == utf8.RuneError {
					dst = append(dst, `\ufffd`...)
				} else {
					dst = append(dst, `\u202`...)
					dst = append(dst, hex[r&0xf])
				}
				start = i + size
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, `\n`...)
		case '\r':
			dst = append(dst, `\r`...)
		case '\t':
			dst = append(dst, `\t`...)
		default:
			dst = append(dst, `\u00`...)
			dst = append(dst, hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// checkFloorAnswer verifies that line is a successful answer of the floor.
func checkFloorAnswer(line []byte) error {
	if msg, failed := bytes.CutPrefix(line, []byte("error: ")); failed {
		return fmt.Errorf("the floor failed: %s", msg)
	}
	if len(line) == 0 || line[0] != '"' && !bytes.HasPrefix(line, []byte("ok ")) {
		return fmt.Errorf("unexpected answer from the floor: %s", snippet(line))
	}
	return nil
}

// floorReadLine returns the floor's request to read path.
func floorReadLine(path string) requestFunc {
	line := "read " + path + "\n"
	return func(dst []byte, _ int64) []byte { return append(dst, line...) }
}

// floorListLine returns the floor's request to list dir.
func floorListLine(dir string) requestFunc {
	line := "list " + dir + "\n"
	return func(dst []byte, _ int64) []byte { return append(dst, line...) }
}

// floorWriteLine returns the floor's request to write data to path. The
// request is built whole each time, as a server's request line is.
func floorWriteLine(path string, data []byte) requestFunc {
	header := "write " + strconv.Itoa(len(data)) + " " + path + "\n"
	return func(dst []byte, _ int64) []byte { return append(append(dst, header...), data...) }
}
