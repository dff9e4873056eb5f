package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/stdiotools/toolserver/server"
)

// callTool runs `toolserver call TOOL key=value ...`: args are the words
// that are not flags, the tool's name first.
func callTool(ctx context.Context, srv *server.Server, args []string, jsonArgs onceFlag, stdout, stderr io.Writer) int {
	if jsonArgs.n > 1 {
		fmt.Fprintln(stderr, "toolserver call: --json given more than once; give all the arguments in one JSON object")
		return exitUsage
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, "toolserver call: name the tool to run, e.g. toolserver call --root . calc expr=1+1 (toolserver tools lists them)")
		return exitUsage
	}
	name, pairs := args[0], args[1:]
	if strings.Contains(name, "=") {
		fmt.Fprintf(stderr, "toolserver call: %q is an argument, not a tool; name the tool first, e.g. toolserver call --root . calc expr=1+1\n", name)
		return exitUsage
	}
	var raw json.RawMessage
	switch {
	case jsonArgs.n > 0 && len(pairs) > 0:
		fmt.Fprintln(stderr, "toolserver call: give the arguments either as --json or as key=value, not both")
		return exitUsage
	case jsonArgs.n > 0:
		raw = json.RawMessage(jsonArgs.value)
		if !json.Valid(raw) {
			fmt.Fprintln(stderr, "toolserver call: --json is not valid JSON")
			return exitUsage
		}
	default:
		var err error
		if raw, err = argsFromPairs(pairs); err != nil {
			fmt.Fprintln(stderr, "toolserver call:", err)
			return exitUsage
		}
	}
	res, err := srv.CallTool(ctx, name, raw)
	if err != nil {
		fmt.Fprintln(stderr, "toolserver call:", err)
		return exitUsage
	}
	out := stdout
	if res.IsError {
		out = stderr
	}
	printContent(out, res.Content)
	if res.IsError {
		return exitToolError
	}
	return exitOK
}

// argsFromPairs builds an arguments object from key=value (a string) and
// key:=JSON (any JSON value) words. A key given more than once becomes a
// list. Strings stay strings: the server's own validation converts "25" to
// 25 where the schema wants a number, exactly as for a model's call.
func argsFromPairs(pairs []string) (json.RawMessage, error) {
	obj := map[string]any{}
	for _, p := range pairs {
		var key string
		var val any
		if k, v, ok := strings.Cut(p, ":="); ok && !strings.Contains(k, "=") {
			key = k
			if err := json.Unmarshal([]byte(v), &val); err != nil {
				return nil, fmt.Errorf("%q: the value after := must be JSON (%v)", p, err)
			}
		} else if k, v, ok := strings.Cut(p, "="); ok {
			key, val = k, v
		} else {
			return nil, fmt.Errorf("%q is not key=value or key:=JSON", p)
		}
		if key == "" {
			return nil, fmt.Errorf("%q has no key before the =", p)
		}
		prev, seen := obj[key]
		switch {
		case !seen:
			obj[key] = val
		case isList(prev):
			obj[key] = append(prev.([]any), val)
		default:
			obj[key] = []any{prev, val}
		}
	}
	return json.Marshal(obj)
}

func isList(v any) bool { _, ok := v.([]any); return ok }

// printContent writes each block of a result: text as it is, other blocks
// as a one-line summary.
func printContent(w io.Writer, content []server.Content) {
	for _, c := range content {
		switch c.Type() {
		case "text":
			text := c.Text()
			fmt.Fprint(w, text)
			if !strings.HasSuffix(text, "\n") {
				fmt.Fprintln(w)
			}
		default:
			fmt.Fprintf(w, "[%s content: %s, %d bytes]\n", c.Type(), c.MIMEType(), len(c.Data()))
		}
	}
}
