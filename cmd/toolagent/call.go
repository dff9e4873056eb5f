package main

import (
	"errors"
	"strings"

	"github.com/stdiotools/toolserver/toolcall"
)

// errTwoValues is arguments holding more than one JSON value.
var errTwoValues = errors.New("the arguments hold more than one JSON value")

// streamedCall is a tool call as it streams in: its name, its id, and its
// arguments, which an incremental parser reads piece by piece so that
// progress can be shown before the call is complete, and an argument text
// cut off by the end of the stream is known for what it is.
type streamedCall struct {
	ID, Name string
	// Index is the call's place in the reply, from 0.
	Index  int
	args   strings.Builder
	parser *toolcall.Parser
	err    error // the arguments are not JSON, or not complete
	values int   // top-level values seen: more than one is not an argument object
	// whole is set when the first top-level value of the arguments has
	// closed: the call is complete, whatever the rest of the stream does.
	whole    bool
	wholeLen int64 // the bytes of the arguments up to the end of that value
	// watch, when set, sees every event of the arguments, after the call
	// has recorded it (a schema check follows the call this way).
	watch func(toolcall.Event)
	// Shown holds the top-level arguments known so far, in order, each as
	// its raw value or, while it streams, its text so far.
	Shown []shownArg
}

// shownArg is one argument for the progress line.
type shownArg struct {
	Key, Value string
	Done       bool
}

func newStreamedCall() *streamedCall {
	c := &streamedCall{}
	c.parser = toolcall.NewParser(c.event)
	return c
}

// event records the top-level arguments as the parser reports them.
func (c *streamedCall) event(e toolcall.Event) {
	if e.Path == "" && (e.Kind == toolcall.Begin || e.Kind == toolcall.Value) {
		c.values++
	}
	if c.values == 1 && e.Path == "" && (e.Kind == toolcall.End || e.Kind == toolcall.Value) {
		c.whole, c.wholeLen = true, e.Offset+int64(len(e.Value))
	}
	if c.watch != nil && c.values == 1 {
		c.watch(e)
	}
	if e.Path == "" || strings.Count(e.Path, "/") != 1 {
		return
	}
	key := strings.ReplaceAll(strings.ReplaceAll(e.Path[1:], "~1", "/"), "~0", "~")
	var arg *shownArg
	if n := len(c.Shown); n > 0 && c.Shown[n-1].Key == key {
		arg = &c.Shown[n-1]
	} else {
		c.Shown = append(c.Shown, shownArg{Key: key})
		arg = &c.Shown[len(c.Shown)-1]
	}
	switch e.Kind {
	case toolcall.Value:
		arg.Value, arg.Done = string(e.Value), true
	case toolcall.Partial:
		// A partial string is decoded text; quote it as it will be.
		arg.Value = string(e.Value)
		if e.Quoted {
			arg.Value = `"` + arg.Value
		}
	case toolcall.Begin:
		arg.Value = string(e.Value) + "…"
	case toolcall.End:
		arg.Done = true
	}
}

// add appends one delta of the call.
func (c *streamedCall) add(id, name, args string) {
	if id != "" {
		c.ID = id
	}
	// The name comes whole in the first delta; some providers repeat it
	// in every delta, and a few cut it into pieces.
	if name != c.Name {
		c.Name += name
	}
	if args == "" {
		return
	}
	c.args.WriteString(args)
	if c.err == nil {
		if _, err := c.parser.Write([]byte(args)); err != nil {
			c.err = err
		}
	}
}

// close ends the arguments: an unfinished value is an error.
func (c *streamedCall) close() {
	if c.err == nil && c.args.Len() > 0 {
		c.err = c.parser.Close()
	}
	if c.err == nil && c.values > 1 {
		c.err = errTwoValues
	}
}

// WholeArguments returns the arguments up to the end of their first JSON
// value, once it has closed: what the call runs with, even if the stream
// then sends more.
func (c *streamedCall) WholeArguments() string {
	if !c.whole {
		return c.Arguments()
	}
	return c.args.String()[:c.wholeLen]
}

// Arguments returns the arguments as sent, "{}" when none were.
func (c *streamedCall) Arguments() string {
	if strings.TrimSpace(c.args.String()) == "" {
		return "{}"
	}
	return c.args.String()
}
