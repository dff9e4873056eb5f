package fs

import (
	"strings"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/internal/jsonwire"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// Names are data, never text the model takes as structure. A file name
// may hold line breaks, ANSI escapes, bidirectional overrides or bytes
// that are not UTF-8; every name or path a tool writes into the text the
// model reads goes through displayName, which escapes it the one way
// security.EscapeName documents (\u{X} for a character, \x{XX} for a byte
// that is not UTF-8, \u{5C} for a backslash), and a line that shows an
// escaped name ends in escapedMark, explained once by escapedNote.
// Structured content carries the exact names, and the path tools accept
// the escaped form back.

// escapedMark ends a line of a listing whose name (or, for grep, text)
// holds escapes.
const escapedMark = "  [escaped]"

// escapedNote explains escapedMark, in lang; it follows a listing that
// uses it.
func escapedNote(lang i18n.Lang) string {
	return say(msgEscapedNote, say(msgEscapeRule)).In(lang)
}

// displayName returns the name or root-relative path s as the model is
// shown it, and whether anything in it was escaped.
func displayName(s string) (string, bool) { return security.EscapeName(s) }

// displayText returns a line of a file's text as grep shows it: control,
// format and separator characters escaped, tabs and backslashes kept.
func displayText(s string) (string, bool) { return security.EscapeText(s) }

// needsEscape reports whether displayName changes s.
func needsEscape(s string) bool {
	_, escaped := displayName(s)
	return escaped
}

// pathArg returns the root-relative path rel, which may hold any
// character a name can, in the form Sandbox.OpenRead and
// Sandbox.OpenWrite resolve back to rel.
func pathArg(rel string) string {
	s, _ := security.EscapeName(rel)
	return s
}

// Content returns the description as JSON text, as for any result; when
// escaped is set, path and link_target are escaped by displayName and the
// note says how to read them.
func (f FileInfo) Content() []server.Content {
	if f.Escaped {
		f.Path, _ = displayName(f.Path)
		f.LinkTarget, _ = displayName(f.LinkTarget)
		f.Note = strings.TrimSpace(say(msgPathEscaped, say(msgEscapeRule)).In(f.lang) + " " + f.Note)
	}
	b, err := jsonwire.Marshal(f)
	if err != nil {
		return []server.Content{server.TextContent(say(msgInfoNotJSON).In(f.lang))}
	}
	return []server.Content{server.TextContent(string(b))}
}
