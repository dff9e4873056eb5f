package toolcall_test

import (
	"fmt"
	"log"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/toolcall"
)

func Example() {
	out := "I'll read both files.\n" +
		"```json\n" +
		`[{"name": "read_file", "arguments": {"path": "a.txt", "offset": 12345678901234567890}},` + "\n" +
		` {"type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \"b.txt\"}"}}]` + "\n" +
		"```"
	r := toolcall.Extract(out)
	fmt.Println(r.Kind, "-", r.Text)
	for _, c := range r.Calls {
		fmt.Println(c.Name, string(c.Arguments))
	}

	r = toolcall.Extract(`Checking. {"name": "read_file", "argum`)
	fmt.Println(r.Kind, "-", r.Reason)

	r = toolcall.Extract("Use {name} as a placeholder.")
	fmt.Println(r.Kind, "-", r.Text)
	// Output:
	// calls - I'll read both files.
	// read_file {"path":"a.txt","offset":12345678901234567890}
	// read_file {"path":"b.txt"}
	// incomplete - the JSON object starting at byte 10 ends before it is closed
	// final - Use {name} as a placeholder.
}

func ExampleParser() {
	// A call's arguments as a model streams them.
	chunks := []string{`{"path": "notes.t`, `xt", "content": "Hel`, `lo, wor`, `ld\n"}`}
	p := toolcall.NewParser(func(e toolcall.Event) {
		switch e.Kind {
		case toolcall.Partial:
			fmt.Printf("reading %s=%s...\n", e.Path, e.Value)
		case toolcall.Value:
			fmt.Printf("got %s=%s\n", e.Path, e.Value)
		}
	})
	for _, c := range chunks {
		if _, err := p.Write([]byte(c)); err != nil {
			log.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		log.Fatal(err)
	}

	// A stream that stops early says where.
	p = toolcall.NewParser(nil)
	if _, err := p.Write([]byte(`{"path": "a.txt", "lines": [1, 2`)); err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Close())
	// Output:
	// reading /path=notes.t...
	// got /path="notes.txt"
	// reading /content=Hel...
	// reading /content=Hello, wor...
	// got /content="Hello, world\n"
	// toolcall: JSON stream ended at byte 32 inside the value at "/lines/1"
}

func ExampleChecker() {
	// The tool's inputSchema, as tools/list gives it.
	schema, err := toolcall.CompileSchema([]byte(`{"type": "object",
		"properties": {"path": {"type": "string"}, "head": {"type": "integer", "minimum": 1}},
		"required": ["path"], "additionalProperties": false}`))
	if err != nil {
		log.Fatal(err)
	}
	// A call's arguments as a model streams them: the mismatch is known
	// at the quote that opens "ten", long before the call ends.
	chunks := []string{`{"head": "t`, `en", "pat`, `h": "a.txt"}`}
	written := 0
	c := schema.NewChecker(func(m toolcall.Mismatch) {
		fmt.Printf("after %d bytes: %s\n", written, m.Message(i18n.English))
	})
	p := toolcall.NewParser(c.Event)
	for _, chunk := range chunks {
		written += len(chunk)
		if _, err := p.Write([]byte(chunk)); err != nil {
			log.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		log.Fatal(err)
	}

	// The whole arguments, checked at once.
	ms, err := schema.Check([]byte(`{"head": 0, "limit": 5}`))
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range ms {
		fmt.Println(m)
	}
	// Output:
	// after 11 bytes: /head: a string was given where an integer is required.
	// /head: 0 is below the minimum 1.
	// /limit: this argument is not known; the known ones are: head, path.
	// /path: this argument is required but missing.
}
