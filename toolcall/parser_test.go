package toolcall

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// record parses the chunks in order and returns every event as
// "kind path value @offset", with the errors of Write and Close.
func record(chunks ...string) (events []string, writeErr, closeErr error) {
	p := NewParser(func(e Event) {
		events = append(events, fmt.Sprintf("%s %s %s @%d", e.Kind, e.Path, e.Value, e.Offset))
	})
	for _, c := range chunks {
		if _, err := p.Write([]byte(c)); err != nil {
			return events, err, p.Close()
		}
	}
	return events, nil, p.Close()
}

func TestParserEvents(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []string
	}{
		{
			name:   "an object reports its members with their paths",
			chunks: []string{`{"args":{"path":"a.txt","head":10},"ok":true}`},
			want: []string{
				"begin  { @0", `key /args "args" @1`, "begin /args { @8",
				`key /args/path "path" @9`, `value /args/path "a.txt" @16`,
				`key /args/head "head" @24`, "value /args/head 10 @31",
				"end /args } @33", `key /ok "ok" @35`, "value /ok true @40", "end  } @44",
			},
		},
		{
			name:   "array elements are numbered from zero and empty containers still begin and end",
			chunks: []string{`[null, [], {}, -0.5e+3]`},
			want: []string{
				"begin  [ @0", "value /0 null @1", "begin /1 [ @7", "end /1 ] @8",
				"begin /2 { @11", "end /2 } @12", "value /3 -0.5e+3 @15", "end  ] @22",
			},
		},
		{
			name:   "keys with slash and tilde are escaped as in a JSON pointer",
			chunks: []string{`{"a/b":{"~x":1}}`},
			want: []string{
				"begin  { @0", `key /a~1b "a/b" @1`, "begin /a~1b { @7",
				`key /a~1b/~0x "~x" @8`, "value /a~1b/~0x 1 @13", "end /a~1b } @14", "end  } @15",
			},
		},
		{
			name:   "keys with escapes are decoded in the path",
			chunks: []string{`{"\u0061\n":0}`},
			want:   []string{"begin  { @0", `key /a` + "\n" + ` "\u0061\n" @1`, "value /a\n 0 @12", "end  } @13"},
		},
		{
			name:   "a string split inside an escape resumes and reports what it decoded so far",
			chunks: []string{`{"path":"no`, `tes\`, `"x\u00`, `e9.t`, `xt"}`},
			want: []string{
				"begin  { @0", `key /path "path" @1`,
				"partial /path no @8", "partial /path notes @8", `partial /path notes"x @8`,
				`partial /path notes"xé.t @8`, `value /path "notes\"x\u00e9.txt" @8`, "end  } @28",
			},
		},
		{
			name:   "a surrogate pair split between its halves decodes to one character",
			chunks: []string{`["\ud83d`, `\ude00!`, `"]`},
			want:   []string{"begin  [ @0", "partial /0  @1", "partial /0 😀! @1", `value /0 "\ud83d\ude00!" @1`, "end  ] @16"},
		},
		{
			name:   "a multi-byte character split between chunks is held back until whole",
			chunks: []string{"[\"\xe4\xbd", "\xa0\xe5\xa5\xbd", "\"]"},
			want:   []string{"begin  [ @0", "partial /0  @1", "partial /0 你好 @1", "value /0 \"你好\" @1", "end  ] @9"},
		},
		{
			name:   "a number split between chunks is reported whole",
			chunks: []string{`{"n":123`, `45678901234567890`, `}`},
			want: []string{
				"begin  { @0", `key /n "n" @1`, "partial /n 123 @5", "partial /n 12345678901234567890 @5",
				"value /n 12345678901234567890 @5", "end  } @25",
			},
		},
		{
			name:   "literals split between chunks are reported whole",
			chunks: []string{`[tr`, `ue,fa`, `lse,n`, `ull]`},
			want:   []string{"begin  [ @0", "value /0 true @1", "value /1 false @6", "value /2 null @12", "end  ] @16"},
		},
		{
			name:   "a stream of top-level values starts afresh after each",
			chunks: []string{"{\"a\":1}{\"b\":2}\n[3] \"x\"\t4\r\n"},
			want: []string{
				"begin  { @0", `key /a "a" @1`, "value /a 1 @5", "end  } @6",
				"begin  { @7", `key /b "b" @8`, "value /b 2 @12", "end  } @13",
				"begin  [ @15", "value /0 3 @16", "end  ] @17", `value  "x" @19`, "value  4 @23",
			},
		},
		{
			name:   "a number at the very end of the stream is complete at Close",
			chunks: []string{"-1", "2.5E-7"},
			want:   []string{"partial  -1 @0", "partial  -12.5E-7 @0", "value  -12.5E-7 @0"},
		},
		{
			name:   "invalid UTF-8 and lone surrogates are accepted as encoding/json accepts them",
			chunks: []string{"[\"\xff\",\"\\udc00\"]"},
			want:   []string{"begin  [ @0", "value /0 \"\xff\" @1", `value /1 "\udc00" @5`, "end  ] @13"},
		},
		{
			name:   "whitespace alone is an empty stream",
			chunks: []string{" \t\r\n"},
			want:   nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, werr, cerr := record(tt.chunks...)
			if werr != nil || cerr != nil {
				t.Fatalf("errors: Write %v, Close %v", werr, cerr)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestParserSyntaxErrors(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		offset int64
		msg    string
	}{
		{"a single quote is refused where a value starts", `{"a":'x'}`, 5, `invalid character '\'' looking for beginning of value`},
		{"a single-quoted key is refused", `{'a':1}`, 1, "looking for beginning of object key string"},
		{"a leading zero ends the number, and the next digit is out of place", `[01]`, 2, "invalid character '1' after array element"},
		{"a trailing comma in an object is refused at the brace", `{"a":1,}`, 7, "invalid character '}' looking for beginning of object key string"},
		{"a trailing comma in an array is refused at the bracket", `[1,]`, 3, "invalid character ']' looking for beginning of value"},
		{"a missing colon is refused at the value", `{"a" 1}`, 5, "invalid character '1' after object key"},
		{"a missing comma is refused at the next member", `{"a":1 "b":2}`, 7, "after object key:value pair"},
		{"a control character in a string is refused", "[\"a\x01\"]", 3, `invalid character '\x01' in string literal`},
		{"a raw newline in a string is refused", "\"a\nb\"", 2, `invalid character '\n' in string literal`},
		{"an unknown escape is refused", `"\x41"`, 2, "invalid character 'x' in string escape code"},
		{"a \\u escape with a non-hex digit is refused", `"\u12g4"`, 5, `invalid character 'g' in \u hexadecimal character escape`},
		{"a plus sign cannot start a number", `+1`, 0, "looking for beginning of value"},
		{"a fraction needs a digit before the point", `.5`, 0, "looking for beginning of value"},
		{"a fraction needs a digit after the point", `[1.]`, 3, "after decimal point in numeric literal"},
		{"a minus sign needs a digit", `[-]`, 2, "invalid character ']' in numeric literal"},
		{"an exponent needs a digit", `[1e+]`, 4, "in exponent of numeric literal"},
		{"a misspelt literal is refused at the first wrong byte", `[tru e]`, 4, "invalid character ' ' in literal true (expecting 'e')"},
		{"a mismatched closing bracket is refused", `{"a":1]`, 6, "after object key:value pair"},
		{"a top-level scalar must be followed by whitespace", `1x`, 1, "invalid character 'x' after top-level value"},
		{"two glued top-level strings are refused", `"a""b"`, 3, "after top-level value"},
		{"nesting deeper than encoding/json allows is refused", strings.Repeat("[", maxDepth+1), maxDepth, "exceeded max depth"},
		{"a byte-order mark is not JSON", "\ufeff{}", 0, "looking for beginning of value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, size := range []int{len(tt.input), 1} {
				p := NewParser(nil)
				var err error
				written := 0
				for i := 0; i < len(tt.input) && err == nil; i += size {
					var n int
					n, err = p.Write([]byte(tt.input[i:min(i+size, len(tt.input))]))
					written += n
				}
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("chunks of %d: got %v, want a *SyntaxError", size, err)
				}
				if se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) || int64(written) != tt.offset {
					t.Errorf("chunks of %d: got %q at %d after writing %d, want %q at %d", size, se.Msg, se.Offset, written, tt.msg, tt.offset)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("byte %d", tt.offset)) {
					t.Errorf("Error() %q does not name the offset", err)
				}
				if n, again := p.Write([]byte("[]")); n != 0 || again != err {
					t.Errorf("Write after the error = %d, %v; want 0 and the same error", n, again)
				}
				if cerr := p.Close(); cerr != err {
					t.Errorf("Close after the error = %v, want the same error", cerr)
				}
			}
		})
	}
}

