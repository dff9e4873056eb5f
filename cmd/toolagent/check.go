package main

import (
	"errors"
	"strconv"
	"strings"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/toolcall"
)

// follow attaches to a call, once its tool's name is known, the check of
// its arguments against the tool's input schema while they stream: a
// mismatch is shown as soon as the stream shows it.
func (a *agent) follow(c *streamedCall) {
	s := a.schemas[c.Name]
	if s == nil {
		c.watch = func(toolcall.Event) {} // followed: no schema to check against
		return
	}
	c.watch = s.NewChecker(func(m toolcall.Mismatch) { a.show.mismatch(c, m) }).Event
}

// checkArguments checks a call's whole arguments against its tool's
// schema, the moment its JSON closes, and returns the answer the model
// reads instead of the call's result when they do not match, or "". With
// --check warn the mismatch was shown while the call streamed, and the
// call runs: the server decides (toolserver, for one, turns "25" into 25
// where an integer is wanted).
func (a *agent) checkArguments(name, args string) string {
	s := a.schemas[name]
	if s == nil || a.warnOnly {
		return ""
	}
	ms, err := s.Check([]byte(args))
	if err != nil || len(ms) == 0 {
		return "" // what is not one JSON value the server refuses in its words
	}
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.Message(a.lang)
	}
	return a.msg(msgBadArguments, name, strings.Join(parts, i18n.Pick(a.lang, " ", "")))
}

// isSafe reports whether a tool may run in parallel with others and
// before the model's reply ends.
func (a *agent) isSafe(name string) bool { return a.safe[name] }

// maxParsedShown bounds the arguments of a cut-off call quoted back to the
// model.
const maxParsedShown = 300

// troubleNotice tells the model which of its calls did not run, and why,
// and asks for them again: first what happened and what to do, then what
// arrived of a cut-off call. answered says whether other calls of the
// reply were answered; without them, the model must not be told they were.
func (a *agent) troubleNotice(troubles []trouble, answered bool) string {
	var b strings.Builder
	for _, tr := range troubles {
		c := tr.call
		n := strconv.Itoa(c.Index + 1) // the call's number, from 1
		var syn *toolcall.SyntaxError
		var inc *toolcall.IncompleteError
		soFar := ""
		switch {
		case tr.text:
			soFar = a.textNotice(&b, c)
		case c.Name == "":
			b.WriteString(a.msg(msgNoName, n))
		case errors.As(c.err, &syn):
			b.WriteString(a.msg(msgBadJSON, n, c.Name, strconv.FormatInt(syn.Offset, 10)))
		case strings.TrimSpace(c.args.String()) == "":
			b.WriteString(a.msg(msgCutNothing, n, c.Name))
		default:
			at := a.msg(msgTopLevel)
			if errors.As(c.err, &inc) && inc.Path != "" {
				at = inc.Path
			}
			b.WriteString(a.msg(msgCut, n, c.Name, at))
			soFar = a.msg(msgSoFar, clip(c.args.String(), maxParsedShown))
		}
		// Only the call the reply ended in had calls meant to follow it
		// that never came; those after a call in the middle were answered.
		if tr.last {
			b.WriteString(a.msg(msgSendAgainLast))
		} else {
			b.WriteString(a.msg(msgSendAgain))
		}
		b.WriteString(soFar)
		b.WriteString("\n")
	}
	if answered {
		b.WriteString(a.msg(msgOthersAnswered))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// textNotice writes what happened to a call written in the text, and
// returns what arrived of it, to quote after the request to send it again.
func (a *agent) textNotice(b *strings.Builder, c *streamedCall) string {
	n := strconv.Itoa(c.Index + 1) // the call's number, from 1
	var syn *toolcall.SyntaxError
	var inc *toolcall.IncompleteError
	switch {
	case errors.As(c.err, &inc):
		at := a.msg(msgTopLevel)
		if inc.Path != "" {
			at = inc.Path
		}
		if c.Name != "" {
			b.WriteString(a.msg(msgCut, n, c.Name, at))
		} else {
			b.WriteString(a.msg(msgCutUnnamed, n, at))
		}
		return a.msg(msgSoFarText, clip(c.args.String(), maxParsedShown))
	case errors.As(c.err, &syn):
		b.WriteString(a.msg(msgTextBadJSON, n, strconv.FormatInt(syn.Offset, 10)))
	default:
		b.WriteString(a.msg(msgTextNotACall, n))
	}
	return ""
}
