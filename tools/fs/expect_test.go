package fs

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
)

// fileState is the bytes and modification time of a file, or that it is
// missing: what a refused change must leave as it was.
type fileState struct {
	exists bool
	data   string
	mtime  time.Time
}

// state returns the state of the file name.
func (e *env) state(t testing.TB, name string) fileState {
	t.Helper()
	fi, err := e.fs.Stat(name)
	if isMissing(err) {
		return fileState{}
	}
	if err != nil {
		t.Fatal(err)
	}
	return fileState{exists: true, data: e.read(t, name), mtime: fi.ModTime()}
}

// versionOfFile returns the version get_file_info gives of name.
func (e *env) versionOfFile(t testing.TB, name string) string {
	t.Helper()
	var info FileInfo
	structured(t, e.ok(t, "get_file_info", args(t, map[string]any{"path": name})), &info)
	if info.Version == "" {
		t.Fatalf("get_file_info gave no version of %s", name)
	}
	return info.Version
}

func TestEveryWriteChecksTheExpectedVersion(t *testing.T) {
	const start = "one\ntwo\n"
	tools := []struct {
		tool  string
		args  map[string]any
		after string // the file after a change that went ahead
	}{
		{"write_file", map[string]any{"content": "new\n"}, "new\n"},
		{"edit_file", map[string]any{"edits": []Edit{{OldText: "two", NewText: "2"}}}, "one\n2\n"},
		{"append_file", map[string]any{"content": "three\n"}, start + "three\n"},
	}
	cases := []struct {
		name    string
		version func(t *testing.T, e *env) string // the expected_version given; "" for none
		remove  bool                              // the file is deleted after it was read
		err     string
		badArg  bool // refused as an argument, before anything is looked at
	}{
		{name: "the version read goes ahead", version: func(t *testing.T, e *env) string { return e.versionOfFile(t, "f.txt") }},
		{name: "no expected_version goes ahead as always", version: func(*testing.T, *env) string { return "" }},
		{name: "a version the file had before is refused",
			version: func(t *testing.T, e *env) string {
				v := e.versionOfFile(t, "f.txt")
				e.write(t, "f.txt", "ONE\ntwo\n") // another writer
				return v
			},
			err: "changed since it was read: its version is "},
		{name: "a version of a file that is gone is refused", remove: true,
			version: func(t *testing.T, e *env) string { return e.versionOfFile(t, "f.txt") },
			err:     `"f.txt" no longer exists, so it is not at version `},
		{name: "something that is not a version is refused", version: func(*testing.T, *env) string { return "v1" },
			err: `expected_version "v1" is not a version`, badArg: true},
	}
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, tool := range tools {
			for _, c := range cases {
				t.Run(tool.tool+"/"+c.name, func(t *testing.T) {
					e.write(t, "f.txt", start)
					a := map[string]any{"path": "f.txt"}
					for k, v := range tool.args {
						a[k] = v
					}
					if v := c.version(t, e); v != "" {
						a["expected_version"] = v
					}
					if c.remove {
						if err := e.fs.Remove("f.txt"); err != nil {
							t.Fatal(err)
						}
					}
					before := e.state(t, "f.txt")
					if e.real() {
						time.Sleep(10 * time.Millisecond) // so that a write would show in the time
					}
					res := e.call(t, tool.tool, args(t, a))
					if !outcome(t, res, c.err) {
						if !c.badArg {
							wantContains(t, text(res), "nothing was written")
						}
						if after := e.state(t, "f.txt"); after != before {
							t.Errorf("a refused %s changed the file: %+v, was %+v", tool.tool, after, before)
						}
						return
					}
					if got := e.read(t, "f.txt"); got != tool.after {
						t.Errorf("f.txt = %q, want %q", got, tool.after)
					}
					var out struct{ Version string }
					structured(t, res, &out)
					if now := e.versionOfFile(t, "f.txt"); out.Version != now || versionIn(t, text(res)) != now {
						t.Errorf("%s gave version %q (text %q); the file's is %s", tool.tool, out.Version, text(res), now)
					}
				})
			}
		}
	})
}

func TestAStaleVersionNamesBothVersions(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "f.txt", "a\n")
	old := e.versionOfFile(t, "f.txt")
	e.write(t, "f.txt", "b\n")
	now := e.versionOfFile(t, "f.txt")
	got := e.fail(t, "edit_file", args(t, map[string]any{"path": "f.txt", "expected_version": old, "edits": []Edit{{OldText: "b", NewText: "c"}}}))
	want := fmt.Sprintf(`"f.txt" changed since it was read: its version is %s now, not %s; nothing was written. Read it again, then make the change on what it holds now`, now, old)
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAVersionInUpperCaseIsAccepted(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	e.write(t, "f.txt", "a\n")
	v := e.versionOfFile(t, "f.txt")
	upper := ""
	for _, c := range v {
		if 'a' <= c && c <= 'f' {
			c -= 'a' - 'A'
		}
		upper += string(c)
	}
	e.ok(t, "write_file", args(t, map[string]any{"path": "f.txt", "content": "b\n", "expected_version": upper}))
}

