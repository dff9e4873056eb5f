package toolcall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchArguments returns about 1 MiB of tool calls as a model sends them:
// an array of OpenAI-style calls whose arguments hold a long string (source
// code with quotes, tabs, newlines and some Chinese) and as many bytes
// again of small values: short strings, numbers, booleans, null.
func benchArguments() []byte {
	var code strings.Builder
	for i := range 8 {
		fmt.Fprintf(&code, "\tif err := run(%q, %d); err != nil { // 第 %d 步\n\t\treturn fmt.Errorf(\"step %%d: %%w\", %d, err)\n\t}\n", "job", i, i, i)
	}
	content, _ := json.Marshal(code.String())
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; b.Len() < 1<<20; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": "call_%d", "type": "function", "function": {"name": "edit_file", "arguments": `+
			`{"path": "src/pkg%d/file_%d.go", "content": %s, "mode": 420, "overwrite": %t, "edits": [`,
			i, i%7, i, content, i%2 == 0)
		for j := range 8 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"line": %d, "col": %d, "old": "x%d", "new": "y%d", "ratio": %g, "ok": %t, "note": null}`,
				i+j, j*4, j, i, float64(i+j)/7, j%3 == 0)
		}
		fmt.Fprintf(&b, `], "tags": ["go", "gen", "v%d"], "size": %d}}}`, i%3, 1000+i)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// BenchmarkParser reads the input whole, in 4 KiB chunks, and in 64-byte
// chunks as a model streams it; its callback only counts the events.
func BenchmarkParser(b *testing.B) {
	in := benchArguments()
	for _, size := range []int{len(in), 4096, 64} {
		name := fmt.Sprintf("chunk=%d", size)
		if size == len(in) {
			name = "whole"
		}
		b.Run(name, func(b *testing.B) {
			events := 0
			p := NewParser(func(Event) { events++ })
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				p.reset()
				for i := 0; i < len(in); i += size {
					if _, err := p.Write(in[i:min(i+size, len(in))]); err != nil {
						b.Fatal(err)
					}
				}
				if err := p.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(events)/float64(b.N), "events/op")
		})
	}
}

func BenchmarkEncodingJSONValid(b *testing.B) {
	in := benchArguments()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if !json.Valid(in) {
			b.Fatal("invalid")
		}
	}
}

// BenchmarkEncodingJSONDecoderToken streams the input through
// json.Decoder.Token, the standard library's streaming reader, with
// numbers kept as json.Number as the Parser keeps them.
func BenchmarkEncodingJSONDecoderToken(b *testing.B) {
	in := benchArguments()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		d := json.NewDecoder(bytes.NewReader(in))
		d.UseNumber()
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkExtract finds two calls in a model's answer: prose, a fenced
// call writing a 4 KiB file, and a bare call after it.
func BenchmarkExtract(b *testing.B) {
	content, _ := json.Marshal(strings.Repeat("func main() { fmt.Println(\"{hi}\") }\n", 110))
	out := "I'll write the file and then list the folder.\n```json\n" +
		`{"name": "write_file", "arguments": {"path": "main.go", "content": ` + string(content) + "}}\n```\n" +
		`{"name": "list_files", "arguments": {"path": "."}}` + "\nThat should do it."
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if r := Extract(out); r.Kind != Calls || len(r.Calls) != 2 {
			b.Fatalf("got %+v", r)
		}
	}
}
