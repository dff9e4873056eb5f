package toolcall

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// seen is an Event with its Value copied, so that it can be kept.
type seen struct {
	Kind   EventKind
	Path   string
	Value  string
	Offset int64
}

// parseChunks parses b cut at the given offsets and returns the events and
// the first error of Write or Close.
func parseChunks(b []byte, cuts ...int) ([]seen, error) {
	var evs []seen
	p := NewParser(func(e Event) { evs = append(evs, seen{e.Kind, e.Path, string(e.Value), e.Offset}) })
	from := 0
	for _, c := range append(cuts, len(b)) {
		if _, err := p.Write(b[from:c]); err != nil {
			return evs, err
		}
		from = c
	}
	return evs, p.Close()
}

// withoutPartials drops Partial events, which depend on the chunking.
func withoutPartials(evs []seen) []seen {
	var out []seen
	for _, e := range evs {
		if e.Kind != Partial {
			out = append(out, e)
		}
	}
	return out
}

// reassemble rebuilds each top-level value from the events, compact.
func reassemble(evs []seen) []string {
	var docs []string
	var b strings.Builder
	var first []bool // per open container: no member or element yet
	afterKey := false
	sep := func() {
		if n := len(first); n > 0 && !afterKey {
			if !first[n-1] {
				b.WriteByte(',')
			}
			first[n-1] = false
		}
		afterKey = false
	}
	for _, e := range evs {
		switch e.Kind {
		case Begin:
			sep()
			b.WriteString(e.Value)
			first = append(first, true)
		case End:
			first = first[:len(first)-1]
			b.WriteString(e.Value)
		case Key:
			sep()
			b.WriteString(e.Value + ":")
			afterKey = true
			continue
		case Value:
			sep()
			b.WriteString(e.Value)
		default:
			continue
		}
		if len(first) == 0 {
			docs = append(docs, b.String())
			b.Reset()
		}
	}
	return docs
}

// decoderValues reads the stream as json.Decoder does: each value compact,
// and whether the stream ended cleanly.
func decoderValues(b []byte) ([]string, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	var docs []string
	for {
		var raw json.RawMessage
		err := d.Decode(&raw)
		if err == io.EOF {
			return docs, true
		}
		if err != nil {
			return docs, false
		}
		var c bytes.Buffer
		if json.Compact(&c, raw) != nil {
			return docs, false
		}
		docs = append(docs, c.String())
	}
}

// decoderTokens returns the tokens json.Decoder.Token sees, numbers as
// json.Number, or nil if it fails anywhere.
func decoderTokens(b []byte) []any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var toks []any
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return toks
		}
		if err != nil {
			return nil
		}
		toks = append(toks, tok)
	}
}

// eventTokens turns events into the tokens json.Decoder.Token would give.
func eventTokens(t *testing.T, evs []seen) []any {
	var toks []any
	for _, e := range evs {
		switch e.Kind {
		case Begin, End:
			toks = append(toks, json.Delim(e.Value[0]))
		case Key, Value:
			var v any
			switch e.Value[0] {
			case '"':
				var s string
				if err := json.Unmarshal([]byte(e.Value), &s); err != nil {
					t.Fatalf("%s event %q is not a JSON string: %v", e.Kind, e.Value, err)
				}
				v = s
			case 't', 'f':
				v = e.Value == "true"
			case 'n':
				v = nil
			default:
				v = json.Number(e.Value)
			}
			toks = append(toks, v)
		}
	}
	return toks
}

// checkStrings checks every string event against encoding/json: a Value's
// text decodes as appendUnquoted decodes it, each Partial before it is a
// prefix of that text, and a Key's path ends with the escaped key.
func checkStrings(t *testing.T, evs []seen) {
	var partials []seen
	for _, e := range evs {
		switch {
		case e.Kind == Partial:
			partials = append(partials, e)
			continue
		case e.Kind == Value && e.Value[0] == '"', e.Kind == Key:
			var want string
			if err := json.Unmarshal([]byte(e.Value), &want); err != nil {
				t.Fatalf("%q: %v", e.Value, err)
			}
			got, n := appendUnquoted(nil, []byte(e.Value[1:len(e.Value)-1]), false)
			if string(got) != want || n != len(e.Value)-2 {
				t.Fatalf("appendUnquoted(%q) = %q (%d bytes), encoding/json says %q", e.Value, got, n, want)
			}
			if e.Kind == Key {
				key, mark := want, ""
				if len(key) > maxPathKey {
					n := maxPathKey
					for n > 0 && !utf8.RuneStart(key[n]) {
						n--
					}
					key, mark = key[:n], "…"
				}
				seg := strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1") + mark
				if !strings.HasSuffix(e.Path, "/"+seg) {
					t.Fatalf("key %q has path %q", e.Value, e.Path)
				}
			}
			for _, p := range partials {
				if p.Path != e.Path || p.Offset != e.Offset || !strings.HasPrefix(want, p.Value) {
					t.Fatalf("partial %+v does not lead to %+v (%q)", p, e, want)
				}
			}
		case e.Kind == Value:
			for _, p := range partials {
				if p.Path != e.Path || p.Offset != e.Offset || !strings.HasPrefix(e.Value, p.Value) {
					t.Fatalf("partial %+v does not lead to %+v", p, e)
				}
			}
		}
		partials = partials[:0]
	}
}