func TestTheVersionIsTheSameWhereverTheFileIsSeen(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		for _, tt := range []struct{ name, content string }{
			{"a small text", "hello\nworld\n"},
			{"a text larger than what a version hashes", sourceText(versionContentMax + 100)},
			{"an image", pngHeader + "\x00\x00"},
			{"an empty file", ""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				e.write(t, "f", tt.content)
				read := e.ok(t, "read_file", `{"path":"f"}`)
				var r ReadFileResult
				structured(t, read, &r)
				var many ReadMultipleResult
				manyRes := e.ok(t, "read_multiple_files", `{"paths":["f"]}`)
				structured(t, manyRes, &many)
				info := e.versionOfFile(t, "f")
				if r.Version == "" || r.Version != info || many.Files[0].Version != info {
					t.Errorf("read_file %q, read_multiple_files %q, get_file_info %q", r.Version, many.Files[0].Version, info)
				}
				if shown := versionIn(t, text(read)); shown != info {
					t.Errorf("read_file's text shows version %s, want %s", shown, info)
				}
				if shown := versionIn(t, text(manyRes)); shown != info {
					t.Errorf("read_multiple_files's text shows version %s, want %s", shown, info)
				}
				if again := e.versionOfFile(t, "f"); again != info {
					t.Errorf("a second look gave %s, the first %s", again, info)
				}
			})
		}
	})
}

func TestReadFileShowsTheTextExactlyAndTheVersionApart(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	e.write(t, "f.txt", "exact\n")
	res := e.ok(t, "read_file", `{"path":"f.txt"}`)
	if len(res.Content) != 2 || res.Content[0].Text() != "exact\n" {
		t.Fatalf("content = %+v, want the text alone, then the version", res.Content)
	}
	if got := anyVersion(res.Content[1].Text()); got != "[version V]" {
		t.Errorf("the block after the text is %q", res.Content[1].Text())
	}
}

func TestAOneByteChangeInPlaceRightAfterAReadChangesTheVersion(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	e.write(t, "f.txt", "abcdef\n")
	for i := range 200 {
		var r ReadFileResult
		structured(t, e.ok(t, "read_file", `{"path":"f.txt"}`), &r)
		f, err := os.OpenFile(e.dir+"/f.txt", os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		// The same size, at once: within one tick of a coarse clock.
		if _, err := f.WriteAt([]byte{byte('A' + i%26)}, 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		var again ReadFileResult
		structured(t, e.ok(t, "read_file", `{"path":"f.txt"}`), &again)
		if again.Version == r.Version {
			t.Fatalf("round %d: %q and %q have one version %s", i, r.Text, again.Text, r.Version)
		}
	}
}

func TestAVersionErrorIsWrittenInTheServersLanguage(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
		e := newLangEnv(t, lang, security.Limits{})
		e.write(t, "f.txt", "a\n")
		old := e.versionOfFile(t, "f.txt")
		if err := afero.WriteFile(e.fs, "f.txt", []byte("b\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		now := e.versionOfFile(t, "f.txt")
		tests := []struct{ args, en, zh string }{
			{args: args(t, map[string]any{"path": "f.txt", "content": "c", "expected_version": old}),
				en: fmt.Sprintf(`"f.txt" changed since it was read: its version is %s now, not %s; nothing was written. Read it again, then make the change on what it holds now`, now, old),
				zh: fmt.Sprintf(`"f.txt" 在读取之后已被修改：当前版本为 %s，而不是 %s；未写入任何内容。请重新读取，再基于其当前内容修改`, now, old)},
			{args: args(t, map[string]any{"path": "gone.txt", "content": "c", "expected_version": old}),
				en: fmt.Sprintf(`"gone.txt" no longer exists, so it is not at version %s; nothing was written. Look for where it went (list_directory), or leave out expected_version to create it`, old),
				zh: fmt.Sprintf(`"gone.txt" 已不存在，因此不是版本 %s；未写入任何内容。请查明它的去向（list_directory），或去掉 expected_version 来新建它`, old)},
			{args: `{"path":"f.txt","content":"c","expected_version":"v1"}`,
				en: `expected_version "v1" is not a version: give the 16 hexadecimal digits that read_file, get_file_info or the last write returned, as they are`,
				zh: `expected_version "v1" 不是版本号：请原样给出 read_file、get_file_info 或上一次写入返回的 16 位十六进制数字`},
		}
		for _, tt := range tests {
			got := e.fail(t, "write_file", tt.args)
			if want := i18n.Pick(lang, tt.en, tt.zh); !strings.Contains(got, want) {
				t.Errorf("in %s:\n got: %s\nwant: %s", lang, got, want)
			}
		}
		res := e.ok(t, "append_file", `{"path":"f.txt","content":"cd"}`)
		want := i18n.Pick(lang, `Appended 2 bytes to "f.txt" (now 4 bytes). [version V]`, `已在 "f.txt" 末尾追加 2 字节（现为 4 字节）。[版本 V]`)
		if got := anyVersion(text(res)); got != want {
			t.Errorf("in %s: %q, want %q", lang, got, want)
		}
	}
}

func TestTheVersionOfALargeFileReadsNothingMore(t *testing.T) {
	var read atomic.Int64
	mem := newMemFs()
	content := strings.Repeat(bigLines(100), 2000) // 1.6 MB
	if err := afero.WriteFile(mem, "log.txt", []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, "counting", countingFs{mem, &read}, "", security.Limits{MaxReadBytes: 256 << 10})
	var r ReadFileResult
	structured(t, e.ok(t, "read_file", `{"path":"log.txt","tail":5}`), &r)
	if n := read.Load(); n > 100<<10 || r.Version == "" {
		t.Errorf("tail of a %d-byte file read %d bytes, version %q", len(content), n, r.Version)
	}
	read.Store(0)
	if v := e.versionOfFile(t, "log.txt"); v != r.Version {
		t.Errorf("get_file_info gave version %s, read_file %s", v, r.Version)
	}
	if n := read.Load(); n > 256<<10+1 {
		t.Errorf("get_file_info of a %d-byte file read %d bytes, past its read limit", len(content), n)
	}
}
