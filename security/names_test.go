package security

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/i18n"
)

// nameEnv is a sandbox for the tests of new names, over a MemMapFs or a
// RootFs on a temporary directory, and the file system below it, which
// creates names without the rule.
type nameEnv struct {
	sb  *Sandbox
	raw afero.Fs
}

// eachNameEnv runs f on a memory sandbox and on a real one.
func eachNameEnv(t *testing.T, f func(t *testing.T, e nameEnv)) {
	t.Run("mem", func(t *testing.T) {
		raw := afero.NewMemMapFs()
		f(t, nameEnv{NewSandbox(raw, SandboxOptions{}), raw})
	})
	t.Run("real", func(t *testing.T) {
		dir := t.TempDir()
		raw, err := OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { raw.Close() })
		f(t, nameEnv{NewSandbox(raw, SandboxOptions{HostRoot: dir}), raw})
	})
}

// rawFile creates the file name with the file system below the sandbox,
// as a clone or a download would, bypassing the rule.
func (e nameEnv) rawFile(t *testing.T, name, data string) {
	t.Helper()
	if dir := path.Dir(name); dir != "." {
		if err := e.raw.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := afero.WriteFile(e.raw, name, []byte(data), 0o644); err != nil {
		t.Fatalf("creating %q below the sandbox: %v", name, err)
	}
}

// wantRefusal checks that err is a *PathError with reason whose sentence
// contains every one of parts.
func wantRefusal(t *testing.T, what string, err error, reason Reason, parts ...string) {
	t.Helper()
	pe, ok := errors.AsType[*PathError](err)
	if !ok {
		t.Errorf("%s: error %v (%T), want a *PathError with reason %v", what, err, err, reason)
		return
	}
	if pe.Reason != reason {
		t.Errorf("%s: reason %v (%v), want %v", what, pe.Reason, err, reason)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %q does not contain %q", what, err.Error(), p)
		}
	}
}

// TestDefaultIgnorableIsUnicodes checks the derivation of
// Default_Ignorable_Code_Point against the ranges
// DerivedCoreProperties-15.0.0.txt lists, over every code point.
func TestDefaultIgnorableIsUnicodes(t *testing.T) {
	if unicode.Version != "15.0.0" {
		t.Skipf("the ranges below are Unicode 15.0.0's; Go has %s", unicode.Version)
	}
	ranges := [][2]rune{
		{0x00AD, 0x00AD}, {0x034F, 0x034F}, {0x061C, 0x061C}, {0x115F, 0x1160},
		{0x17B4, 0x17B5}, {0x180B, 0x180F}, {0x200B, 0x200F}, {0x202A, 0x202E},
		{0x2060, 0x206F}, {0x3164, 0x3164}, {0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF},
		{0xFFA0, 0xFFA0}, {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
		{0xE0000, 0xE0FFF},
	}
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := slices.ContainsFunc(ranges, func(rg [2]rune) bool { return rg[0] <= r && r <= rg[1] })
		if got := isDefaultIgnorable(r); got != want {
			t.Errorf("isDefaultIgnorable(%U) = %v, want %v", r, got, want)
		}
		if want {
			n++
		}
	}
	if n != 4174 {
		t.Errorf("%d default-ignorable code points, want 4174", n)
	}
}

