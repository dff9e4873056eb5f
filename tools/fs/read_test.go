package fs

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
)

// readFixture writes the files the read_file tests read.
func readFixture(t *testing.T, e *env) {
	e.write(t, "lines.txt", "1\n2\n3\n4\n5\n")
	e.write(t, "nonl.txt", "a\nb\nc")
	e.write(t, "empty.txt", "")
	e.write(t, "blank.txt", "\n")
	e.write(t, "crlf.txt", "a\r\nb\r\n")
	e.write(t, "bad.txt", "ok \xff\xfe end\n")
	e.write(t, "bin.dat", "abc\x00def")
	e.write(t, "img.png", pngHeader+"\x00\x00\x00\x0dIHDR")
	e.mkdir(t, "dir")
}

// pngHeader is the signature every PNG starts with.
const pngHeader = "\x89PNG\r\n\x1a\n"

func TestReadFile(t *testing.T) {
	type want struct {
		text              string
		from, to, total   int // total -1: absent
		truncated, broken bool
		note              string
		err               string
	}
	tests := []struct {
		name string
		args string
		want want
	}{
		{"the whole file comes back exactly", `{"path":"lines.txt"}`,
			want{text: "1\n2\n3\n4\n5\n", from: 1, to: 5, total: 5}},
		{"offset starts at the given line", `{"path":"lines.txt","offset":4}`,
			want{text: "4\n5\n", from: 4, to: 5, total: 5, note: "Lines 4-5 of 5 of lines.txt."}},
		{"offset and limit select a range and say where to go on", `{"path":"lines.txt","offset":2,"limit":2}`,
			want{text: "2\n3\n", from: 2, to: 3, total: 5, note: "offset=4"}},
		{"a limit past the end stops at the last line", `{"path":"lines.txt","offset":4,"limit":10}`,
			want{text: "4\n5\n", from: 4, to: 5, total: 5}},
		{"limit alone counts from the first line", `{"path":"lines.txt","limit":1}`,
			want{text: "1\n", from: 1, to: 1, total: 5}},
		{"head returns the first lines", `{"path":"lines.txt","head":2}`,
			want{text: "1\n2\n", from: 1, to: 2, total: 5, note: "offset=3"}},
		{"head larger than the file returns it all", `{"path":"lines.txt","head":10}`,
			want{text: "1\n2\n3\n4\n5\n", from: 1, to: 5, total: 5}},
		{"tail returns the last lines with their numbers", `{"path":"lines.txt","tail":2}`,
			want{text: "4\n5\n", from: 4, to: 5, total: 5}},
		{"tail larger than the file returns it all", `{"path":"lines.txt","tail":10}`,
			want{text: "1\n2\n3\n4\n5\n", from: 1, to: 5, total: 5}},
		{"a last line without a newline is a line", `{"path":"nonl.txt"}`,
			want{text: "a\nb\nc", from: 1, to: 3, total: 3}},
		{"tail of a file without a final newline", `{"path":"nonl.txt","tail":1}`,
			want{text: "c", from: 3, to: 3, total: 3}},
		{"head of a file without a final newline", `{"path":"nonl.txt","head":5}`,
			want{text: "a\nb\nc", from: 1, to: 3, total: 3}},
		{"offset on the last line without a newline", `{"path":"nonl.txt","offset":3}`,
			want{text: "c", from: 3, to: 3, total: 3}},
		{"an empty file has no lines", `{"path":"empty.txt"}`,
			want{text: "", total: 0, note: "empty.txt is empty."}},
		{"tail of an empty file is empty", `{"path":"empty.txt","tail":3}`,
			want{text: "", total: 0}},
		{"head of an empty file is empty", `{"path":"empty.txt","head":3}`,
			want{text: "", total: 0}},
		{"a lone newline is one empty line", `{"path":"blank.txt","tail":1}`,
			want{text: "\n", from: 1, to: 1, total: 1}},
		{"offset past the end is an error that gives the line count", `{"path":"lines.txt","offset":9}`,
			want{err: `offset 9 is past the end of "lines.txt", which has 5 lines; use an offset from 1 to 5`}},
		{"offset in an empty file is an error", `{"path":"empty.txt","offset":2}`,
			want{err: `offset 2 is past the end of "empty.txt", which is empty`}},
		{"line_numbers numbers every line as cat -n does", `{"path":"lines.txt","line_numbers":true}`,
			want{text: "     1\t1\n     2\t2\n     3\t3\n     4\t4\n     5\t5\n", from: 1, to: 5, total: 5}},
		{"line_numbers counts from offset", `{"path":"lines.txt","offset":4,"limit":1,"line_numbers":true}`,
			want{text: "     4\t4\n", from: 4, to: 4, total: 5, note: "offset=5"}},
		{"line_numbers numbers a tail by its place in the file", `{"path":"nonl.txt","tail":2,"line_numbers":true}`,
			want{text: "     2\tb\n     3\tc", from: 2, to: 3, total: 3}},
		{"line_numbers numbers a head, and a last line without a newline", `{"path":"nonl.txt","head":9,"line_numbers":true}`,
			want{text: "     1\ta\n     2\tb\n     3\tc", from: 1, to: 3, total: 3}},
		{"line_numbers numbers an empty line and keeps CRLF", `{"path":"crlf.txt","line_numbers":true}`,
			want{text: "     1\ta\r\n     2\tb\r\n", from: 1, to: 2, total: 2}},
		{"line_numbers on an empty file returns nothing to number", `{"path":"empty.txt","line_numbers":true}`,
			want{text: "", total: 0, note: "empty.txt is empty."}},
		{"line_numbers of a lone newline", `{"path":"blank.txt","line_numbers":true}`,
			want{text: "     1\t\n", from: 1, to: 1, total: 1}},
		{"CRLF line endings are kept", `{"path":"crlf.txt"}`,
			want{text: "a\r\nb\r\n", from: 1, to: 2, total: 2}},
		{"invalid UTF-8 is replaced with U+FFFD and flagged", `{"path":"bad.txt"}`,
			want{text: "ok \uFFFD\uFFFD end\n", from: 1, to: 1, total: 1, broken: true, note: "2 bytes that are not valid UTF-8 became U+FFFD"}},
		{"binary files are refused with their size", `{"path":"bin.dat"}`,
			want{err: `"bin.dat" is a binary file (7 bytes); read_file returns text, images and audio only; get_file_info describes it`}},
		{"line options on an image are refused", `{"path":"img.png","head":1}`,
			want{err: `"img.png" is an image (image/png); offset, limit, head and tail apply to text only`}},
		{"head and tail cannot be combined", `{"path":"lines.txt","head":1,"tail":1}`,
			want{err: "head and tail cannot be combined"}},
		{"head cannot be combined with offset", `{"path":"lines.txt","head":1,"offset":2}`,
			want{err: "head cannot be combined with offset or limit"}},
		{"tail cannot be combined with limit", `{"path":"lines.txt","tail":1,"limit":2}`,
			want{err: "tail cannot be combined with offset or limit"}},
		{"offset must be at least 1", `{"path":"lines.txt","offset":0}`,
			want{err: `"offset"`}},
		{"a directory is refused", `{"path":"dir"}`,
			want{err: `"dir" is a directory, not a file`}},
		{"a missing file is refused", `{"path":"nope.txt"}`,
			want{err: `"nope.txt" does not exist`}},
		{"a path above the root is refused", `{"path":"../etc/passwd"}`,
			want{err: "leaves the root"}},
		{"an absolute path outside the root is refused", `{"path":"/etc/passwd"}`,
			want{err: "outside the root"}},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		readFixture(t, e)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := e.call(t, "read_file", tt.args)
				if tt.want.err != "" {
					if !res.IsError {
						t.Fatalf("got %q, want error %q", text(res), tt.want.err)
					}
					wantContains(t, text(res), tt.want.err)
					return
				}
				if res.IsError {
					t.Fatalf("error: %s", text(res))
				}
				var got ReadFileResult
				structured(t, res, &got)
				if c := res.Content[0]; c.Type() != "text" || (tt.want.text != "" && c.Text() != tt.want.text) {
					t.Errorf("content[0] = %s %q, want text %q", c.Type(), c.Text(), tt.want.text)
				}
				if tt.want.text == "" && len(res.Content) != 1 {
					t.Errorf("an empty text should come as one block with the note, got %d blocks", len(res.Content))
				}
				total := -1
				if got.TotalLines != nil {
					total = *got.TotalLines
				}
				if got.FromLine != tt.want.from || got.ToLine != tt.want.to || total != tt.want.total {
					t.Errorf("lines %d-%d of %d, want %d-%d of %d", got.FromLine, got.ToLine, total, tt.want.from, tt.want.to, tt.want.total)
				}
				if got.Truncated != tt.want.truncated || got.InvalidUTF8 != tt.want.broken {
					t.Errorf("truncated=%v invalid_utf8=%v, want %v %v", got.Truncated, got.InvalidUTF8, tt.want.truncated, tt.want.broken)
				}
				if tt.want.note != "" {
					wantContains(t, got.Note, tt.want.note)
					wantContains(t, text(res), tt.want.note)
				}
				if strings.Contains(string(res.StructuredContent.(json.RawMessage)), `"text":`) {
					t.Errorf("the text must not be repeated in structuredContent: %s", res.StructuredContent)
				}
			})
		}
	})
}