func TestParserCloseIncomplete(t *testing.T) {
	tests := []struct {
		name  string
		input string
		path  string
	}{
		{"a stream cut after a key's colon stops at that member", `{"a":`, "/a"},
		{"a stream cut inside a string stops at the string", `{"args":{"path":"no`, "/args/path"},
		{"a stream cut after an array's comma stops at the next element", `[1,`, "/1"},
		{"a stream cut after an object's comma stops at the object", `{"a":{"b":1,`, "/a"},
		{"a stream cut inside a literal deep down stops there", `{"a":{"b":[tr`, "/a/b/0"},
		{"a stream cut inside a key stops at its object", `{"a":{"ke`, "/a"},
		{"a stream cut inside an escape stops at the string", `["\u00`, "/0"},
		{"a top-level number without digits is incomplete", `-`, ""},
		{"a top-level number ending in a point is incomplete", `1.`, ""},
		{"a number inside an array is incomplete without the bracket", `[12`, "/0"},
		{"an empty array cut before its bracket stops at the first element", `[`, "/0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, werr, cerr := record(tt.input)
			if werr != nil {
				t.Fatalf("Write: %v", werr)
			}
			var ie *IncompleteError
			if !errors.As(cerr, &ie) {
				t.Fatalf("Close = %v, want an *IncompleteError", cerr)
			}
			if ie.Path != tt.path || ie.Offset != int64(len(tt.input)) {
				t.Errorf("got path %q offset %d, want %q and %d", ie.Path, ie.Offset, tt.path, len(tt.input))
			}
			if want := fmt.Sprintf("byte %d", len(tt.input)); !strings.Contains(ie.Error(), want) {
				t.Errorf("Error() %q does not say %q", ie.Error(), want)
			}
		})
	}
}