// refusedRunes lists a code point of every class the rule refuses, with
// the boundaries of every range, and the phrase the error gives.
var refusedRunes = []struct {
	r      rune
	phrase string
}{
	{0x200C, "default-ignorable"},   // ZERO WIDTH NON-JOINER
	{0x200D, "default-ignorable"},   // ZERO WIDTH JOINER
	{0x00AD, "default-ignorable"},   // SOFT HYPHEN
	{0x034F, "default-ignorable"},   // COMBINING GRAPHEME JOINER
	{0x061C, "default-ignorable"},   // ARABIC LETTER MARK
	{0x17B4, "default-ignorable"},   // KHMER VOWEL INHERENT AQ
	{0x180E, "default-ignorable"},   // MONGOLIAN VOWEL SEPARATOR
	{0x206A, "default-ignorable"},   // INHIBIT SYMMETRIC SWAPPING
	{0x206F, "default-ignorable"},   // NOMINAL DIGIT SHAPES
	{0xFEFF, "default-ignorable"},   // ZERO WIDTH NO-BREAK SPACE
	{0xFFF0, "default-ignorable"},   // reserved, default-ignorable
	{0x1BCA0, "default-ignorable"},  // SHORTHAND FORMAT LETTER OVERLAP
	{0x1D173, "default-ignorable"},  // MUSICAL SYMBOL BEGIN BEAM
	{0xE0080, "default-ignorable"},  // reserved, after the tags
	{0xE01F0, "default-ignorable"},  // reserved, after the variation selectors
	{0xE0FFF, "default-ignorable"},  // the last default-ignorable code point
	{0x180B, "variation selector"},  // MONGOLIAN FREE VARIATION SELECTOR ONE
	{0x180F, "variation selector"},  // MONGOLIAN FREE VARIATION SELECTOR FOUR
	{0xFE00, "variation selector"},  // VARIATION SELECTOR-1
	{0xFE0F, "variation selector"},  // VARIATION SELECTOR-16
	{0xE0100, "variation selector"}, // VARIATION SELECTOR-17
	{0xE01EF, "variation selector"}, // VARIATION SELECTOR-256
	{0xE0000, "tag character"},      // reserved, first of the Tags block
	{0xE0001, "tag character"},      // LANGUAGE TAG
	{0xE0020, "tag character"},      // TAG SPACE
	{0xE0041, "tag character"},      // TAG LATIN CAPITAL LETTER A
	{0xE007F, "tag character"},      // CANCEL TAG
	{0x115F, "filler"},              // HANGUL CHOSEONG FILLER
	{0x1160, "filler"},              // HANGUL JUNGSEONG FILLER
	{0x3164, "filler"},              // HANGUL FILLER
	{0xFFA0, "filler"},              // HALFWIDTH HANGUL FILLER
	{0x2800, "filler"},              // BRAILLE PATTERN BLANK
	{0xFFF9, "format character"},    // INTERLINEAR ANNOTATION ANCHOR
	{0xFFFB, "format character"},    // INTERLINEAR ANNOTATION TERMINATOR
	{0x0600, "format character"},    // ARABIC NUMBER SIGN
	{0x13430, "format character"},   // EGYPTIAN HIEROGLYPH VERTICAL JOINER
	{0xFDD0, "noncharacter"},
	{0xFDEF, "noncharacter"},
	{0xFFFE, "noncharacter"},
	{0xFFFF, "noncharacter"},
	{0x1FFFE, "noncharacter"},
	{0x1FFFF, "noncharacter"},
	{0xEFFFF, "noncharacter"},
	{0x10FFFE, "noncharacter"},
	{0x10FFFF, "noncharacter"},
	{0xE000, "private-use"},
	{0xF8FF, "private-use"},
	{0xF0000, "private-use"},
	{0xFFFFD, "private-use"},
	{0x100000, "private-use"},
	{0x10FFFD, "private-use"},
}

// allowedNames are new names the rule lets through, among them the
// neighbours of the refused ranges.
var allowedNames = []string{
	"plain.txt", "\u00e9t\u00e9.md", "日本語.txt", "😀.png", "\u00ac", "\u2801", "\uFDCF", "\uFDF0",
	"\uFE10", "\uFFFC", "\uFFFD", "\U0001BCA4", "\U000E1000", "Stra\u00dfe", "a\u00a0b",
}