// FuzzParser checks the Parser against encoding/json on any input: it
// accepts a single value exactly when json.Valid does; on a stream it
// accepts, json.Decoder reads the same values and Decoder.Token the same
// tokens; strings decode as encoding/json decodes them; and cutting the
// input in two at any point, or into single bytes, changes no event (but
// Partial ones, which lead to the value they announce) and no error.
//
// Every two-way split point is checked on inputs up to maxAllSplits
// bytes, with the whole event lists up to 256 bytes and a hash of them
// beyond; longer inputs are split at evenly spaced points, since all of
// them would cost the square of the length. Byte by byte is checked at
// every length.
//
// Planted bugs this caught (each reverted):
//   - feed, carrying over a string that began mid-chunk with more than
//     256 of its bytes in the chunk, while one hex digit of a \u escape
//     was still due, expecting two (p.hexLeft = 2): the seed corpus fails
//     at "split at 354" of the 955-byte seed; the old check (every split
//     point only up to 256 bytes, 17 beyond) passed with the same seeds.
//   - scalarRaw returning only this chunk's bytes of a scalar carried
//     over from earlier ones (return b[:e] instead of p.buf): 22 seeds
//     fail.
func FuzzParser(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `"x"`, `0`, `-0.5e+10`, `true`, ` null `,
		`{"tool":"calc","args":{"expr":"{1+1}","note":"他说\"随便\""}}`,
		`{"a":[1,2,{"b":null}],"c":"\ud83d\ude00\u00e9\n\\\/"}`,
		`{"n":12345678901234567890}{"n":1}` + "\n[1]\t\"x\" 2",
		`"\ud800" "\udc00\ud800x" "\ud800\u0041"`,
		"\"\xff\xe4\xbd\" \"\xed\xa0\x80\"",
		`{"a/b~c":{"":[]}}`,
		`[01]`, `[1.]`, `[.5]`, `[+1]`, `[1e]`, `[-]`, `{"a" 1}`, `[1,]`, `{"a":1,}`, `{'a':1}`, `"\x"`, `"\u12g4"`, "\"\x01\"",
		`1x`, `"a""b"`, `truefalse`, `1-2`, `[tru]`, `{"a":1]`, `{"a":`, `[`, "\ufeff1",
	} {
		f.Add([]byte(s))
	}
	// Longer than 256 bytes (summaries), 1 KiB (byte by byte summarized)
	// and maxAllSplits (evenly spaced split points).
	code := strings.Repeat(`\tif err != nil { return fmt.Errorf(\"step %d: %w\", i, err) } // 第 \u00e9 步\n`, 6)
	longKey := strings.Repeat("k~/é", 80)
	f.Add([]byte(`{"path":"src/main.go","content":"` + code + `","` + longKey + `":[1,2.5e-3,true,null,"x"]}`))
	f.Add([]byte(`[` + strings.Repeat(`{"name":"edit","arguments":{"path":"a/b.go","line":12,"ok":true,"note":null,"text":"`+code+`"}},`, 2) + `0]`))
	f.Add([]byte(strings.Repeat(`{"id":"call_1","arguments":{"n":-12.5e+3,"s":"\u4e2d\"\\","l":[true,false,null]}} `, 60) + `{"cut":"` + code))
	f.Fuzz(func(t *testing.T, b []byte) {
		evs, err := parseChunks(b)
		var se *SyntaxError
		var ie *IncompleteError
		if err != nil && !errors.As(err, &se) && !errors.As(err, &ie) {
			t.Fatalf("error %v (%T) is neither a SyntaxError nor an IncompleteError", err, err)
		}
		docs := reassemble(evs)
		if valid := json.Valid(b); valid != (err == nil && len(docs) == 1) {
			t.Fatalf("json.Valid(%q) = %v, but the parser read %d values with error %v", b, valid, len(docs), err)
		}
		checkStrings(t, evs)

		decDocs, decOK := decoderValues(b)
		if err == nil {
			if !decOK || !reflect.DeepEqual(docs, decDocs) {
				t.Fatalf("%q: parser read %q, json.Decoder %q (clean end %v)", b, docs, decDocs, decOK)
			}
			if toks := decoderTokens(b); fmt.Sprintf("%#v", toks) != fmt.Sprintf("%#v", eventTokens(t, evs)) {
				t.Fatalf("%q: Decoder.Token gives %#v, events give %#v", b, toks, eventTokens(t, evs))
			}
		} else if decOK && (se == nil || !strings.Contains(se.Msg, "after top-level value")) {
			// json.Decoder also reads "1-2" and `"a""b"` as two values;
			// that is the one refusal the two may disagree on.
			t.Fatalf("%q: json.Decoder reads %q but the parser fails: %v", b, decDocs, err)
		}

		whole := withoutPartials(evs)
		check := func(how string, cuts ...int) {
			got, gotErr := parseChunks(b, cuts...)
			if !reflect.DeepEqual(withoutPartials(got), whole) || fmt.Sprint(gotErr) != fmt.Sprint(err) {
				t.Fatalf("%q %s: events\n%v\nerror %v\nwant\n%v\nerror %v", b, how, withoutPartials(got), gotErr, whole, err)
			}
			checkStrings(t, got)
		}
		want := summarize(whole, err)
		if got := parseSummary(b, nil, false); got != want {
			t.Fatalf("%q: the summary of the events is %+v, of the same events live %+v", b, want, got)
		}
		checkSummary := func(how string, got summary) {
			if got != want {
				// Say what differs, with the whole event lists: one more
				// run, on failure only.
				check(how, splitCuts(b, how)...)
				t.Fatalf("%q %s: summary %+v, want %+v", b, how, got, want)
			}
		}

		// Every two-way split point: with the full events up to 256 bytes,
		// with their summary up to maxAllSplits bytes; beyond, whose cost
		// would grow past the fuzzing engine's limit of 10 s an input, at
		// evenly spaced points that keep the total near maxAllSplits².
		step := 1
		if n := int64(len(b)); n > maxAllSplits {
			step = int((n*n + maxAllSplits*maxAllSplits - 1) / (maxAllSplits * maxAllSplits))
		}
		for k := 0; k <= len(b); k += step {
			if len(b) <= 256 {
				check(fmt.Sprintf("split at %d", k), k)
			} else {
				checkSummary(fmt.Sprintf("split at %d", k), parseSummary(b, []int{k}, false))
			}
		}
		// Byte by byte, at any length: linear.
		if len(b) <= 1024 {
			check("written byte by byte", splitCuts(b, "written byte by byte")...)
		} else {
			checkSummary("written byte by byte", parseSummary(b, nil, true))
		}
	})
}

