package security

import (
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// # New names
//
// The rule, as one sentence: a new name (a file or directory being
// created, or the destination of a move, copy or rename that does not
// exist yet) is refused when it contains an invisible or reserved code
// point (see refusedIn), when it is not in Unicode Normalization Form C,
// or when, after canonical caseless matching, it equals the name of an
// entry already in the same directory while differing from it. Names that
// already exist are never refused by this rule: they stay readable,
// listable, writable, movable and deletable, only new ones are checked.
//
// Every table comes from Unicode's data as Go ships it (package unicode,
// Unicode 15.0.0 in Go 1.26, and golang.org/x/text for normalization and
// case folding); the one hand list is the fillers, which no property
// collects.

// nameClass says why a code point is refused in a new name; nameOK means
// it is not.
type nameClass uint8

// The classes, in the order refusedIn tries them, so that a code point is
// reported by its most telling class.
const (
	nameOK nameClass = iota
	nameTag
	nameVariationSelector
	nameFiller
	nameDefaultIgnorable
	nameFormat
	nameNoncharacter
	namePrivateUse
)

// nameClassKeys are the stable keys of the classes, carried in a
// PathError's argument and turned into words by nameClassPhrase.
var nameClassKeys = [...]string{
	nameOK:                "",
	nameTag:               "tag",
	nameVariationSelector: "variation_selector",
	nameFiller:            "filler",
	nameDefaultIgnorable:  "default_ignorable",
	nameFormat:            "format",
	nameNoncharacter:      "noncharacter",
	namePrivateUse:        "private_use",
}

// The Tags block (Blocks.txt: E0000..E007F Tags). Every code point in it is
// a format character or default-ignorable already; the range only lets
// the error call them by their name.
const (
	tagFirst = 0xE0000
	tagLast  = 0xE007F
)

// isFiller reports whether r is a filler: a character that is meant to
// look like nothing, used to pad or to stand for a missing part. The four
// Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) are default-ignorable
// already (Other_Default_Ignorable_Code_Point) and are listed only to be
// named as fillers; U+2800 BRAILLE PATTERN BLANK is an ordinary symbol
// (So) that renders as blank space. No Unicode property collects these,
// so this is the one short hand list of the policy.
func isFiller(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800:
		return true
	}
	return false
}

// isDefaultIgnorable reports whether r has the Unicode property
// Default_Ignorable_Code_Point. Go's unicode package has no table for it,
// so it is derived from the tables Go does ship, exactly as Unicode's
// DerivedCoreProperties.txt derives it:
//
//	  Other_Default_Ignorable_Code_Point
//	+ Cf (Format characters)
//	+ Variation_Selector
//	- White_Space
//	- FFF9..FFFB (Interlinear annotation format characters)
//	- 13430..1343F (Egyptian hieroglyph format characters)
//	- Prepended_Concatenation_Mark (Exceptional format characters that should be visible)
//
// With Go's Unicode 15.0.0 tables this gives the 4,174 code points
// DerivedCoreProperties-15.0.0.txt lists (a test checks the ranges).
func isDefaultIgnorable(r rune) bool {
	if !unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) &&
		!unicode.Is(unicode.Cf, r) && !unicode.Is(unicode.Variation_Selector, r) {
		return false
	}
	switch {
	case unicode.Is(unicode.White_Space, r),
		r >= 0xFFF9 && r <= 0xFFFB,
		r >= 0x13430 && r <= 0x1343F,
		unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return false
	}
	return true
}

// refusedIn returns why the code point r may not appear in a new name, or
// nameOK. It refuses:
//
//   - default-ignorable code points (Default_Ignorable_Code_Point), which
//     render as nothing: zero-width joiners and spaces, soft hyphen,
//     combining grapheme joiner, bidirectional and other format controls,
//     variation selectors, the tag characters and the unassigned code
//     points Unicode reserves as default-ignorable;
//   - every other format character (General_Category Cf), among them
//     the interlinear annotation characters U+FFF9–U+FFFB;
//   - noncharacters (Noncharacter_Code_Point: U+FDD0–U+FDEF and the last
//     two code points of every plane);
//   - private-use characters (General_Category Co: U+E000–U+F8FF and
//     planes 15 and 16), whose look no one can know;
//   - the fillers (isFiller).
//
// Control characters are not listed: Resolve refuses them in every path.
func refusedIn(r rune) nameClass {
	if r < 0xAD { // below SOFT HYPHEN, the first refused code point
		return nameOK
	}
	switch {
	case r >= tagFirst && r <= tagLast:
		return nameTag
	case unicode.Is(unicode.Variation_Selector, r):
		return nameVariationSelector
	case isFiller(r):
		return nameFiller
	case isDefaultIgnorable(r):
		return nameDefaultIgnorable
	case unicode.Is(unicode.Cf, r):
		return nameFormat
	case unicode.Is(unicode.Noncharacter_Code_Point, r):
		return nameNoncharacter
	case unicode.Is(unicode.Co, r):
		return namePrivateUse
	}
	return nameOK
}

