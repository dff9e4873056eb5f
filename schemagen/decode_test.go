package schemagen

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// coerceIn has one field of each coercible kind.
type coerceIn struct {
	Count  int        `json:"count,omitempty"`
	Ratio  float64    `json:"ratio,omitempty"`
	Flag   bool       `json:"flag,omitempty"`
	Names  []string   `json:"names,omitempty"`
	IDs    []int      `json:"ids,omitempty"`
	Flags  []bool     `json:"flags,omitempty"`
	Grid   [][]int    `json:"grid,omitempty"`
	Edits  []edit     `json:"edits,omitempty"`
	Opt    *int       `json:"opt,omitempty"`
	Name   string     `json:"name,omitempty"`
	Nested *coerceIn2 `json:"nested,omitempty"`
}

type coerceIn2 struct {
	Depth uint8 `json:"depth"`
	On    bool  `json:"on,omitempty"`
}

func TestDecodeCoerces(t *testing.T) {
	s := mustSchema[coerceIn](t)
	one := 1
	tests := []struct {
		name      string
		args      string
		want      coerceIn
		coercions []string
	}{
		{name: "a numeric string becomes an integer", args: `{"count":"25"}`,
			want: coerceIn{Count: 25}, coercions: []string{`count: "25" → integer`}},
		{name: "a negative numeric string becomes an integer", args: `{"count":"-7"}`,
			want: coerceIn{Count: -7}, coercions: []string{`count: "-7" → integer`}},
		{name: "an integral string with an exponent becomes an integer", args: `{"count":"1e3"}`,
			want: coerceIn{Count: 1000}, coercions: []string{`count: "1e3" → integer`}},
		{name: "a decimal string becomes a number", args: `{"ratio":"2.5"}`,
			want: coerceIn{Ratio: 2.5}, coercions: []string{`ratio: "2.5" → number`}},
		{name: "the string true becomes a boolean", args: `{"flag":"true"}`,
			want: coerceIn{Flag: true}, coercions: []string{`flag: "true" → boolean`}},
		{name: "the string false becomes a boolean", args: `{"flag":"false"}`,
			want: coerceIn{}, coercions: []string{`flag: "false" → boolean`}},
		{name: "a single string is wrapped in an array", args: `{"names":"a"}`,
			want: coerceIn{Names: []string{"a"}}, coercions: []string{`names: "a" → array`}},
		{name: "a single number is wrapped in an array", args: `{"ids":3}`,
			want: coerceIn{IDs: []int{3}}, coercions: []string{`ids: 3 → array`}},
		{name: "a wrapped numeric string is then coerced", args: `{"ids":"3"}`,
			want: coerceIn{IDs: []int{3}}, coercions: []string{`ids: "3" → array`, `ids[0]: "3" → integer`}},
		{name: "a wrapped boolean string is then coerced", args: `{"flags":"true"}`,
			want: coerceIn{Flags: []bool{true}}, coercions: []string{`flags: "true" → array`, `flags[0]: "true" → boolean`}},
		{name: "a single value is wrapped twice for an array of arrays", args: `{"grid":5}`,
			want: coerceIn{Grid: [][]int{{5}}}, coercions: []string{`grid: 5 → array`, `grid[0]: 5 → array`}},
		{name: "a single object is wrapped in an array of objects", args: `{"edits":{"old_text":"a","new_text":"b"}}`,
			want: coerceIn{Edits: []edit{{OldText: "a", NewText: "b"}}}, coercions: []string{`edits: {"new_text":"b","old_te… → array`}},
		{name: "elements of an array are coerced", args: `{"ids":["1",2,"3"]}`,
			want: coerceIn{IDs: []int{1, 2, 3}}, coercions: []string{`ids[0]: "1" → integer`, `ids[2]: "3" → integer`}},
		{name: "nested objects are coerced", args: `{"nested":{"depth":"4","on":"true"}}`,
			want:      coerceIn{Nested: &coerceIn2{Depth: 4, On: true}},
			coercions: []string{`nested.depth: "4" → integer`, `nested.on: "true" → boolean`}},
		{name: "null for an optional argument is dropped", args: `{"opt":null,"count":null}`,
			want: coerceIn{}, coercions: []string{`count: null → absent`, `opt: null → absent`}},
		{name: "a value already right is not coerced", args: `{"count":1,"opt":1,"names":["x"]}`,
			want: coerceIn{Count: 1, Opt: &one, Names: []string{"x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got coerceIn
			report, err := s.Decode([]byte(tt.args), &got)
			if err != nil {
				t.Fatalf("Decode(%s): %v", tt.args, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Decode(%s) = %+v, want %+v", tt.args, got, tt.want)
			}
			if c := coercions(report); !slices.Equal(c, tt.coercions) {
				t.Errorf("coercions = %q, want %q", c, tt.coercions)
			}
		})
	}
}

func TestDecodeDoesNotCoerce(t *testing.T) {
	s := mustSchema[coerceIn](t)
	tests := []struct {
		name string
		args string
		want string
	}{
		{name: "a decimal string for an integer", args: `{"count":"2.5"}`, want: `"count" must be an integer, got "2.5" (a string)`},
		{name: "a numeric string with spaces", args: `{"count":" 25 "}`, want: `"count" must be an integer, got " 25 " (a string)`},
		{name: "a numeric string with a plus sign", args: `{"count":"+5"}`, want: `"count" must be an integer, got "+5" (a string)`},
		{name: "a hexadecimal string", args: `{"count":"0x10"}`, want: `"count" must be an integer, got "0x10" (a string)`},
		{name: "the string NaN for a number", args: `{"ratio":"NaN"}`, want: `"ratio" must be a number, got "NaN" (a string)`},
		{name: "the string Infinity for a number", args: `{"ratio":"Infinity"}`, want: `"ratio" must be a number, got "Infinity" (a string)`},
		{name: "the string yes for a boolean", args: `{"flag":"yes"}`, want: `"flag" must be a boolean, got "yes" (a string)`},
		{name: "the string True for a boolean", args: `{"flag":"True"}`, want: `"flag" must be a boolean, got "True" (a string)`},
		{name: "the number 1 for a boolean", args: `{"flag":1}`, want: `"flag" must be a boolean, got 1 (an integer)`},
		{name: "the string 1 for a boolean", args: `{"flag":"1"}`, want: `"flag" must be a boolean, got "1" (a string)`},
		{name: "a one-element array for a string", args: `{"name":["a"]}`, want: `"name" must be a string, got ["a"] (an array)`},
		{name: "a number for a string", args: `{"name":5}`, want: `"name" must be a string, got 5 (an integer)`},
		{name: "a value that would be a bad element", args: `{"ids":"x"}`, want: `"ids" must be an array, got "x" (a string)`},
		{name: "a fraction that would be a bad element", args: `{"ids":1.5}`, want: `"ids" must be an array, got 1.5 (a number)`},
		{name: "null for an array", args: `{"edits":[null]}`, want: `"edits[0]" must be an object, got null; send a value or leave it out if optional`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got coerceIn
			report, err := s.Decode([]byte(tt.args), &got)
			ps := problemsOf(t, err)
			if msgs := messages(ps, English); !slices.Equal(msgs, []string{tt.want}) {
				t.Errorf("Decode(%s) problems = %q, want %q", tt.args, msgs, tt.want)
			}
			if len(report.Coercions) != 0 {
				t.Errorf("coercions = %q, want none", coercions(report))
			}
			if !reflect.DeepEqual(got, coerceIn{}) {
				t.Errorf("dst was changed to %+v", got)
			}
		})
	}
}

func TestDecodeAppliesDefaults(t *testing.T) {
	s := mustSchema[editIn](t)
	tests := []struct {
		name     string
		args     string
		check    func(t *testing.T, v editIn)
		defaults []string
	}{
		{name: "absent arguments get their defaults",
			args: `{"path":"a","edits":[{"old_text":"x","new_text":"y"}]}`,
			check: func(t *testing.T, v editIn) {
				if v.Mode != "replace" || v.Limit != 100 || v.Options != nil {
					t.Errorf("got %+v", v)
				}
			},
			defaults: []string{"mode", "limit"}},
		{name: "sent arguments keep their values",
			args: `{"path":"a","mode":"append","limit":5,"edits":[{"old_text":"x","new_text":"y"}]}`,
			check: func(t *testing.T, v editIn) {
				if v.Mode != "append" || v.Limit != 5 {
					t.Errorf("got %+v", v)
				}
			}},
		{name: "null for an argument with a default gets the default",
			args: `{"path":"a","limit":null,"mode":"append","edits":[{"old_text":"x","new_text":"y"}]}`,
			check: func(t *testing.T, v editIn) {
				if v.Limit != 100 {
					t.Errorf("Limit = %d", v.Limit)
				}
			},
			defaults: []string{"limit"}},
		{name: "a nested object that was sent gets its defaults",
			args: `{"path":"a","mode":"append","limit":1,"edits":[{"old_text":"x","new_text":"y"}],"options":{"backup":true}}`,
			check: func(t *testing.T, v editIn) {
				if v.Options == nil || v.Options.Suffix != "bak" || !v.Options.Backup {
					t.Errorf("Options = %+v", v.Options)
				}
			},
			defaults: []string{"options.suffix"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v editIn
			report, err := s.Decode([]byte(tt.args), &v)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, v)
			if !slices.Equal(report.Defaults, tt.defaults) {
				t.Errorf("Defaults = %q, want %q", report.Defaults, tt.defaults)
			}
		})
	}
	t.Run("defaults of composite values are not shared between calls", func(t *testing.T) {
		type in struct {
			Tags []string       `json:"tags" default:"[\"a\",\"b\"]"`
			Opts map[string]any `json:"opts" default:"{\"k\":1}"`
		}
		s := mustSchema[in](t)
		var first, second in
		if _, err := s.Decode(nil, &first); err != nil {
			t.Fatal(err)
		}
		first.Tags[0] = "changed"
		first.Opts["k"] = "changed"
		if _, err := s.Decode(nil, &second); err != nil {
			t.Fatal(err)
		}
		if second.Tags[0] != "a" || second.Opts["k"] != 1.0 {
			t.Errorf("second call got %+v", second)
		}
	})
}

