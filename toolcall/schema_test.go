package toolcall

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stdiotools/toolserver/i18n"
)

// readFileSchema is the shape of a file tool's inputSchema.
const readFileSchema = `{"type":"object","properties":{
	"path":{"type":"string","minLength":1},
	"head":{"type":"integer","minimum":1,"maximum":1000},
	"mode":{"type":"string","enum":["text","base64"]},
	"tags":{"type":"array","items":{"type":"string"},"maxItems":2},
	"opts":{"type":"object","properties":{"deep":{"type":"boolean"}},"additionalProperties":false}
},"required":["path"],"additionalProperties":false}`

func mustCompile(t testing.TB, doc string) *Schema {
	t.Helper()
	s, err := CompileSchema([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// brief writes mismatches as "kind path rule", sorted, for comparing.
func brief(ms []Mismatch) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Kind.String() + " " + m.Path + " " + m.Rule
	}
	slices.Sort(out)
	return out
}

func TestCheckFindsWhatBreaksTheSchema(t *testing.T) {
	s := mustCompile(t, readFileSchema)
	tests := []struct {
		args string
		want []string
	}{
		{`{"path":"a.txt"}`, nil},
		{`{"path":"a.txt","head":10,"mode":"text","tags":["x"],"opts":{"deep":true}}`, nil},
		{`{"path":"a.txt","head":10.0}`, nil}, // 10.0 is an integer
		{`{"path":"a.txt","head":1e2}`, nil},
		{`{"path":"a.txt","head":"10"}`, []string{"wrong type /head type"}},
		{`{"path":"a.txt","head":10.5}`, []string{"wrong type /head type"}},
		{`{"path":"a.txt","head":0}`, []string{"too small /head minimum"}},
		{`{"path":"a.txt","head":1000}`, nil},
		{`{"path":"a.txt","head":1001}`, []string{"too large /head maximum"}},
		{`{"path":"a.txt","head":1e999999999}`, []string{"too large /head maximum"}},
		{`{"path":""}`, []string{"too small /path minLength"}},
		{`{}`, []string{"missing /path required"}},
		{`{"path":"a","mode":"hex"}`, []string{"not allowed /mode enum"}},
		{`{"path":"a","limit":3}`, []string{"unknown /limit additionalProperties"}},
		{`{"path":"a","tags":["x","y","z"]}`, []string{"too large /tags maxItems"}},
		{`{"path":"a","tags":["x",2]}`, []string{"wrong type /tags/1 type"}},
		{`{"path":"a","opts":{"deep":1,"x":null}}`, []string{"unknown /opts/x additionalProperties", "wrong type /opts/deep type"}},
		{`{"path":7,"head":[]}`, []string{"wrong type /head type", "wrong type /path type"}},
		{`[]`, []string{"wrong type  type"}},
	}
	for _, tt := range tests {
		got, err := s.Check([]byte(tt.args))
		if err != nil {
			t.Errorf("%s: %v", tt.args, err)
			continue
		}
		if b := brief(got); !slices.Equal(b, tt.want) {
			t.Errorf("Check(%s) = %q, want %q", tt.args, b, tt.want)
		}
	}
	if _, err := s.Check([]byte(`{"path":"a"} {}`)); err == nil {
		t.Error("two values must be an error")
	}
}

func TestTheMismatchReadsAsASentence(t *testing.T) {
	s := mustCompile(t, readFileSchema)
	got, _ := s.Check([]byte(`{"path":"a","head":"ten","mode":"hex","extra":1}`))
	var en, zh []string
	for _, m := range got {
		en = append(en, m.Message(i18n.English))
		zh = append(zh, m.Message(i18n.Chinese))
	}
	for _, want := range []string{
		`/head: a string was given where an integer is required.`,
		`/mode: "hex" is not allowed; use one of: "text", "base64".`,
		`/extra: this argument is not known; the known ones are: head, mode, opts, path, tags.`,
	} {
		if !slices.Contains(en, want) {
			t.Errorf("messages %q lack %q", en, want)
		}
	}
	if !slices.Contains(zh, `/head：需要整数，却给了字符串。`) {
		t.Errorf("Chinese messages: %q", zh)
	}
}

func TestSchemasTheCheckerCannotReadAreRefused(t *testing.T) {
	for _, doc := range []string{`nope`, `{"type":3}`, `{"required":"path"}`, `{"properties":[]}`, `{"minLength":-1}`, `{"maxItems":1.5}`, `7`} {
		if _, err := CompileSchema([]byte(doc)); err == nil {
			t.Errorf("CompileSchema(%s) succeeded", doc)
		}
	}
	// Keywords it does not know never cause a false alarm.
	s := mustCompile(t, `{"type":"object","patternProperties":{"^x":{}},"additionalProperties":false,
		"properties":{"t":{"prefixItems":[{"type":"string"}],"items":false},"u":{"type":"decimal"}}}`)
	if got, _ := s.Check([]byte(`{"x1":1,"t":["a",2],"u":"z"}`)); len(got) != 0 {
		t.Errorf("false alarms: %v", got)
	}
}

// checkStream feeds args to a Parser and a Checker in chunks of n bytes
// and returns the mismatches with the number of bytes written when each
// was reported.
func checkStream(s *Schema, args string, n int) (ms []Mismatch, at []int) {
	written := 0
	c := s.NewChecker(func(m Mismatch) { ms = append(ms, m); at = append(at, written) })
	p := NewParser(c.Event)
	for i := 0; i < len(args); i += n {
		chunk := args[i:min(i+n, len(args))]
		written += len(chunk)
		if _, err := p.Write([]byte(chunk)); err != nil {
			break
		}
	}
	p.Close()
	return ms, at
}

func TestTheCheckerReportsAMismatchAsSoonAsTheStreamShowsIt(t *testing.T) {
	s := mustCompile(t, readFileSchema)
	tests := []struct {
		args  string
		known string // the prefix after which the mismatch is known
		want  string
	}{
		{`{"path":"a.txt","head":"twelve lines"}`, `{"path":"a.txt","head":"`, "wrong type /head type"},
		{`{"path":"a.txt","head":[1,2,3]}`, `{"path":"a.txt","head":[`, "wrong type /head type"},
		{`{"path":"a.txt","limit":5}`, `{"path":"a.txt","limit"`, "unknown /limit additionalProperties"},
		{`{"path":"a.txt","tags":["a","b","c","d"]}`, `{"path":"a.txt","tags":["a","b","`, "too large /tags maxItems"},
		{`{"path":"a.txt","mode":"hex","head":5}`, `{"path":"a.txt","mode":"hex"`, "not allowed /mode enum"},
		{`{"head":5,"mode":"text"}`, `{"head":5,"mode":"text"}`, "missing /path required"},
	}
	for _, tt := range tests {
		for _, n := range []int{1, 3, 64} {
			ms, at := checkStream(s, tt.args, n)
			if len(ms) != 1 || brief(ms)[0] != tt.want {
				t.Errorf("%s in chunks of %d: %q, want %q", tt.args, n, brief(ms), tt.want)
				continue
			}
			// Reported within the chunk that completes the telling prefix.
			if limit := (len(tt.known) + n - 1) / n * n; at[0] > limit {
				t.Errorf("%s in chunks of %d: reported after %d bytes, want by %d", tt.args, n, at[0], limit)
			}
		}
	}
}

func TestTheCheckerAgreesWithCheckOnTheTable(t *testing.T) {
	s := mustCompile(t, readFileSchema)
	for _, args := range []string{`{"path":"a.txt","head":10.5,"mode":"x","tags":[1,2,3],"opts":{"deep":"y","z":[]}}`, `{"opts":[]}`, `"x"`, `{"tags":{}}`} {
		want, _ := s.Check([]byte(args))
		for _, n := range []int{1, 2, 5, 100} {
			got, _ := checkStream(s, args, n)
			if !slices.Equal(brief(got), brief(want)) {
				t.Errorf("%s in chunks of %d: Checker %q, Check %q", args, n, brief(got), brief(want))
			}
		}
	}
}

// supportedOnly reports whether a schema uses only keywords a Schema
// checks (and annotations), so that it must agree with a full validator.
func supportedOnly(v any) bool {
	switch s := v.(type) {
	case bool:
		return true
	case map[string]any:
		for k, sub := range s {
			switch k {
			case "type", "enum", "const", "required", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
				"minLength", "maxLength", "minItems", "maxItems", "description", "title", "default":
			case "properties":
				m, ok := sub.(map[string]any)
				if !ok {
					return false
				}
				for _, p := range m {
					if !supportedOnly(p) {
						return false
					}
				}
			case "additionalProperties", "items":
				if !supportedOnly(sub) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return false
}

// hasDuplicateKeys reports whether some object of a JSON text repeats a
// key: decoding keeps the last, the stream sees both.
func hasDuplicateKeys(b []byte) bool {
	var stack []map[string]bool
	dup := false
	p := NewParser(func(e Event) {
		switch e.Kind {
		case Begin:
			stack = append(stack, map[string]bool{})
		case End:
			stack = stack[:len(stack)-1]
		case Key:
			k := string(e.Value)
			var s string
			if json.Unmarshal(e.Value, &s) == nil {
				k = s
			}
			top := stack[len(stack)-1]
			dup = dup || top[k]
			top[k] = true
		}
	})
	p.Write(b)
	p.Close()
	return dup
}

// hasContainerEnum reports whether a schema has an enum or const holding
// an object or array, which the Checker leaves alone (an enum of scalars
// it checks, and is held to Check on).
func hasContainerEnum(doc []byte) bool {
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return true
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch t := v.(type) {
		case map[string]any:
			for k, sub := range t {
				switch k {
				case "enum":
					if list, ok := sub.([]any); ok && slices.ContainsFunc(list, isContainer) {
						return true
					}
				case "const":
					if isContainer(sub) {
						return true
					}
				}
				if walk(sub) {
					return true
				}
			}
		case []any:
			return slices.ContainsFunc(t, walk)
		}
		return false
	}
	return walk(v)
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

func FuzzCheckerAgreesWithCheckAndAValidator(f *testing.F) {
	f.Add(readFileSchema, `{"path":"a.txt","head":"12"}`, uint(3))
	f.Add(readFileSchema, `{"path":"","head":0.5e1,"tags":["a","b","c"],"opts":{"deep":null}}`, uint(1))
	f.Add(`{"type":["integer","null"],"exclusiveMaximum":10,"exclusiveMinimum":-1e-3}`, `9.99`, uint(2))
	f.Add(`{"type":"array","items":{"type":"object","required":["a"],"additionalProperties":{"type":"number"}},"minItems":2}`, `[{"a":1,"b":"x"},{}]`, uint(4))
	f.Add(`{"enum":[1,"a",null,[1]],"minLength":2}`, `1.0`, uint(1))
	f.Add(`{"const":{"a":[1,2]}}`, `{"a":[1,2.0]}`, uint(5))
	f.Add(`{"properties":{"x":false},"maxLength":3}`, `{"x":"abcd"}`, uint(2))
	f.Add(`false`, `{}`, uint(1))
	f.Fuzz(func(t *testing.T, doc, args string, split uint) {
		s, err := CompileSchema([]byte(doc))
		if err != nil {
			return
		}
		want, err := s.Check([]byte(args))
		if err != nil {
			return
		}
		// The Checker, fed the stream cut anywhere, finds the same.
		if !hasDuplicateKeys([]byte(args)) && !hasContainerEnum([]byte(doc)) {
			got, _ := checkStream(s, args, int(split%16)+1)
			if !slices.Equal(brief(got), brief(want)) {
				t.Fatalf("Checker %q, Check %q", brief(got), brief(want))
			}
		}
		for _, m := range want {
			_ = m.Message(i18n.Chinese)
		}
		// Where it knows every keyword, Check agrees with a full validator.
		var sv any
		d := json.NewDecoder(strings.NewReader(doc))
		d.UseNumber()
		if d.Decode(&sv) != nil || !supportedOnly(sv) || len(doc) > 2000 || len(args) > 2000 {
			return
		}
		c := santhosh.NewCompiler()
		c.DefaultDraft(santhosh.Draft2020)
		if c.AddResource("mem:///s.json", sv) != nil {
			return
		}
		sch, err := c.Compile("mem:///s.json")
		if err != nil {
			return
		}
		av, err := santhosh.UnmarshalJSON(strings.NewReader(args))
		if err != nil {
			return
		}
		valid := sch.Validate(av) == nil
		if valid != (len(want) == 0) {
			t.Fatalf("validator says valid=%v, Check %q", valid, brief(want))
		}
	})
}

func TestTheCheckerAndCheckRaiseNoAlarmAValidatorWouldNot(t *testing.T) {
	tests := []struct {
		schema, args string
		want         []string // what Check, and so the Checker, finds
	}{
		// A nullable type takes null and its type, nothing else.
		{`{"properties":{"p":{"type":["string","null"]}}}`, `{"p":null}`, nil},
		{`{"properties":{"p":{"type":["string","null"]}}}`, `{"p":"x"}`, nil},
		{`{"properties":{"p":{"type":["string","null"]}}}`, `{"p":1}`, []string{"wrong type /p type"}},
		// An integer may be written with a fraction of zero or an exponent.
		{`{"properties":{"n":{"type":"integer","maximum":10}}}`, `{"n":1.0}`, nil},
		{`{"properties":{"n":{"type":"integer","maximum":10}}}`, `{"n":10e-1}`, nil},
		{`{"properties":{"n":{"type":"integer","maximum":10}}}`, `{"n":1.5}`, []string{"wrong type /n type"}},
		{`{"properties":{"n":{"type":"integer","maximum":10}}}`, `{"n":0.1e2}`, nil},
		{`{"properties":{"n":{"type":"integer","maximum":10}}}`, `{"n":0.11e2}`, []string{"too large /n maximum"}},
		// additionalProperties as a schema checks the members not named.
		{`{"properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}`, `{"a":"x","b":2}`, nil},
		{`{"properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}`, `{"a":"x","b":"y"}`, []string{"wrong type /b type"}},
		{`{"additionalProperties":{"type":"object","additionalProperties":false}}`, `{"b":{"c":1}}`, []string{"unknown /b/c additionalProperties"}},
		// Keywords it does not know are the server's: never an alarm.
		{`{"properties":{"p":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`, `{"p":3}`, nil},
		{`{"properties":{"p":{"oneOf":[{"type":"string"},{"type":"null"}]}}}`, `{"p":null}`, nil},
		{`{"allOf":[{"properties":{"p":{"type":"string"}}}],"properties":{"q":{"type":"integer"}}}`, `{"p":1,"q":2}`, nil},
		{`{"$defs":{"n":{"type":"integer"}},"properties":{"p":{"$ref":"#/$defs/n"}}}`, `{"p":"x"}`, nil},
		{`{"type":"object","unevaluatedProperties":false,"properties":{"a":{}}}`, `{"b":1}`, nil},
		{`{"properties":{"p":{"type":"string","format":"date-time","pattern":"^x"}}}`, `{"p":"y"}`, nil},
		{`{"properties":{"t":{"type":"array","items":[{"type":"string"}]}}}`, `{"t":[1]}`, nil},
		{`{"properties":{"n":{"type":"integer","minimum":0,"exclusiveMinimum":true}}}`, `{"n":0}`, nil},
	}
	for _, tt := range tests {
		s := mustCompile(t, tt.schema)
		if hasContainerEnum([]byte(tt.schema)) || hasDuplicateKeys([]byte(tt.args)) {
			t.Fatalf("%s against %s: a case the Checker is not held to", tt.args, tt.schema)
		}
		want, err := s.Check([]byte(tt.args))
		if err != nil || !slices.Equal(brief(want), tt.want) {
			t.Errorf("%s against %s: Check %q, %v; want %q", tt.args, tt.schema, brief(want), err, tt.want)
			continue
		}
		for n := 1; n <= len(tt.args); n++ {
			if got, _ := checkStream(s, tt.args, n); !slices.Equal(brief(got), tt.want) {
				t.Errorf("%s against %s in chunks of %d: the Checker %q, want %q", tt.args, tt.schema, n, brief(got), tt.want)
			}
		}
	}
}

func TestTheCheckerSeesEachValueOfARepeatedKeyAndCheckOnlyTheLast(t *testing.T) {
	s := mustCompile(t, `{"properties":{"n":{"type":"integer"}}}`)
	args := `{"n":"x","n":1}`
	if want, _ := s.Check([]byte(args)); len(want) != 0 {
		t.Errorf("Check %q, want nothing: the last value counts", brief(want))
	}
	if got, _ := checkStream(s, args, 1); !slices.Equal(brief(got), []string{"wrong type /n type"}) {
		t.Errorf("the Checker %q: it cannot know a later value will replace this one", brief(got))
	}
}