func TestParserWriteAfterCloseFails(t *testing.T) {
	p := NewParser(nil)
	if err := p.Close(); err != nil {
		t.Fatalf("Close of an empty stream: %v", err)
	}
	if _, err := p.Write([]byte("1")); err == nil {
		t.Error("Write after Close succeeded")
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close = %v, want nil again", err)
	}
}

func TestTheZeroParserChecksSyntax(t *testing.T) {
	var p Parser
	if _, err := p.Write([]byte(`{"a":[1,2]} `)); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestParserAcceptsTheDeepestNestingEncodingJSONAccepts(t *testing.T) {
	doc := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	p := NewParser(nil)
	if _, err := p.Write([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestParserLetsGoOfAHugeScalarBuffer(t *testing.T) {
	p := NewParser(nil)
	big := `"` + strings.Repeat("x", 2*bigScalar)
	for _, c := range []string{big, `" "small`, `" `} {
		if _, err := p.Write([]byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	if cap(p.buf) > bigScalar {
		t.Errorf("after a small string the buffer still holds %d bytes", cap(p.buf))
	}
}

func TestEventKindString(t *testing.T) {
	for k, want := range map[EventKind]string{Begin: "begin", End: "end", Key: "key", Value: "value", Partial: "partial", 9: "EventKind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(k), got, want)
		}
	}
}

func TestALongKeyIsCutInPaths(t *testing.T) {
	key := strings.Repeat("k", 300) + "/tail"
	var paths []string
	p := NewParser(func(e Event) {
		if e.Kind == Value {
			paths = append(paths, e.Path)
		}
	})
	if _, err := p.Write([]byte(`{"` + key + `":[1,2]}`)); err != nil {
		t.Fatal(err)
	}
	want := "/" + strings.Repeat("k", 256) + "…"
	if len(paths) != 2 || paths[0] != want+"/0" || paths[1] != want+"/1" {
		t.Fatalf("paths %q", paths)
	}
}