func TestReadFileReturnsImagesAndAudioAsMedia(t *testing.T) {
	media := []struct {
		name, file, content, kind, mime string
	}{
		{"a PNG is image content", "pic.png", pngHeader + "\x00\x00\x00\x0dIHDR\x00\x00", "image", "image/png"},
		{"a JPEG is image content whatever its name", "photo.bin", "\xff\xd8\xff\xe0\x00\x10JFIF\x00", "image", "image/jpeg"},
		{"a GIF is image content", "a.gif", "GIF89a\x01\x00\x01\x00\x00\x00", "image", "image/gif"},
		{"a WebP is image content", "a.webp", "RIFF\x24\x00\x00\x00WEBPVP8 ", "image", "image/webp"},
		{"a WAV is audio content", "a.wav", "RIFF\x24\x00\x00\x00WAVEfmt \x00", "audio", "audio/wav"},
		{"an MP3 with ID3 is audio content", "a.mp3", "ID3\x04\x00\x00\x00\x00\x00\x00", "audio", "audio/mpeg"},
		{"an MP3 frame is audio content", "b.mp3", "\xff\xfb\x90\x44\x00\x00", "audio", "audio/mpeg"},
		{"an Ogg is audio content", "a.ogg", "OggS\x00\x02\x00\x00", "audio", "audio/ogg"},
		{"a FLAC is audio content", "a.flac", "fLaC\x00\x00\x00\x22", "audio", "audio/flac"},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, m := range media {
			t.Run(m.name, func(t *testing.T) {
				e.write(t, m.file, m.content)
				res := e.ok(t, "read_file", args(t, map[string]any{"path": m.file}))
				c := res.Content[0]
				if c.Type() != m.kind || c.MIMEType() != m.mime || !bytes.Equal(c.Data(), []byte(m.content)) {
					t.Fatalf("content[0] = %s %s %q, want %s %s %q", c.Type(), c.MIMEType(), c.Data(), m.kind, m.mime, m.content)
				}
				got := object(t, res)
				if got["kind"] != m.kind || got["mime_type"] != m.mime {
					t.Errorf("structured = %v", got)
				}
				wantContains(t, text(res), m.mime)
			})
		}
	})
}

