package schemagen

import (
	"bytes"
	"encoding/json"
	"flag"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestSchemaMatchesGoldenFile(t *testing.T) {
	tests := []struct {
		name   string
		golden string
		build  func() (*Schema, error)
	}{
		{name: "the input schema of a representative struct", golden: "edit_in.golden.json", build: For[editIn]},
		{name: "the output schema of a representative struct", golden: "edit_out.golden.json", build: ForOutput[editOut]},
		{name: "the input schema of the five-field list tool", golden: "list_in.golden.json", build: For[listIn]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.build()
			if err != nil {
				t.Fatal(err)
			}
			got := s.JSON()
			file := filepath.Join("testdata", tt.golden)
			if *update {
				var pretty bytes.Buffer
				if err := json.Indent(&pretty, got, "", "  "); err != nil {
					t.Fatal(err)
				}
				pretty.WriteByte('\n')
				if err := os.WriteFile(file, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, want); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, compact.Bytes()) {
				t.Errorf("schema differs from %s (run go test -update and review the diff)\ngot:  %s\nwant: %s", file, got, compact.Bytes())
			}
		})
	}
}

func TestSchemaShape(t *testing.T) {
	s := mustSchema[editIn](t)
	var doc map[string]any
	if err := json.Unmarshal(s.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	t.Run("the top level is an object without references or identifiers", func(t *testing.T) {
		if doc["type"] != "object" {
			t.Errorf("type = %v, want object", doc["type"])
		}
		for _, k := range []string{"$ref", "$defs", "$schema", "$id", "definitions"} {
			if strings.Contains(string(s.JSON()), `"`+k+`"`) {
				t.Errorf("schema contains %s", k)
			}
		}
	})
	t.Run("every object forbids additional properties where enforced, and says so only there", func(t *testing.T) {
		enforced, err := document(s.root, s.input, true)
		if err != nil {
			t.Fatal(err)
		}
		var full map[string]any
		if err := json.Unmarshal(enforced, &full); err != nil {
			t.Fatal(err)
		}
		var visit func(v any, at string, want any)
		visit = func(v any, at string, want any) {
			m, ok := v.(map[string]any)
			if !ok {
				return
			}
			if m["type"] == "object" && m["properties"] != nil && m["additionalProperties"] != want {
				t.Errorf("object at %s: additionalProperties %v, want %v", at, m["additionalProperties"], want)
			}
			for k, e := range m {
				visit(e, at+"/"+k, want)
			}
		}
		visit(full, "", false)
		visit(doc, "", nil)
	})
	t.Run("properties follow the struct's field order", func(t *testing.T) {
		want := []string{"path", "mode", "edits", "include", "limit", "level", "owner", "ratio", "options", "env", "formula", "tag", "big"}
		if got := s.Properties(); !slices.Equal(got, want) {
			t.Errorf("Properties() = %v, want %v", got, want)
		}
		props := string(s.JSON())
		last := -1
		for _, name := range want {
			i := strings.Index(props, `"`+name+`":`)
			if i < last {
				t.Errorf("property %q is out of order in the JSON", name)
			}
			last = i
		}
	})
	t.Run("required means no omitempty, no pointer and no default", func(t *testing.T) {
		got := doc["required"]
		want := []any{"path", "edits"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("required = %v, want %v", got, want)
		}
	})
	t.Run("JSON returns the same bytes every time", func(t *testing.T) {
		a, b := s.JSON(), s.JSON()
		if &a[0] != &b[0] {
			t.Error("JSON() built a new slice")
		}
	})
	t.Run("Type is the struct type", func(t *testing.T) {
		if s.Type() != reflect.TypeFor[editIn]() {
			t.Errorf("Type() = %v", s.Type())
		}
	})
}

func TestSchemaKeywords(t *testing.T) {
	type sub struct {
		A string `json:"a"`
	}
	type in struct {
		Described  string            `json:"described" description:"Said with a comma, and with format=email,minItems=3 in it"`
		Count      uint16            `json:"count"`
		Small      int8              `json:"small"`
		Wide       uint64            `json:"wide"`
		Any        any               `json:"any,omitempty" description:"Anything"`
		Raw        json.RawMessage   `json:"raw,omitempty"`
		When       time.Time         `json:"when,omitempty"`
		Data       []byte            `json:"data,omitempty"`
		Fixed      [2]int            `json:"fixed,omitempty"`
		Labels     map[string]string `json:"labels,omitempty" keychars:"text" chars:"path"`
		Scores     map[string]int    `json:"scores,omitempty"`
		Patterned  string            `json:"patterned,omitempty" pattern:"^v[0-9]+$" chars:"text"`
		Items      []*sub            `json:"items,omitempty"`
		Embedded   `json:"embedded,omitempty"`
		Numbers    []float32 `json:"numbers,omitempty" minimum:"-1.5" maximum:"1.5" enum:"-1.5,0,1.5"`
		PointerDef *int      `json:"pointer_def" default:"7"`
		NonEmpty   string    `json:"non_empty,omitempty" chars:"text" minLength:"1" maxLength:"9"`
		Two        string    `json:"two,omitempty" chars:"text" minLength:"2"`
	}
	s, err := For[in]()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(s.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		prop string
		want string
	}{
		{name: "a description keeps its commas and smuggles in no keyword", prop: "described",
			want: `{"type":"string","description":"Said with a comma, and with format=email,minItems=3 in it"}`},
		{name: "uint16 gets its range", prop: "count", want: `{"type":"integer","maximum":65535,"minimum":0}`},
		{name: "int8 gets its range", prop: "small", want: `{"type":"integer","maximum":127,"minimum":-128}`},
		{name: "uint64 gets only its minimum", prop: "wide", want: `{"type":"integer","minimum":0}`},
		{name: "any accepts any value", prop: "any", want: `{"description":"Anything"}`},
		{name: "json.RawMessage accepts any value", prop: "raw", want: `true`},
		{name: "time.Time is a date-time string", prop: "when", want: `{"type":"string","format":"date-time"}`},
		{name: "[]byte is a base64 string", prop: "data", want: `{"type":"string","contentEncoding":"base64"}`},
		{name: "a fixed array has its length", prop: "fixed", want: `{"items":{"type":"integer"},"type":"array","maxItems":2,"minItems":2}`},
		{name: "a map has classes for keys and values", prop: "labels",
			want: `{"additionalProperties":{"type":"string"},"type":"object"}`},
		{name: "map keys default to ident", prop: "scores",
			want: `{"additionalProperties":{"type":"integer"},"type":"object"}`},
		{name: "a pattern tag replaces the class pattern", prop: "patterned",
			want: `{"type":"string","pattern":"^v[0-9]+$"}`},
		{name: "a slice of struct pointers is an array of objects", prop: "items",
			want: `{"items":{"properties":{"a":{"type":"string"}},"type":"object","required":["a"]},"type":"array"}`},
		{name: "an embedded struct with a json name is a property", prop: "embedded",
			want: `{"properties":{"inner":{"type":"string"}},"type":"object","required":["inner"]}`},
		{name: "number tags on a slice apply to its elements", prop: "numbers",
			want: `{"items":{"type":"number","enum":[-1.5,0,1.5],"maximum":1.5,"minimum":-1.5},"type":"array"}`},
		{name: "a pointer with a default shows it", prop: "pointer_def", want: `{"type":"integer","default":7}`},
		{name: "a minLength of 1 is enforced, not published", prop: "non_empty", want: `{"type":"string","maxLength":9}`},
		{name: "a minLength above 1 is published", prop: "two", want: `{"type":"string","minLength":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := doc.Properties[tt.prop]
			if !ok {
				t.Fatalf("no property %q", tt.prop)
			}
			if string(got) != compactJSON(t, tt.want) && string(got) != tt.want {
				t.Errorf("property %q\ngot:  %s\nwant: %s", tt.prop, got, tt.want)
			}
		})
	}
	t.Run("pointers and defaults are optional, plain fields required", func(t *testing.T) {
		want := []string{"described", "count", "small", "wide"}
		if !slices.Equal(doc.Required, want) {
			t.Errorf("required = %v, want %v", doc.Required, want)
		}
	})
}

// Embedded is embedded with a json name, so it is a property.
type Embedded struct {
	Inner string `json:"inner"`
}

// Promoted is embedded without a json name, so its fields are promoted.
type Promoted struct {
	Shared string `json:"shared" chars:"text"`
}

func TestEmbeddedFieldsArePromoted(t *testing.T) {
	type in struct {
		Promoted
		Own string `json:"own"`
	}
	s := mustSchema[in](t)
	if got, want := s.Properties(), []string{"shared", "own"}; !slices.Equal(got, want) {
		t.Fatalf("Properties() = %v, want %v", got, want)
	}
	var v in
	if _, err := s.Decode([]byte(`{"shared":"a b","own":"x"}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.Shared != "a b" || v.Own != "x" {
		t.Errorf("decoded %+v", v)
	}
}

func TestOutputSchema(t *testing.T) {
	s, err := ForOutput[editOut]()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(s.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	t.Run("required is everything without omitempty, pointers included", func(t *testing.T) {
		if want := []string{"files", "count", "next", "meta"}; !slices.Equal(doc.Required, want) {
			t.Errorf("required = %v, want %v", doc.Required, want)
		}
	})
	t.Run("nil-able properties accept null", func(t *testing.T) {
		for _, p := range []string{"files", "next", "meta"} {
			if !strings.Contains(string(doc.Properties[p]), `"null"`) {
				t.Errorf("%s = %s, want null allowed", p, doc.Properties[p])
			}
		}
	})
	t.Run("strings have no character class", func(t *testing.T) {
		if strings.Contains(string(s.JSON()), "pattern") {
			t.Errorf("output schema has a pattern: %s", s.JSON())
		}
	})
	t.Run("a result with nil slices and maps validates", func(t *testing.T) {
		b, err := json.Marshal(editOut{Count: 2, Note: "a\x00b"})
		if err != nil {
			t.Fatal(err)
		}
		var out editOut
		if _, err := s.Decode(b, &out); err != nil {
			t.Fatalf("Decode(%s): %v", b, err)
		}
		if out.Count != 2 || out.Files != nil || out.Next != nil || out.Note != "a\x00b" {
			t.Errorf("decoded %+v", out)
		}
	})
	t.Run("output schemas do not coerce", func(t *testing.T) {
		_, err := s.Decode([]byte(`{"files":[],"count":"2","next":null,"meta":{}}`), new(editOut))
		if got := messages(problemsOf(t, err), English); !slices.Equal(got, []string{`"count" must be an integer, got "2" (a string)`}) {
			t.Errorf("messages = %q", got)
		}
	})
}

// Types for registration errors.
type (
	recDirect    struct{ Next *recDirect }
	recSlice     struct{ Children []recSlice }
	recMap       struct{ Index map[string]recMap }
	recIndirectA struct{ B recIndirectB }
	recIndirectB struct{ Items []*recIndirectA }
	recOuter     struct {
		Name string       `json:"name"`
		Tree recIndirectA `json:"tree"`
	}
	customText string
)

func (c *customText) UnmarshalText([]byte) error { return nil }

func TestNewRefuses(t *testing.T) {
	type twin struct {
		X string // named X by encoding/json
		Y string `json:"X"`
	}
	type embeddedPointer struct{ *Promoted }
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{name: "a nil type", typ: nil, want: "schemagen.New: the type is nil"},
		{name: "an int", typ: reflect.TypeFor[int](), want: "int is not a struct or a pointer to a struct"},
		{name: "a pointer to an int", typ: reflect.TypeFor[*int](), want: "*int is not a struct"},
		{name: "a slice", typ: reflect.TypeFor[[]editIn](), want: "is not a struct"},
		{name: "a map", typ: reflect.TypeFor[map[string]any](), want: "is not a struct"},
		{name: "a struct that contains itself through a pointer", typ: reflect.TypeFor[recDirect](),
			want: "type schemagen.recDirect is recursive: recDirect.Next leads back to recDirect"},
		{name: "a struct that contains itself through a slice", typ: reflect.TypeFor[recSlice](),
			want: "recSlice.Children[] leads back to recSlice"},
		{name: "a struct that contains itself through a map", typ: reflect.TypeFor[recMap](),
			want: "recMap.Index[key] leads back to recMap"},
		{name: "a struct that contains itself through another struct", typ: reflect.TypeFor[recOuter](),
			want: "type schemagen.recIndirectA is recursive: recIndirectA.B.Items[] leads back to recIndirectA"},
		{name: "a channel field", typ: reflect.TypeOf(struct {
			C chan int `json:"c"`
		}{}), want: "field C: type chan int (kind chan) is not supported"},
		{name: "a func field", typ: reflect.TypeOf(struct {
			F func() `json:"f"`
		}{}), want: "field F: type func() (kind func) is not supported"},
		{name: "a complex field", typ: reflect.TypeOf(struct {
			Z complex128 `json:"z"`
		}{}), want: "field Z: type complex128 (kind complex128) is not supported"},
		{name: "an interface with methods", typ: reflect.TypeOf(struct {
			E error `json:"e"`
		}{}), want: "field E: interface type error is not supported"},
		{name: "a map with integer keys", typ: reflect.TypeOf(struct {
			M map[int]string `json:"m"`
		}{}), want: "field M: map key type int is not supported"},
		{name: "a pointer to a pointer", typ: reflect.TypeOf(struct {
			P **int `json:"p"`
		}{}), want: "field P: type int has more than one level of pointers"},
		{name: "a uintptr", typ: reflect.TypeOf(struct {
			U uintptr `json:"u"`
		}{}), want: "field U: type uintptr (kind uintptr) is not supported"},
		{name: "a type with its own UnmarshalText", typ: reflect.TypeOf(struct {
			IP net.IP `json:"ip"`
		}{}), want: "field IP: type net.IP has an UnmarshalText method"},
		{name: "a named string with its own UnmarshalText", typ: reflect.TypeOf(struct {
			C customText `json:"c"`
		}{}), want: "type schemagen.customText has an UnmarshalText method"},
		{name: "the json string option", typ: reflect.TypeOf(struct {
			N int `json:"n,string"`
		}{}), want: `field N: the json ",string" option is not supported`},
		{name: "the json inline option", typ: reflect.TypeOf(struct {
			Opts options `json:"opts,inline"`
		}{}), want: `field Opts: the json ",inline" option is not supported`},
		{name: "two fields with the same JSON name", typ: reflect.TypeFor[twin](),
			want: `fields X and Y both have the JSON name "X"`},
		{name: "an embedded pointer to a struct", typ: reflect.TypeFor[embeddedPointer](),
			want: "field Promoted: embedded pointers to structs are not supported"},
		{name: "a minimum that is not a number", typ: reflect.TypeOf(struct {
			N int `json:"n" minimum:"one"`
		}{}), want: `field N: minimum "one" is not a number`},
		{name: "a fractional minimum on an integer", typ: reflect.TypeOf(struct {
			N int `json:"n" minimum:"0.5"`
		}{}), want: `field N: minimum "0.5" is not an integer`},
		{name: "a maximum outside the range of uint8", typ: reflect.TypeOf(struct {
			N uint8 `json:"n" maximum:"300"`
		}{}), want: "field N: maximum 300 is outside the range of uint8 (0 to 255)"},
		{name: "a minimum above the maximum", typ: reflect.TypeOf(struct {
			N int `json:"n" minimum:"10" maximum:"1"`
		}{}), want: "field N: the lower bound 10 is greater than the upper bound 1"},
		{name: "a negative minLength", typ: reflect.TypeOf(struct {
			S string `json:"s" minLength:"-1"`
		}{}), want: `field S: minLength "-1" is not a non-negative integer`},
		{name: "minLength above maxLength", typ: reflect.TypeOf(struct {
			S string `json:"s" minLength:"5" maxLength:"2"`
		}{}), want: "field S: minLength 5 is greater than maxLength 2"},
		{name: "minItems on a fixed array", typ: reflect.TypeOf(struct {
			A [3]int `json:"a" minItems:"1"`
		}{}), want: "field A: minItems and maxItems do not apply to the fixed-length array [3]int"},
		{name: "an invalid pattern", typ: reflect.TypeOf(struct {
			S string `json:"s" pattern:"(["`
		}{}), want: `field S: pattern "([" is not a valid regular expression`},
		{name: "an enum with an empty value", typ: reflect.TypeOf(struct {
			S string `json:"s" enum:"a,,b"`
		}{}), want: `field S: enum "a,,b" has an empty value`},
		{name: "an enum with a repeated value", typ: reflect.TypeOf(struct {
			S string `json:"s" enum:"a,b,a"`
		}{}), want: `field S: enum lists "a" twice`},
		{name: "an enum value the character class refuses", typ: reflect.TypeOf(struct {
			S string `json:"s" enum:"a b,c"`
		}{}), want: `field S: enum value "a b" has character ' ' at byte 1, which chars class "ident" refuses`},
		{name: "an integer enum that is not a number", typ: reflect.TypeOf(struct {
			N int `json:"n" enum:"1,two"`
		}{}), want: `field N: enum value "two" is not a number`},
		{name: "an enum on a boolean", typ: reflect.TypeOf(struct {
			B bool `json:"b" enum:"true"`
		}{}), want: "field B: tag enum does not apply to a field of type bool"},
		{name: "minLength on an integer", typ: reflect.TypeOf(struct {
			N int `json:"n" minLength:"1"`
		}{}), want: "field N: tag minLength does not apply to a field of type int"},
		{name: "chars on an integer", typ: reflect.TypeOf(struct {
			N []int `json:"n" chars:"text"`
		}{}), want: "field N: tag chars does not apply to a field of type []int"},
		{name: "an unknown character class", typ: reflect.TypeOf(struct {
			S string `json:"s" chars:"pth"`
		}{}), want: `field S: chars: unknown character class "pth"; use one of ident, expr, path, glob, text`},
		{name: "an unknown key character class", typ: reflect.TypeOf(struct {
			M map[string]int `json:"m" keychars:"any"`
		}{}), want: `field M: keychars: unknown character class "any"`},
		{name: "a misspelt tag", typ: reflect.TypeOf(struct {
			S string `json:"s" minlength:"1"`
		}{}), want: `field S: tag "minlength" is misspelt; write "minLength"`},
		{name: "a jsonschema tag", typ: reflect.TypeOf(struct {
			N int `json:"n" jsonschema:"minimum=1"`
		}{}), want: `field N: jsonschema:"minimum=1" is not supported; write description:"..." and the constraint tags`},
		{name: "a jsonschema description", typ: reflect.TypeOf(struct {
			S string `json:"s" jsonschema:"description=the name"`
		}{}), want: `field S: jsonschema:"description=the name" is not supported; write description:"..."`},
		{name: "jsonschema_extras", typ: reflect.TypeOf(struct {
			S string `json:"s" jsonschema_extras:"x=1"`
		}{}), want: `field S: tag "jsonschema_extras" is not supported`},
		{name: "a string default outside its enum", typ: reflect.TypeOf(struct {
			Sort string `json:"sort" enum:"name,size" default:"date"`
		}{}), want: `field Sort: default "date" is invalid: "sort" must be one of "name", "size"; got "date"`},
		{name: "a default the character class refuses", typ: reflect.TypeOf(struct {
			S string `json:"s" default:"a b"`
		}{}), want: `field S: default "a b" is invalid: "s": character ' ' at position 2 is not allowed; use letters, digits, '_' and '-'`},
		{name: "a default above the maximum", typ: reflect.TypeOf(struct {
			N int `json:"n" maximum:"10" default:"11"`
		}{}), want: `field N: default 11 is invalid: "n" must be at most 10, got 11`},
		{name: "a default that is not JSON", typ: reflect.TypeOf(struct {
			N int `json:"n" default:"ten"`
		}{}), want: `field N: default "ten" is not a JSON value for a integer field`},
		{name: "a fractional default for an integer", typ: reflect.TypeOf(struct {
			N int `json:"n" default:"2.5"`
		}{}), want: `field N: default 2.5 is invalid: "n" must be an integer, got 2.5 (a number)`},
		{name: "a quoted default for an integer", typ: reflect.TypeOf(struct {
			N int `json:"n" default:"\"2\""`
		}{}), want: `field N: default "2" is invalid: "n" must be an integer, got "2" (a string)`},
		{name: "a default of the wrong type inside a nested struct", typ: reflect.TypeOf(struct {
			Opts struct {
				Items []string `json:"items" default:"\"a\""`
			} `json:"opts"`
		}{}), want: `field Opts.Items: default "a" is invalid: "items" must be an array, got "a" (a string)`},
		{name: "a default date that does not parse", typ: reflect.TypeOf(struct {
			When time.Time `json:"when" default:"\"yesterday\""`
		}{}), want: `field When: default "yesterday" is invalid: "when" must be a date-time like 2006-01-02T15:04:05Z, got "yesterday"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.typ)
			if err == nil {
				t.Fatalf("New(%v) = %s, want an error containing %q", tt.typ, s.JSON(), tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New(%v) error:\n  %v\nwant it to contain:\n  %s", tt.typ, err, tt.want)
			}
			if tt.typ != nil && !strings.HasPrefix(err.Error(), "schemagen.New(") {
				t.Errorf("error %q does not say which type failed", err)
			}
		})
	}
}

func TestNewAcceptsPointerToStruct(t *testing.T) {
	s, err := New(reflect.TypeFor[*listIn]())
	if err != nil {
		t.Fatal(err)
	}
	var v listIn
	if _, err := s.Decode([]byte(`{"path":"."}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.Path != "." {
		t.Errorf("Path = %q", v.Path)
	}
}

func TestNewOutputAllowsWhatInputsRefuse(t *testing.T) {
	type out struct {
		Name string `json:"name" chars:"text"`
		Key  string `json:"key"`
	}
	s, err := ForOutput[out]()
	if err != nil {
		t.Fatal(err)
	}
	var v out
	if _, err := s.Decode([]byte(`{"name":"a\u0000b","key":"a b"}`), &v); err != nil {
		t.Errorf("output Decode: %v", err)
	}
}

func TestPropertiesOfClassFindsThePathArguments(t *testing.T) {
	type args struct {
		Source string   `json:"source" chars:"path" description:"s"`
		Names  []string `json:"names,omitempty" chars:"path" description:"n"`
		Query  string   `json:"query" chars:"text" description:"q"`
		Depth  int      `json:"depth,omitempty" description:"d"`
	}
	s, err := For[args]()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.PropertiesOfClass(security.ClassPath), ","); got != "source,names" {
		t.Fatalf("got %s", got)
	}
}
