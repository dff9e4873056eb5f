package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/toolcall"
)

// progress shows on the terminal what the agent does: each call of a turn
// as its arguments stream in, whether it waits, runs or is done, and what
// it returned. On a terminal (live) the turn is a block of lines, one per
// call, redrawn in place as calls change state; otherwise each change is
// one plain line, written once, such as
//
//	[2] → read_file(path="notes/todo.txt")
//	[2] ✓ buy milk…
//
// Its methods may be called from the calls' goroutines.
type progress struct {
	w    io.Writer
	live bool
	lang i18n.Lang

	mu    sync.Mutex
	board []*boardLine // live: the calls of the turn, in order
	lines int          // live: how many board lines are on screen
}

// boardLine is one call's line of the live block.
type boardLine struct {
	index       int
	mark, call  string
	state, info string
}

// maxShown bounds an argument value on a progress line, and maxLine a
// whole line, so that a live line never wraps on an 80-column terminal
// (the block is redrawn by counting lines).
const (
	maxShown = 40
	maxLine  = 78
)

// callLine is a call as a progress line shows it: its name and its
// top-level arguments so far.
func callLine(c *streamedCall) string {
	var b strings.Builder
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

// line returns the board line of the call at index, adding it.
func (p *progress) line(index int) *boardLine {
	for _, l := range p.board {
		if l.index == index {
			return l
		}
	}
	l := &boardLine{index: index}
	p.board = append(p.board, l)
	return l
}

// set records a call's new state: live, by redrawing the block; plain,
// by writing text as one line.
func (p *progress) set(index int, mark, call, state, info, text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.live {
		if text != "" {
			fmt.Fprintf(p.w, "[%d] %s\n", index+1, text)
		}
		return
	}
	l := p.line(index)
	l.mark, l.state, l.info = mark, state, info
	if call != "" {
		l.call = call
	}
	p.redraw()
}

// redraw writes the block again over its last drawing.
func (p *progress) redraw() {
	var b strings.Builder
	p.erase(&b)
	for _, l := range p.board {
		s := fmt.Sprintf("[%d] %s %s", l.index+1, l.mark, l.call)
		if l.state != "" {
			s += "  " + l.state
		}
		if l.info != "" {
			s += ": " + l.info
		}
		b.WriteString(clip(s, maxLine))
		b.WriteString("\n")
	}
	p.lines = len(p.board)
	io.WriteString(p.w, b.String())
}

// erase moves back to the block's first line and clears to the end of
// the screen.
func (p *progress) erase(b *strings.Builder) {
	if p.lines > 0 {
		fmt.Fprintf(b, "\x1b[%dF", p.lines)
	}
	b.WriteString("\x1b[J")
	p.lines = 0
}

// streaming shows a call whose arguments are arriving (live only).
func (p *progress) streaming(c *streamedCall) {
	if !p.live || c.Name == "" {
		return
	}
	p.set(c.Index, "…", callLine(c), "", "", "")
}

// mismatch shows, as soon as it is seen, an argument that breaks the
// tool's schema.
func (p *progress) mismatch(c *streamedCall, m toolcall.Mismatch) {
	p.note("call %d, %s: %s", c.Index+1, c.Name, m.Message(p.lang))
}

// admitted shows a call whose JSON has closed; waits says whether it has
// to wait for other calls or for the end of the reply.
func (p *progress) admitted(tc *turnCall, waits bool) {
	if waits {
		p.waiting(tc)
		return
	}
	p.set(tc.index, "·", tc.line, "", "", "")
}

// waiting shows a call that waits: for other calls, for the end of the
// reply, or for one of the --parallel slots.
func (p *progress) waiting(tc *turnCall) {
	p.set(tc.index, "·", tc.line, "waiting", "", "· "+tc.line+" waits")
}

// running shows a call that has started.
func (p *progress) running(tc *turnCall) {
	p.set(tc.index, "→", tc.line, "running", "", "→ "+tc.line)
}

// finished shows how a call ended.
func (p *progress) finished(tc *turnCall) {
	mark := "✓"
	if tc.res.IsError || tc.err != nil {
		mark = "✗"
	}
	info := tc.res.Text
	if tc.err != nil {
		info = tc.err.Error()
	}
	took := tc.stop.Sub(tc.start).Round(time.Millisecond).String()
	p.set(tc.index, mark, tc.line, took, clip(info, 60), mark+" "+clip(info, 100))
}

// repeat shows a call that gets an earlier call's answer.
func (p *progress) repeat(tc *turnCall) {
	state := fmt.Sprintf("repeat of [%d]", tc.dupOf.index+1)
	p.set(tc.index, "=", tc.line, state, "", "= "+tc.line+" "+state)
}

// refused shows a call that is not run for its arguments.
func (p *progress) refused(tc *turnCall) {
	p.set(tc.index, "✗", tc.line, "not run", clip(tc.refused, 60), "✗ "+tc.line+": "+clip(tc.refused, 120))
}

// turnDone leaves the turn's block on the screen, finished.
func (p *progress) turnDone() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.board, p.lines = nil, 0
}

// note writes a line about the loop itself, above the live block.
func (p *progress) note(format string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := "· " + fmt.Sprintf(format, a...)
	if !p.live {
		fmt.Fprintln(p.w, line)
		return
	}
	var b strings.Builder
	p.erase(&b)
	b.WriteString(clip(line, 500))
	b.WriteString("\n")
	io.WriteString(p.w, b.String())
	if len(p.board) > 0 {
		p.redraw()
	}
}