// bigLines returns n lines "line NN\n" of 8 bytes each.
func bigLines(n int) string {
	var sb strings.Builder
	for i := range n {
		sb.WriteString("line ")
		sb.WriteByte(byte('0' + i/10%10))
		sb.WriteByte(byte('0' + i%10))
		sb.WriteByte('\n')
	}
	return sb.String()
}

func TestReadFileStaysWithinTheReadLimit(t *testing.T) {
	const limit = 64
	long := strings.Repeat("x", 100) + "\n"
	euros := strings.Repeat("€", 40) + "\n" // 121 bytes, cut inside a character at 64
	tests := []struct {
		name      string
		file      string
		content   string
		args      string
		text      string
		from, to  int
		total     int // -1: absent
		truncated bool
		note      string
		err       string
	}{
		{name: "a long file is cut at the last whole line that fits, with the offset to read on",
			file: "big.txt", content: bigLines(20), args: `{"path":"big.txt"}`,
			text: bigLines(8), from: 1, to: 8, total: 20, truncated: true, note: "call read_file with offset=9 to read on"},
		{name: "offset and limit page through a long file",
			file: "big.txt", content: bigLines(20), args: `{"path":"big.txt","offset":9,"limit":3}`,
			text: bigLines(11)[64:], from: 9, to: 11, total: 20, note: "offset=12"},
		{name: "head stops reading at its last line, so the total is unknown",
			file: "huge.txt", content: strings.Repeat(bigLines(100), 100), args: `{"path":"huge.txt","head":2}`,
			text: bigLines(2), from: 1, to: 2, total: -1, note: "offset=3"},
		{name: "tail of a long file reads from the end, without line numbers",
			file: "big.txt", content: bigLines(20), args: `{"path":"big.txt","tail":3}`,
			text: bigLines(20)[17*8:], total: -1, note: "The last 3 lines of big.txt"},
		{name: "tail of a long file returns as many lines as fit",
			file: "big.txt", content: bigLines(20), args: `{"path":"big.txt","tail":15}`,
			text: bigLines(20)[12*8:], total: -1, truncated: true, note: "Only these fit"},
		{name: "tail of a long file without a final newline",
			file: "nonl.txt", content: strings.TrimSuffix(bigLines(20), "\n"), args: `{"path":"nonl.txt","tail":1}`,
			text: "line 19", total: -1},
		{name: "a line longer than the limit is returned cut, with a note",
			file: "long.txt", content: long + "next\n", args: `{"path":"long.txt"}`,
			text: long[:64], from: 1, to: 1, total: 2, truncated: true, note: "Line 1 of long.txt is longer than"},
		{name: "tail of a last line longer than the limit returns its end",
			file: "long.txt", content: "first\n" + long, args: `{"path":"long.txt","tail":1}`,
			text: long[len(long)-64:], total: -1, truncated: true, note: "this is its end"},
		{name: "a cut never splits a character",
			file: "euro.txt", content: euros, args: `{"path":"euro.txt"}`,
			text: strings.Repeat("€", 21), from: 1, to: 1, total: 1, truncated: true},
		{name: "an image larger than the limit is refused",
			file: "big.png", content: pngHeader + strings.Repeat("\x00", 100), args: `{"path":"big.png"}`,
			err: `"big.png" is an image of 108 bytes, more than the 64 bytes read_file returns at a time`},
	}
	bothFS(t, security.Limits{MaxReadBytes: limit}, func(t *testing.T, e *env) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				e.write(t, tt.file, tt.content)
				res := e.call(t, "read_file", tt.args)
				if !outcome(t, res, tt.err) {
					return
				}
				var got ReadFileResult
				structured(t, res, &got)
				if txt := res.Content[0].Text(); txt != tt.text {
					t.Errorf("text = %q, want %q", txt, tt.text)
				}
				total := -1
				if got.TotalLines != nil {
					total = *got.TotalLines
				}
				if got.FromLine != tt.from || got.ToLine != tt.to || total != tt.total || got.Truncated != tt.truncated {
					t.Errorf("lines %d-%d of %d truncated=%v, want %d-%d of %d truncated=%v",
						got.FromLine, got.ToLine, total, got.Truncated, tt.from, tt.to, tt.total, tt.truncated)
				}
				if got.InvalidUTF8 || !utf8.ValidString(res.Content[0].Text()) {
					t.Errorf("the text is not valid UTF-8 or flagged so: %q", res.Content[0].Text())
				}
				wantContains(t, got.Note, tt.note)
			})
		}
	})
}