// badRune returns the first code point of name that refusedIn refuses,
// with its class and its position in name counted in characters from 1,
// or nameOK.
func badRune(name string) (r rune, class nameClass, pos int) {
	for _, r := range name {
		pos++
		if c := refusedIn(r); c != nameOK {
			return r, c, pos
		}
	}
	return 0, nameOK, 0
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// foldKey returns the key under which two names are confusable: Unicode's
// canonical caseless matching (definition D145 of the Unicode standard,
// chapter 3.13), NFD(toCasefold(NFD(s))), with full case folding (the C
// and F mappings of CaseFolding.txt, as golang.org/x/text/cases.Fold
// applies them, so "Straße" and "STRASSE" match). Two names with the same
// key differ only in case or in canonically equivalent sequences such as
// "é" and "e" + U+0301.
//
// An ASCII name's key is its lower case: NFD leaves ASCII alone, and full
// case folding of ASCII is lowering.
func foldKey(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	// A Caser keeps state, so each call makes its own.
	return norm.NFD.String(cases.Fold().String(norm.NFD.String(s)))
}

// asciiKeyEqual reports whether the ASCII string s has the key key,
// without allocating.
func asciiKeyEqual(s, key string) bool {
	if len(s) != len(key) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != key[i] {
			return false
		}
	}
	return true
}

// readdirChunk is how many names confusableSibling reads at a time, so
// that checking a name costs the same memory in a folder of a million
// entries as in one of ten.
const readdirChunk = 256

// confusableSibling returns the name of an entry of the directory dir
// that has the same foldKey as name but is neither name nor except (the
// source of a rename, which may change only the case of a name). It
// returns "" if there is none, and also if the directory cannot be read:
// the create that follows then fails on its own, or, for a directory that
// may be written but not read, goes ahead unchecked.
func (g *guardFs) confusableSibling(dir, name, except string) string {
	f, err := g.Fs.Open(dir)
	if err != nil {
		return ""
	}
	defer f.Close()
	key := foldKey(name)
	keyASCII := isASCII(key)
	chunk := readdirChunk
	if _, ok := f.(*rootFile); !ok {
		// afero's MemMapFs panics (and then deadlocks) when a directory
		// shrinks between two chunks of one read, so other file systems,
		// which hold their directories in memory anyway, are read at once.
		chunk = -1
	}
	for {
		names, err := f.Readdirnames(chunk)
		for _, n := range names {
			if n == name || n == except {
				continue
			}
			if isASCII(n) {
				if keyASCII && asciiKeyEqual(n, key) {
					return n
				}
				continue
			}
			if foldKey(n) == key {
				return n
			}
		}
		if err != nil || len(names) == 0 || chunk < 0 {
			return "" // io.EOF, or a directory that cannot be read
		}
	}
}

// checkNewName applies the rule for new names to rel, a clean
// root-relative path whose last element is about to be created, and
// returns the *PathError refusing it, or nil. except is the source of a
// rename ("" otherwise): a name may become another that differs from it
// only in case. op names the operation in the error.
//
// It does not look whether rel exists; the caller does, since an
// existing name is never refused.
func (g *guardFs) checkNewName(op, rel, except string) error {
	dir, name := path.Dir(rel), path.Base(rel)
	s := g.s
	if r, class, pos := badRune(name); class != nameOK {
		return &PathError{Op: op, Path: rel, Reason: InvisibleName, lang: s.lang, msg: msgNameInvisible,
			a1: "U+" + hex4(r) + listSep + nameClassKeys[class], a2: strconv.Itoa(pos)}
	}
	if !norm.NFC.IsNormalString(name) {
		return &PathError{Op: op, Path: rel, Reason: NotNormalized, lang: s.lang, msg: msgNameNotNFC,
			a1: joinDir(dir, norm.NFC.String(name))}
	}
	exceptName := ""
	if except != "" && path.Dir(except) == dir {
		exceptName = path.Base(except)
	}
	if other := g.confusableSibling(dir, name, exceptName); other != "" {
		return &PathError{Op: op, Path: rel, Reason: Confusable, lang: s.lang, msg: msgNameConfusable,
			a1: joinDir(dir, other)}
	}
	return nil
}

// joinDir joins a root-relative directory ("." for the root) and a name.
func joinDir(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// hex4 writes r in upper-case hexadecimal, at least four digits, as in
// "U+200D".
func hex4(r rune) string {
	h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	for len(h) < 4 {
		h = "0" + h
	}
	return h
}
