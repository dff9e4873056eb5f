package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// progress shows on the terminal what the agent does: each tool call as
// its arguments stream in, then its outcome. On a terminal (live) the
// call's line is redrawn as it grows; otherwise each call is written once,
// complete.
type progress struct {
	w     io.Writer
	live  bool
	drawn bool // a live line is on screen, without its newline
}

// maxShown bounds an argument value on the progress line.
const maxShown = 40

// callLine is the progress line of a call: its name and its top-level
// arguments so far.
func callLine(c *streamedCall) string {
	var b strings.Builder
	b.WriteString("→ ")
	b.WriteString(c.Name)
	b.WriteString("(")
	for i, a := range c.Shown {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.Key)
		b.WriteString("=")
		v := a.Value
		if !a.Done && !strings.HasSuffix(v, "…") {
			v += "…"
		}
		b.WriteString(clip(v, maxShown))
	}
	b.WriteString(")")
	return b.String()
}

// clip cuts s to n characters, marking the cut, and shows the control
// characters in it as escapes: what a model or a file holds must not
// drive the terminal (an ESC could rewrite the screen).
func clip(s string, n int) string {
	cut := utf8.RuneCountInString(s) > n
	var b strings.Builder
	count := 0
	for _, r := range s {
		if cut && count == n-1 {
			b.WriteString("…")
			break
		}
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
		count++
	}
	return b.String()
}

// streaming redraws the line of a call whose arguments are arriving.
func (p *progress) streaming(c *streamedCall) {
	if !p.live || c.Name == "" {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", callLine(c))
	p.drawn = true
}

// calling writes the complete line of a call about to run.
func (p *progress) calling(c *streamedCall) {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
	fmt.Fprintln(p.w, callLine(c))
}

// result writes how a call ended.
func (p *progress) result(r mcpResult) {
	mark := "  ✓ "
	if r.IsError {
		mark = "  ✗ "
	}
	fmt.Fprintln(p.w, mark+clip(r.Text, 100))
}

// note writes a line about the loop itself.
func (p *progress) note(format string, a ...any) {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
	fmt.Fprintf(p.w, "· "+format+"\n", a...)
}