func TestDecodeKeepsLargeNumbersExact(t *testing.T) {
	type in struct {
		I64 int64   `json:"i64,omitempty"`
		U64 uint64  `json:"u64,omitempty"`
		I32 int32   `json:"i32,omitempty"`
		F64 float64 `json:"f64,omitempty"`
		F32 float32 `json:"f32,omitempty"`
	}
	s := mustSchema[in](t)
	valid := []struct {
		name string
		args string
		want in
	}{
		{name: "an int64 above 2^53 keeps every digit", args: `{"i64":9007199254740993}`, want: in{I64: 9007199254740993}},
		{name: "the largest int64", args: `{"i64":9223372036854775807}`, want: in{I64: math.MaxInt64}},
		{name: "the smallest int64", args: `{"i64":-9223372036854775808}`, want: in{I64: math.MinInt64}},
		{name: "the largest uint64", args: `{"u64":18446744073709551615}`, want: in{U64: math.MaxUint64}},
		{name: "a large integer sent as a string keeps every digit", args: `{"i64":"9007199254740993"}`, want: in{I64: 9007199254740993}},
		{name: "an integral decimal is an integer", args: `{"i32":2.0}`, want: in{I32: 2}},
		{name: "an integral exponent is an integer", args: `{"i64":12e17}`, want: in{I64: 1200000000000000000}},
		{name: "negative zero fits an unsigned integer", args: `{"u64":-0}`, want: in{}},
		{name: "the largest float64", args: `{"f64":1.7976931348623157e308}`, want: in{F64: math.MaxFloat64}},
		{name: "a tiny float underflows to zero", args: `{"f64":1e-400}`, want: in{}},
	}
	for _, tt := range valid {
		t.Run(tt.name, func(t *testing.T) {
			var got in
			if _, err := s.Decode([]byte(tt.args), &got); err != nil {
				t.Fatalf("Decode(%s): %v", tt.args, err)
			}
			if got != tt.want {
				t.Errorf("Decode(%s) = %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
	invalid := []struct {
		name string
		args string
		want string
	}{
		{name: "one above the largest int64", args: `{"i64":9223372036854775808}`, want: `"i64" must be at most 9223372036854775807, got 9223372036854775808`},
		{name: "one below the smallest int64", args: `{"i64":-9223372036854775809}`, want: `"i64" must be at least -9223372036854775808, got -9223372036854775809`},
		{name: "one above the largest uint64", args: `{"u64":18446744073709551616}`, want: `"u64" must be at most 18446744073709551615, got 18446744073709551616`},
		{name: "a negative uint64", args: `{"u64":-1}`, want: `"u64" must be at least 0, got -1`},
		{name: "an int32 out of range is caught by the schema", args: `{"i32":2147483648}`, want: `"i32" must be at most 2147483647, got 2147483648`},
		{name: "a float64 beyond its range", args: `{"f64":1e400}`, want: `"f64" must be at most 1.7976931348623157e+308, got 1e400`},
		{name: "a float32 beyond its range", args: `{"f32":-1e39}`, want: `"f32" must be at least -3.4028235e+38, got -1e39`},
		{name: "an absurd exponent", args: `{"i64":1e999999999}`, want: `"i64" has too many digits or too large an exponent, got 1e999999999`},
		{name: "an absurdly long literal", args: `{"f64":` + strings.Repeat("1", 120) + `}`,
			want: `"f64" has too many digits or too large an exponent, got 11111111111111111111111…`},
	}
	for _, tt := range invalid {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Decode([]byte(tt.args), new(in))
			if got := messages(problemsOf(t, err), English); !slices.Equal(got, []string{tt.want}) {
				t.Errorf("Decode(%s) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}

// hooked has a Validate method, which counts its calls in hookCalls.
type hooked struct {
	Start int `json:"start"`
	End   int `json:"end" default:"10"`
}

// hookCalls counts the calls of hooked.Validate; the tests that use it do
// not run in parallel.
var hookCalls int

func (h *hooked) Validate() error {
	hookCalls++
	switch {
	case h.End < h.Start:
		return errors.New("end must not be before start")
	case h.Start == 99:
		return &Errors{Problems: []Problem{{Kind: OutOfRange, Path: "start", Detail: "start must not be 99"}}}
	case h.Start == 98:
		return errors.New("")
	}
	return nil
}

func TestDecodeCallsValidate(t *testing.T) {
	s := mustSchema[hooked](t)
	tests := []struct {
		name  string
		args  string
		want  []string
		kinds []Kind
		calls int
	}{
		{name: "valid arguments pass the hook", args: `{"start":1,"end":2}`, calls: 1},
		{name: "the hook sees defaults", args: `{"start":11}`, want: []string{"end must not be before start"}, kinds: []Kind{Other}, calls: 1},
		{name: "the hook's sentence is the message", args: `{"start":5,"end":1}`, want: []string{"end must not be before start"}, kinds: []Kind{Other}, calls: 1},
		{name: "the hook may return problems", args: `{"start":99,"end":100}`, want: []string{"start must not be 99"}, kinds: []Kind{OutOfRange}, calls: 1},
		{name: "an empty hook error still reads", args: `{"start":98,"end":100}`, want: []string{"arguments were rejected by the tool"}, kinds: []Kind{Other}, calls: 1},
		{name: "the hook is not called for invalid arguments", args: `{"end":1}`, want: []string{`missing required argument "start" (an integer); add it`}, kinds: []Kind{MissingRequired}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hookCalls = 0
			var v hooked
			_, err := s.Decode([]byte(tt.args), &v)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				ps := problemsOf(t, err)
				if got := messages(ps, English); !slices.Equal(got, tt.want) {
					t.Errorf("messages = %q, want %q", got, tt.want)
				}
				for i, p := range ps {
					if p.Kind != tt.kinds[i] {
						t.Errorf("kind = %v, want %v", p.Kind, tt.kinds[i])
					}
				}
			}
			if hookCalls != tt.calls {
				t.Errorf("Validate was called %d times, want %d", hookCalls, tt.calls)
			}
		})
	}
}

func TestDecodeSpecialTypes(t *testing.T) {
	type in struct {
		When   time.Time         `json:"when,omitempty"`
		Data   []byte            `json:"data,omitempty"`
		Any    any               `json:"any,omitempty"`
		Raw    json.RawMessage   `json:"raw,omitempty"`
		Labels map[string]string `json:"labels,omitempty" chars:"text"`
		Fixed  [2]int            `json:"fixed,omitempty"`
	}
	s := mustSchema[in](t)
	t.Run("each special type decodes", func(t *testing.T) {
		var v in
		args := `{"when":"2024-02-03T04:05:06Z","data":"aGk=","any":{"n":1,"list":[true,"x",null]},"raw":{"b":[1, 2],"a":"<x>"},"labels":{"k1":"v 1"},"fixed":[1,2]}`
		if _, err := s.Decode([]byte(args), &v); err != nil {
			t.Fatal(err)
		}
		if !v.When.Equal(time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC)) {
			t.Errorf("When = %v", v.When)
		}
		if string(v.Data) != "hi" {
			t.Errorf("Data = %q", v.Data)
		}
		if want := map[string]any{"n": 1.0, "list": []any{true, "x", nil}}; !reflect.DeepEqual(v.Any, want) {
			t.Errorf("Any = %#v", v.Any)
		}
		if string(v.Raw) != `{"a":"<x>","b":[1,2]}` {
			t.Errorf("Raw = %s", v.Raw)
		}
		if v.Labels["k1"] != "v 1" || v.Fixed != [2]int{1, 2} {
			t.Errorf("got %+v", v)
		}
	})
	refused := []struct {
		name string
		args string
		want string
	}{
		{name: "a date that is not RFC 3339", args: `{"when":"yesterday"}`, want: `"when" must be a date-time like 2006-01-02T15:04:05Z, got "yesterday"`},
		{name: "bytes that are not base64", args: `{"data":"***"}`, want: `"data" must be base64-encoded (standard alphabet, padded), got "***"`},
		{name: "a map key the key class refuses", args: `{"labels":{"a b":"x"}}`, want: `"labels" has key "a b": character ' ' at position 2 is not allowed; use letters, digits, '_' and '-'`},
		{name: "a map value the class refuses", args: `{"labels":{"k":"a\u0000"}}`, want: `"labels.k": invisible character U+0000 at position 2 is not allowed; remove it`},
		{name: "a fixed array of the wrong length", args: `{"fixed":[1]}`, want: `"fixed" must have at least 2 items, got 1`},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Decode([]byte(tt.args), new(in))
			if got := messages(problemsOf(t, err), English); !slices.Equal(got, []string{tt.want}) {
				t.Errorf("Decode(%s) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}

func TestDecodeRefusesMisuse(t *testing.T) {
	s := mustSchema[listIn](t)
	var wrong editIn
	var nilPtr *listIn
	tests := []struct {
		name string
		dst  any
	}{
		{name: "a nil destination", dst: nil},
		{name: "a struct instead of a pointer", dst: listIn{}},
		{name: "a nil pointer", dst: nilPtr},
		{name: "a pointer to another type", dst: &wrong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Decode([]byte(`{"path":"."}`), tt.dst)
			var errs *Errors
			if err == nil || errors.As(err, &errs) {
				t.Fatalf("error = %v, want a misuse error", err)
			}
			if !strings.Contains(err.Error(), "dst must be a non-nil *schemagen.listIn") {
				t.Errorf("error = %v", err)
			}
		})
	}
}

func TestDecodeLeavesDestinationOnFailure(t *testing.T) {
	s := mustSchema[listIn](t)
	v := listIn{Path: "keep"}
	if _, err := s.Decode([]byte(`{"path":"a","head":-1}`), &v); err == nil {
		t.Fatal("want an error")
	}
	if v.Path != "keep" {
		t.Errorf("dst changed to %+v", v)
	}
}

func TestDecodeReplacesDestination(t *testing.T) {
	s := mustSchema[listIn](t)
	v := listIn{Head: 7, Exclude: []string{"old"}}
	if _, err := s.Decode([]byte(`{"path":"a"}`), &v); err != nil {
		t.Fatal(err)
	}
	if want := (listIn{Path: "a", Sort: "name"}); !reflect.DeepEqual(v, want) {
		t.Errorf("got %+v, want %+v", v, want)
	}
}