// maxAllSplits is the longest input FuzzParser checks at every two-way
// split point: the parser runs len² bytes for it, about 0.25 s at 4 KiB.
const maxAllSplits = 4096

// splitCuts returns the cuts a check's description names.
func splitCuts(b []byte, how string) []int {
	var k int
	if _, err := fmt.Sscanf(how, "split at %d", &k); err == nil {
		return []int{k}
	}
	cuts := make([]int, len(b))
	for k := range cuts {
		cuts[k] = k
	}
	return cuts
}

// summary is what one run of the parser comes to: a hash of its events
// other than Partial (kind, path, value and offset of each), their number,
// and the error. A Partial that does not lead to the value that follows
// it shows in bad.
type summary struct {
	hash   uint64
	events int
	err    string
	bad    string
}

// summarizer builds a summary from events as they come, without keeping
// them.
type summarizer struct {
	summary
	h       hash.Hash64
	scratch []byte
	// The last Partial, if hasPart: written byte by byte, a long string
	// sends one per byte, so only its length and its first and last bytes
	// are kept, to keep the cost linear.
	hasPart    bool
	partPath   string
	partOff    int64
	partLen    int
	head, tail []byte
}

// partEnds is how many bytes of each end of a Partial are checked.
const partEnds = 16

func newSummarizer() *summarizer { return &summarizer{h: fnv.New64a()} }

func (s *summarizer) add(kind EventKind, path string, value []byte, off int64) {
	if kind == Partial {
		s.hasPart, s.partPath, s.partOff, s.partLen = true, path, off, len(value)
		s.head = append(s.head[:0], value[:min(len(value), partEnds)]...)
		s.tail = append(s.tail[:0], value[max(0, len(value)-partEnds):]...)
		return
	}
	if s.hasPart && s.bad == "" {
		text := value
		if len(value) > 0 && value[0] == '"' {
			var str string
			if json.Unmarshal(value, &str) != nil {
				str = ""
			}
			text = []byte(str)
		}
		if s.partPath != path || s.partOff != off || s.partLen > len(text) ||
			!bytes.HasPrefix(text, s.head) || !bytes.HasSuffix(text[:s.partLen], s.tail) {
			s.bad = fmt.Sprintf("a partial of %d bytes at %q, %d (%q…%q) does not lead to %s %q at %q, %d",
				s.partLen, s.partPath, s.partOff, s.head, s.tail, kind, value, path, off)
		}
	}
	s.hasPart = false
	b := binary.AppendUvarint(s.scratch[:0], uint64(kind))
	b = binary.AppendUvarint(b, uint64(len(path)))
	b = append(b, path...)
	b = binary.AppendUvarint(b, uint64(len(value)))
	b = append(b, value...)
	b = binary.AppendVarint(b, off)
	s.h.Write(b)
	s.scratch = b
	s.events++
}

