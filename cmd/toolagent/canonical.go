package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// canonical writes a call's arguments so that two ways of writing the same
// value compare equal, for running identical calls once: members sorted
// by key, no spaces, strings with their escapes resolved ("\u0041" is
// "A").
//
// Merging two calls that differ would give one of them a wrong answer,
// while running two that are the same only costs time, so where servers
// may read two spellings apart they stay apart:
//
//   - numbers stay as written: 1, 1.0 and 1e0 are one number to JSON
//     Schema, but a server may keep a decimal's scale, read a float, or
//     echo the text;
//   - text in which a string does not decode to itself (a lone UTF-16
//     surrogate escape such as "\ud800", bytes that are not UTF-8) is
//     compared as written: decoding turns each of those into U+FFFD,
//     which would make different strings equal;
//   - text that is not one JSON value is compared as written.
//
// No canonical form equals text kept as written: the encoder writes valid
// UTF-8 and never a surrogate escape.
func canonical(s string) string {
	if !utf8.ValidString(s) || hasLoneSurrogate(s) {
		return s
	}
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return s
	}
	if _, err := d.Token(); err != io.EOF {
		return s // more than one value: "000" is not the number 0
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if e.Encode(v) != nil {
		return s
	}
	return strings.TrimSpace(b.String())
}

// hasLoneSurrogate reports whether JSON text s escapes a UTF-16 surrogate
// that is not half of a pair ("\ud83d\ude00" is one character, "\ud800"
// alone is none). A backslash only occurs in a string, where it starts an
// escape, so s needs no other parsing.
func hasLoneSurrogate(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		r, ok := escapedUnit(s, i)
		if !ok {
			i++ // a two-byte escape such as \\ or \"
			continue
		}
		i += 5
		switch {
		case r >= 0xdc00 && r <= 0xdfff:
			return true // a low half with no high half before it
		case r >= 0xd800 && r <= 0xdbff:
			low, ok := escapedUnit(s, i+1)
			if !ok || low < 0xdc00 || low > 0xdfff {
				return true
			}
			i += 6
		}
	}
	return false
}

// escapedUnit reads the \uXXXX escape at s[i:], if there is one.
func escapedUnit(s string, i int) (rune, bool) {
	if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return 0, false
	}
	u, err := strconv.ParseUint(s[i+2:i+6], 16, 16)
	return rune(u), err == nil
}