// countingFs counts the bytes read from the files it opens.
type countingFs struct {
	afero.Fs
	read *atomic.Int64
}

func (c countingFs) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	f, err := c.Fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return countingFile{f, c.read}, nil
}

type countingFile struct {
	afero.File
	read *atomic.Int64
}

func (f countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.read.Add(int64(n))
	return n, err
}

func (f countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(p, off)
	f.read.Add(int64(n))
	return n, err
}

func TestNumberLines(t *testing.T) {
	cases := []struct {
		text string
		from int
		want string
	}{
		{"a", 1, "     1\ta"},
		{"a\n", 1, "     1\ta\n"},
		{"\n\n", 7, "     7\t\n     8\t\n"},
		{"x\ny", 99999, " 99999\tx\n100000\ty"},
		{"x\ny\n", 999999, "999999\tx\n1000000\ty\n"},
		{"tab\tinside\r\n", 3, "     3\ttab\tinside\r\n"},
	}
	for _, c := range cases {
		got := numberLines(c.text, c.from)
		if got != c.want {
			t.Errorf("numberLines(%q, %d) = %q, want %q", c.text, c.from, got, c.want)
		}
		lines := strings.Count(c.text, "\n")
		if !strings.HasSuffix(c.text, "\n") {
			lines++
		}
		// The room reserved is enough for what is written.
		if room := len(c.text) + lines*int(numberWidth(c.from+lines-1)); len(got) > room {
			t.Errorf("numberLines(%q, %d) wrote %d bytes, more than the %d reserved", c.text, c.from, len(got), room)
		}
	}
	for _, c := range []struct{ n, w int }{{0, 1}, {9, 1}, {10, 2}, {999999, 6}, {1000000, 7}} {
		if d := digits(c.n); d != c.w {
			t.Errorf("digits(%d) = %d, want %d", c.n, d, c.w)
		}
	}
}