func (s *summarizer) result(err error) summary {
	out := s.summary
	out.hash = s.h.Sum64()
	if err != nil {
		out.err = err.Error()
	}
	return out
}

// summarize returns the summary of events already collected.
func summarize(evs []seen, err error) summary {
	s := newSummarizer()
	for _, e := range evs {
		s.add(e.Kind, e.Path, []byte(e.Value), e.Offset)
	}
	return s.result(err)
}

// parseSummary parses b cut at the given offsets, or byte by byte, and
// returns the summary of the run.
func parseSummary(b []byte, cuts []int, bytewise bool) summary {
	s := newSummarizer()
	p := NewParser(func(e Event) { s.add(e.Kind, e.Path, e.Value, e.Offset) })
	write := func(chunk []byte) error {
		_, err := p.Write(chunk)
		return err
	}
	var err error
	if bytewise {
		for k := 0; k < len(b) && err == nil; k++ {
			err = write(b[k : k+1])
		}
	} else {
		from := 0
		for _, c := range append(cuts, len(b)) {
			if err = write(b[from:c]); err != nil {
				break
			}
			from = c
		}
	}
	if err == nil {
		err = p.Close()
	}
	return s.result(err)
}

// FuzzExtract feeds arbitrary text to Extract. It must never panic, and
// its result must keep the promises of Result: Calls has calls whose
// arguments are JSON objects, Final has none and the whole text, and
// Incomplete has a reason and the partial call.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		``, `hello`, `{"tool":"calc","args":{"expr":"1+1"}}`,
		"好的\n```json\n{\"tool\":\"calc\",\"args\":{\"expr\":\"{1+1}\"}}\n```",
		`{"tool":"calc","args":{"expr":"1"}}{"tool":"calc","args":{"expr":"2"}}`,
		`{"tool":"calc","args":{"expr":"1+`,
		`[{"name":"a","arguments":"{\"n\":12345678901234567890}"},{"type":"function","function":{"name":"b","arguments":{}}}]`,
		"<tool_call>{\"name\":\"x\"}</tool_call>", "```python\n{\"name\":\"x\",\"arguments\":{}}\n```",
		`use {x} in your template`, `{"answer": 42}`, `{"name":"a","arguments":[1]}`, "```json\n{\"name\":\"a\",\"argu\n```",
		`{"name":"a","arguments":{"x":1}` + "\nOops", "~~~\n[{\"name\":\"a\"},", `{"name":""}`, "```",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := Extract(text)
		switch r.Kind {
		case Calls:
			if len(r.Calls) == 0 || r.Reason != "" || r.Partial != "" {
				t.Fatalf("Extract(%q) = %+v: Calls without calls, or with a reason or partial", text, r)
			}
		case Final:
			if len(r.Calls) != 0 || r.Partial != "" || r.Text != strings.TrimSpace(text) {
				t.Fatalf("Extract(%q) = %+v: Final must have no calls and the whole trimmed text", text, r)
			}
			if r.Text == "" && r.Reason == "" {
				t.Fatalf("Extract(%q): Final with no text and no reason", text)
			}
		case Incomplete:
			if r.Reason == "" || r.Partial == "" {
				t.Fatalf("Extract(%q) = %+v: Incomplete without a reason or partial", text, r)
			}
		default:
			t.Fatalf("Extract(%q): kind %d", text, r.Kind)
		}
		for _, c := range r.Calls {
			var obj map[string]json.RawMessage
			if c.Name == "" || json.Unmarshal(c.Arguments, &obj) != nil || obj == nil {
				t.Fatalf("Extract(%q): call %q has arguments %q, not a JSON object", text, c.Name, c.Arguments)
			}
		}
		if len(r.Text) > len(text) {
			t.Fatalf("Extract(%q): text %q is longer than the input", text, r.Text)
		}
		if again := Extract(text); !reflect.DeepEqual(again, r) {
			t.Fatalf("Extract(%q) gave %+v, then %+v", text, r, again)
		}
	})
}