func TestNewNamesRefuseInvisibleAndReservedCharacters(t *testing.T) {
	eachNameEnv(t, func(t *testing.T, e nameEnv) {
		e.rawFile(t, "src.txt", "s")
		if err := e.sb.Fs().Mkdir("d", 0o755); err != nil {
			t.Fatal(err)
		}
		for _, c := range refusedRunes {
			name := "ab" + string(c.r) + "c"
			cp := fmt.Sprintf("U+%04X", c.r)
			parts := []string{cp + ", a", c.phrase, "at position 3"}
			// Resolve refuses a few of them in every path, new or not.
			resolveReason := InvisibleName
			resolveParts := parts
			if _, _, ok := ClassPath.Check(name); !ok {
				resolveReason, resolveParts = Control, []string{cp}
			}
			f, err := e.sb.OpenWrite(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err == nil {
				f.Close()
			}
			wantRefusal(t, "OpenWrite "+cp, err, resolveReason, resolveParts...)
			wantRefusal(t, "Create "+cp, createErr(e.sb.Fs(), "d/"+name), InvisibleName, parts...)
			wantRefusal(t, "Mkdir "+cp, e.sb.Fs().Mkdir(name, 0o755), InvisibleName, parts...)
			wantRefusal(t, "MkdirAll "+cp, e.sb.Fs().MkdirAll("new/"+name+"/x", 0o755), InvisibleName, parts...)
			wantRefusal(t, "Rename "+cp, e.sb.Fs().Rename("src.txt", "d/"+name), InvisibleName, parts...)
			wantRefusal(t, "CheckNewName "+cp, e.sb.CheckNewName("new/"+name), resolveReason, resolveParts...)
			if got, want := refusedIn(c.r), c.phrase; !strings.Contains(nameRunePhrase(i18n.English, "U+0000"+listSep+nameClassKeys[got]), want) {
				t.Errorf("refusedIn(%U) = %v, want the class called %q", c.r, nameClassKeys[got], want)
			}
		}
		if _, err := e.raw.Stat("new"); err == nil {
			t.Error("MkdirAll made the parent of a refused name")
		}
		if names := dirNames(t, e.raw, "."); !slices.Equal(names, []string{"d", "src.txt"}) {
			t.Errorf("after the refusals the root holds %q, want only d and src.txt", names)
		}
		for _, name := range allowedNames {
			if err := e.sb.CheckNewName(name); err != nil {
				t.Errorf("CheckNewName(%q): %v", name, err)
			}
			f, err := e.sb.OpenWrite("d/"+name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				t.Errorf("OpenWrite(%q): %v", name, err)
				continue
			}
			f.Close()
		}
	})
}

// createErr creates name with fsys.Create and returns the error.
func createErr(fsys afero.Fs, name string) error {
	f, err := fsys.Create(name)
	if err == nil {
		f.Close()
	}
	return err
}

// dirNames returns the sorted names in the directory dir of fsys.
func dirNames(t *testing.T, fsys afero.Fs, dir string) []string {
	t.Helper()
	f, err := fsys.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

func TestNewNamesMustBeNFC(t *testing.T) {
	eachNameEnv(t, func(t *testing.T, e nameEnv) {
		nfd, nfc := "notes/cafe\u0301.txt", "notes/caf\u00e9.txt"
		if err := e.sb.Fs().Mkdir("notes", 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := e.sb.OpenWrite(nfd, os.O_WRONLY|os.O_CREATE, 0o644)
		wantRefusal(t, "OpenWrite NFD", err, NotNormalized, `cannot create "notes/cafe\u{301}.txt"`, `not Unicode NFC`, `use "notes/café.txt"`)
		wantRefusal(t, "Mkdir NFD", e.sb.Fs().Mkdir(nfd, 0o755), NotNormalized, `use "notes/café.txt"`)
		wantRefusal(t, "Mkdir singleton", e.sb.Fs().Mkdir("\u212Bngstr\u00f6m", 0o755), NotNormalized, `use "Ångström"`)
		f, err := e.sb.OpenWrite(nfc, os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatalf("OpenWrite NFC: %v", err)
		}
		f.Close()
	})
}

func TestNewNamesMustNotDifferFromASiblingOnlyInCaseOrForm(t *testing.T) {
	eachNameEnv(t, func(t *testing.T, e nameEnv) {
		e.rawFile(t, "README.md", "r")
		e.rawFile(t, "docs/cafe\u0301.txt", "decomposed") // as an old macOS copy leaves it
		e.rawFile(t, "docs/STRASSE", "s")
		e.rawFile(t, "docs/todo.txt", "t")
		fsys := e.sb.Fs()

		_, err := e.sb.OpenWrite("Readme.md", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		wantRefusal(t, "OpenWrite Readme.md", err, Confusable, `"Readme.md"`, `the existing "README.md" differs only in case`)
		wantRefusal(t, "Mkdir readme.MD", fsys.Mkdir("readme.MD", 0o755), Confusable, `"README.md"`)
		wantRefusal(t, "composed against decomposed", createErr(fsys, "docs/caf\u00e9.txt"), Confusable, `"docs/cafe\u{301}.txt"`)
		wantRefusal(t, "case and form at once", createErr(fsys, "docs/CAF\u00c9.TXT"), Confusable, `"docs/cafe\u{301}.txt"`)
		wantRefusal(t, "full case folding", createErr(fsys, "docs/stra\u00dfe"), Confusable, `"docs/STRASSE"`)
		wantRefusal(t, "long s", fsys.Rename("README.md", "docs/\u017fTRASSE"), Confusable, `"docs/STRASSE"`)
		wantRefusal(t, "MkdirAll", fsys.MkdirAll("DOCS/sub", 0o755), Confusable, `"docs"`)
		wantRefusal(t, "CheckNewName", e.sb.CheckNewName("Docs"), Confusable, `"docs"`)

		// Changing only the case of a name, by renaming it, is fine.
		if err := fsys.Rename("docs/todo.txt", "docs/TODO.txt"); err != nil {
			t.Errorf("renaming docs/todo.txt to docs/TODO.txt: %v", err)
		}
		// Names in other directories do not count.
		if err := fsys.Mkdir("notes", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := createErr(fsys, "notes/readme.md"); err != nil {
			t.Errorf("creating notes/readme.md: %v", err)
		}
		// An existing name is written, not created.
		f, err := e.sb.OpenWrite("README.md", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatalf("rewriting README.md: %v", err)
		}
		f.Close()
	})
}

// TestCaseFoldingReachesTheEndsOfTheAlphabet: an ASCII name is compared
// with its siblings with 'A' to 'Z' folded to lower case, both ends
// included, and nothing else: '@' and '[', just outside the capitals, are
// not letters, and differ from '`' and '{', 32 code points on.
func TestCaseFoldingReachesTheEndsOfTheAlphabet(t *testing.T) {
	tests := []struct {
		existing, created string
		confusable        bool
	}{
		{"Zeta", "zeta", true},
		{"zeta", "Zeta", true},
		{"Alpha", "alpha", true},
		{"alpha", "ALPHA", true},
		{"AZ", "az", true},
		{"@home", "`home", false},
		{"[x]", "{x]", false},
		{"Y", "y", true},
		{"B", "b", true},
	}
	for _, tt := range tests {
		if got := asciiKeyEqual(tt.existing, foldKey(tt.created)); got != tt.confusable {
			t.Errorf("asciiKeyEqual(%q, foldKey(%q)) = %v, want %v", tt.existing, tt.created, got, tt.confusable)
		}
	}
	eachNameEnv(t, func(t *testing.T, e nameEnv) {
		for i, tt := range tests {
			dir := fmt.Sprintf("d%d", i)
			e.rawFile(t, dir+"/"+tt.existing, "x")
			err := createErr(e.sb.Fs(), dir+"/"+tt.created)
			if tt.confusable {
				wantRefusal(t, tt.created+" beside "+tt.existing, err, Confusable, `"`+dir+"/"+tt.existing+`"`)
			} else if err != nil {
				t.Errorf("creating %q beside %q: %v", tt.created, tt.existing, err)
			}
		}
	})
}

func TestExistingNamesStayReachable(t *testing.T) {
	names := []string{"tag\U000E0041\U000E0042.txt", "zw\u200dj.txt", "cafe\u0301.txt", "Caf\u00e9.txt", "pua\uE000.txt", "blank\u2800.txt"}
	eachNameEnv(t, func(t *testing.T, e nameEnv) {
		for _, n := range names {
			e.rawFile(t, "dir/"+n, n)
		}
		if got := dirNames(t, e.sb.Fs(), "dir"); len(got) != len(names) {
			t.Errorf("listing dir gives %q, want %d names", got, len(names))
		}
		for _, n := range names {
			p := "dir/" + n
			if err := e.sb.CheckNewName(p); err != nil {
				t.Errorf("CheckNewName(%q) of an existing name: %v", p, err)
			}
			f, _, err := e.sb.OpenRead(p, false)
			if err != nil {
				t.Errorf("OpenRead(%q): %v", p, err)
				continue
			}
			data, _ := io.ReadAll(f)
			f.Close()
			if string(data) != n {
				t.Errorf("OpenRead(%q) read %q", p, data)
			}
			w, err := e.sb.OpenWrite(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
			if err != nil {
				t.Errorf("OpenWrite(%q) of an existing file: %v", p, err)
			} else {
				w.Close()
			}
			// Replacing it, moving it away and deleting it all work.
			e.rawFile(t, "dir/plain.txt", "plain")
			if err := e.sb.Fs().Rename("dir/plain.txt", p); err != nil {
				t.Errorf("renaming a file onto %q: %v", p, err)
			}
			if err := e.sb.Fs().Rename(p, "dir/away.txt"); err != nil {
				t.Errorf("renaming %q to a plain name: %v", p, err)
			}
			e.rawFile(t, p, "again")
			if err := e.sb.Fs().Remove(p); err != nil {
				t.Errorf("removing %q: %v", p, err)
			}
		}
	})
}

func TestNewNameMessagesInChinese(t *testing.T) {
	raw := afero.NewMemMapFs()
	sb := NewSandbox(raw, SandboxOptions{Lang: i18n.Chinese})
	err := sb.Fs().Mkdir("a\U000E0041", 0o755)
	wantRefusal(t, "Mkdir", err, InvisibleName, "U+E0041（标签字符）", "第 2 个字符")
}