func TestReadFileCannotNumberTheTailOfAFileLargerThanTheReadLimit(t *testing.T) {
	mem := afero.NewMemMapFs()
	content := strings.Repeat(bigLines(100), 2000) // 1.6 MB
	if err := afero.WriteFile(mem, "log.txt", []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, "mem", mem, "", security.Limits{MaxReadBytes: 1 << 20})
	res := e.ok(t, "read_file", `{"path":"log.txt","tail":2,"line_numbers":true}`)
	if got, want := res.Content[0].Text(), content[len(content)-16:]; got != want {
		t.Fatalf("tail = %q, want the last two lines unnumbered, %q", got, want)
	}
	wantContains(t, text(res), "The lines are not numbered: their numbers are unknown at the end of a file this large; read it with offset and limit")
}

func TestReadFileTailDoesNotReadTheWholeFile(t *testing.T) {
	var read atomic.Int64
	mem := afero.NewMemMapFs()
	content := strings.Repeat(bigLines(100), 2000) // 1.6 MB
	if err := afero.WriteFile(mem, "log.txt", []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, "counting", countingFs{mem, &read}, "", security.Limits{MaxReadBytes: 1 << 20})
	res := e.ok(t, "read_file", `{"path":"log.txt","tail":5}`)
	if got, want := res.Content[0].Text(), content[len(content)-40:]; got != want {
		t.Fatalf("tail = %q, want %q", got, want)
	}
	if n := read.Load(); n > 100<<10 {
		t.Errorf("tail of a %d-byte file read %d bytes; it should read only near the end", len(content), n)
	}
}
