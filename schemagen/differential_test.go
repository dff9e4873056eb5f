package schemagen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
)

// The differential tests check the native validator against an independent
// JSON Schema 2020-12 validator, santhosh-tekuri/jsonschema, run on the
// schema document itself: for every argument object, after parsing and
// coercion, both must give the same problems, and santhosh must find the
// arguments valid exactly when we find no schema problem (nor a character
// class problem, which walk reports in place of the class's pattern).

// Types beyond the shared fixtures, for the differential tests.
type (
	// boundsIn has exact and implicit bounds of every numeric kind.
	boundsIn struct {
		Small  int8              `json:"small,omitempty"`
		U64    uint64            `json:"u64,omitempty"`
		Big    int64             `json:"big,omitempty" minimum:"-9223372036854775807" maximum:"9223372036854775806"`
		Frac   float64           `json:"frac,omitempty" exclusiveMinimum:"-0.1" exclusiveMaximum:"1e-1"`
		Tiny   float64           `json:"tiny,omitempty" minimum:"1e-300" maximum:"1.5E300"`
		Both   float64           `json:"both,omitempty" minimum:"0" exclusiveMinimum:"0" maximum:"10" exclusiveMaximum:"10"`
		Enum   int               `json:"enum,omitempty" enum:"1,20,300,-4"`
		FEnum  float32           `json:"fenum,omitempty" enum:"0.5,1e1,-2.25"`
		Ints   []int16           `json:"ints,omitempty" minItems:"2" maxItems:"3" minimum:"-5" maximum:"5"`
		Grid   [][2]uint8        `json:"grid,omitempty"`
		Exact  float64           `json:"exact,omitempty" minimum:"0.1" maximum:"0.30000000000000004"`
		Neg    int32             `json:"neg,omitempty" exclusiveMaximum:"0"`
		Counts map[string]uint16 `json:"counts,omitempty"`
	}
	// textIn has every string constraint and the special types.
	textIn struct {
		Short   string            `json:"short,omitempty" chars:"text" minLength:"2" maxLength:"3"`
		Digit   string            `json:"digit,omitempty" chars:"text" pattern:"[0-9]"`
		Anchor  string            `json:"anchor,omitempty" chars:"path" pattern:"^a.c$" maxLength:"4"`
		Color   string            `json:"color,omitempty" enum:"red,green,blue"`
		Colors  []string          `json:"colors,omitempty" enum:"red,green" minItems:"1"`
		Ident   string            `json:"ident,omitempty" maxLength:"5"`
		When    time.Time         `json:"when,omitempty"`
		Whens   []time.Time       `json:"whens,omitempty"`
		Maybe   *time.Time        `json:"maybe,omitempty"`
		Data    []byte            `json:"data,omitempty"`
		Any     any               `json:"any,omitempty"`
		Anys    []any             `json:"anys,omitempty"`
		Raw     json.RawMessage   `json:"raw,omitempty"`
		Free    map[string]any    `json:"free,omitempty" keychars:"text"`
		Lists   map[string][]int  `json:"lists,omitempty"`
		Nested  map[string]edit   `json:"nested,omitempty"`
		Labels  map[string]string `json:"labels,omitempty" keychars:"text" chars:"path" maxLength:"2"`
		Pointer *string           `json:"pointer,omitempty" enum:"x,y"`
		Deep    [][]edit          `json:"deep,omitempty" maxItems:"2"`
		Flag    bool              `json:"flag"`
	}
	// nullableOut is an output type with every nullable kind.
	nullableOut struct {
		Name   *string           `json:"name" enum:"a,b"`
		Count  *int              `json:"count" minimum:"1"`
		When   *time.Time        `json:"when"`
		List   []*int            `json:"list"`
		Map    map[string]*edit  `json:"map"`
		Sub    *edit             `json:"sub"`
		Any    any               `json:"any"`
		Opt    *string           `json:"opt,omitempty" pattern:"^[a-z]+$"`
		Texts  map[string]string `json:"texts" minLength:"1"`
		Nested [][]string        `json:"nested"`
	}
)

// Copies of the argument and result types of the tools, which the tests
// of this package cannot import.
type (
	calcArgs struct {
		Expr      string `json:"expr" chars:"expr" minLength:"1" maxLength:"4096"`
		Precision int    `json:"precision" default:"30" minimum:"1" maximum:"1000"`
	}
	editFileArgs struct {
		Path   string `json:"path" chars:"path" minLength:"1"`
		Edits  []edit `json:"edits" minItems:"1" maxItems:"50"`
		DryRun bool   `json:"dry_run,omitempty"`
	}
	listDirectoryArgs struct {
		Path   string `json:"path" chars:"path" default:"."`
		Sizes  bool   `json:"sizes,omitempty"`
		Sort   string `json:"sort" enum:"name,size,modified" default:"name"`
		Offset int    `json:"offset,omitempty" minimum:"0"`
	}
	grepArgs struct {
		Path       string `json:"path" chars:"path" default:"."`
		Query      string `json:"query" chars:"text" minLength:"1"`
		Regex      bool   `json:"regex,omitempty"`
		IgnoreCase bool   `json:"ignore_case,omitempty"`
		Glob       string `json:"glob,omitempty" chars:"glob"`
		MaxResults int    `json:"max_results,omitempty" minimum:"1"`
	}
	fileInfo struct {
		Path     string     `json:"path"`
		Size     int64      `json:"size"`
		Modified time.Time  `json:"modified"`
		Accessed *time.Time `json:"accessed,omitempty"`
		Entries  *int       `json:"entries,omitempty"`
	}
	listEntry struct {
		Name     string     `json:"name"`
		Size     *int64     `json:"size,omitempty"`
		Modified *time.Time `json:"modified,omitempty"`
	}
	listDirectoryResult struct {
		Path    string      `json:"path"`
		Entries []listEntry `json:"entries"`
		Bytes   *int64      `json:"bytes,omitempty"`
	}
)

// differential is one schema with the santhosh compilation of its document.
type differential struct {
	name     string
	schema   *Schema
	santhosh *santhosh.Schema
}

// differentialTypes are the struct types whose input and output schemas
// the differential tests use.
var differentialTypes = []reflect.Type{
	reflect.TypeFor[listIn](),
	reflect.TypeFor[editIn](),
	reflect.TypeFor[editOut](),
	reflect.TypeFor[kindsIn](),
	reflect.TypeFor[coerceIn](),
	reflect.TypeFor[boundsIn](),
	reflect.TypeFor[textIn](),
	reflect.TypeFor[nullableOut](),
	reflect.TypeFor[calcArgs](),
	reflect.TypeFor[editFileArgs](),
	reflect.TypeFor[listDirectoryArgs](),
	reflect.TypeFor[grepArgs](),
	reflect.TypeFor[fileInfo](),
	reflect.TypeFor[listDirectoryResult](),
}

// differentials builds, once, the input and output schemas of the
// differential types, keyed like "textIn" and "textIn/out".
var differentials = sync.OnceValue(func() map[string]differential {
	m := make(map[string]differential)
	for _, t := range differentialTypes {
		for _, out := range []bool{false, true} {
			build, name := New, t.Name()
			if out {
				build, name = NewOutput, name+"/out"
			}
			s, err := build(t)
			if err != nil {
				continue // an input type whose default an output schema refuses, say
			}
			doc, err := document(s.root, s.input, true)
			if err != nil {
				panic(fmt.Sprintf("the enforced document of %s: %v", name, err))
			}
			sch, err := compileSanthosh(doc)
			if err != nil {
				panic(fmt.Sprintf("santhosh refuses the schema of %s: %v", name, err))
			}
			m[name] = differential{name: name, schema: s, santhosh: sch}
		}
	}
	return m
})

// differentialNames returns the keys of differentials in a fixed order.
func differentialNames() []string {
	var names []string
	for name := range differentials() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// agreement parses and coerces args for d's schema, validates the result
// with both validators and returns a description of any disagreement ("" when
// they agree). It also returns whether the arguments reached validation.
func (d differential) agreement(args []byte) (disagreement string, validated bool) {
	obj, p := parseArgs(args)
	if p != nil {
		return "", false
	}
	s := d.schema
	walked := checker{input: s.input, root: s.root}
	walked.walk(s.root, obj, make(path, 0, 8))

	native := checker{input: s.input, root: s.root}
	native.validate(s.root, obj, make(path, 0, 8))
	old := checker{input: s.input, root: s.root}
	old.santhoshValidate(d.santhosh, s.root, obj, nil)

	if got, want := problemTexts(native.problems), problemTexts(old.problems); !slices.Equal(got, want) {
		return fmt.Sprintf("problems differ\nnative:   %s\nsanthosh: %s", strings.Join(got, "\n          "), strings.Join(want, "\n          ")), true
	}
	// What Decode returns: the problems of both stages, pruned and sorted.
	final := func(ps []Problem) []string {
		errs := newErrors(append(slices.Clone(walked.problems), ps...))
		out := make([]string, len(errs.Problems))
		for i, p := range errs.Problems {
			out[i] = fmt.Sprintf("%+v", p)
		}
		return out
	}
	if got, want := final(native.problems), final(old.problems); !slices.Equal(got, want) {
		return fmt.Sprintf("reported problems differ\nnative:   %s\nsanthosh: %s", strings.Join(got, "\n          "), strings.Join(want, "\n          ")), true
	}
	// The document publishes no character class, which the server
	// enforces all the same: santhosh judges the rest of the document,
	// and walk must refuse a value that breaks its class.
	santhoshValid := d.santhosh.Validate(obj) == nil
	if nativeValid := len(native.problems) == 0; nativeValid != santhoshValid {
		return fmt.Sprintf("santhosh valid = %v, native valid = %v (problems %q, walk %q)",
			santhoshValid, nativeValid, problemTexts(native.problems), problemTexts(walked.problems)), true
	}
	if classRefuses(s.root, obj) && len(walked.problems) == 0 {
		return "a value breaks its character class, and walk let it through", true
	}
	return "", true
}

// classRefuses reports whether a string or map key in v breaks a
// character class, which the schema document does not publish: a
// string's class unless its own pattern replaced it, and a map's key
// class. walk reports these in place of the validator.
func classRefuses(n *node, v any) bool {
	switch x := v.(type) {
	case string:
		if n.kind == jString && n.class != "" && n.userPattern == "" {
			_, _, ok := n.class.Check(x)
			return !ok
		}
	case []any:
		if n.kind == jArray {
			for _, e := range x {
				if classRefuses(n.elem, e) {
					return true
				}
			}
		}
	case map[string]any:
		for k, e := range x {
			switch n.kind {
			case jObject:
				if f := n.byName[k]; f != nil && classRefuses(f.node, e) {
					return true
				}
			case jMap:
				if _, _, ok := n.keyClass.Check(k); n.keyClass != "" && !ok {
					return true
				}
				if classRefuses(n.elem, e) {
					return true
				}
			}
		}
	}
	return false
}

// problemTexts writes problems with all their fields, sorted, so that two
// lists compare whatever order they were found in.
func problemTexts(ps []Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%+v", p)
	}
	slices.Sort(out)
	return out
}

// differentialCases are arguments for the differential test, by schema.
// Each is also a seed of the fuzz target.
var differentialCases = map[string][]string{
	"boundsIn": {
		`{}`,
		`{"small":-128,"u64":0,"big":-9223372036854775807}`,
		`{"small":-129}`, `{"small":127}`, `{"small":128}`, `{"small":127.0}`, `{"small":1.27e2}`, `{"small":12.7e1}`,
		`{"small":"-0"}`, `{"small":-0}`, `{"small":-0.0}`, `{"small":0e5}`, `{"small":1e400}`, `{"small":-1e400}`,
		`{"small":1e-400}`, `{"small":1.5}`, `{"small":"1.5"}`, `{"small":"abc"}`, `{"small":null}`, `{"small":true}`,
		`{"u64":18446744073709551615}`, `{"u64":18446744073709551616}`, `{"u64":-1}`, `{"u64":-0}`, `{"u64":1.8446744073709551615e19}`,
		`{"big":9223372036854775806}`, `{"big":9223372036854775807}`, `{"big":-9223372036854775808}`,
		`{"big":9223372036854775806.0}`, `{"big":92233720368547758060e-1}`, `{"big":1e19}`, `{"big":-1e19}`,
		`{"frac":-0.1}`, `{"frac":-0.09999999999999999999}`, `{"frac":0.1}`, `{"frac":0.09999999999999999}`, `{"frac":1e-1}`,
		`{"frac":0.1000000000000000000001}`, `{"frac":-0.10000000000000000001}`, `{"frac":0}`, `{"frac":-0}`,
		`{"tiny":1e-300}`, `{"tiny":9.9999999999999999e-301}`, `{"tiny":0}`, `{"tiny":1.5e300}`, `{"tiny":1.50000000001e300}`,
		`{"tiny":15e299}`, `{"tiny":1e301}`, `{"tiny":1e-400}`,
		`{"both":0}`, `{"both":10}`, `{"both":-1}`, `{"both":11}`, `{"both":5}`, `{"both":1e-100}`,
		`{"enum":1}`, `{"enum":1.0}`, `{"enum":1e0}`, `{"enum":0.1e1}`, `{"enum":2e1}`, `{"enum":300.000}`, `{"enum":3e2}`,
		`{"enum":-4}`, `{"enum":-4.0}`, `{"enum":4}`, `{"enum":2}`, `{"enum":"20"}`, `{"enum":1.5}`, `{"enum":-0}`,
		`{"fenum":0.5}`, `{"fenum":5e-1}`, `{"fenum":0.50}`, `{"fenum":10}`, `{"fenum":1e1}`, `{"fenum":-2.25}`, `{"fenum":-225e-2}`,
		`{"fenum":0.25}`, `{"fenum":"10"}`,
		`{"ints":[1,2]}`, `{"ints":[1]}`, `{"ints":[]}`, `{"ints":[1,2,3,4]}`, `{"ints":[-5,5,6]}`, `{"ints":[-6,0]}`,
		`{"ints":[1.0,2e0]}`, `{"ints":[1.5,2]}`, `{"ints":5}`, `{"ints":"5"}`, `{"ints":[null,1]}`, `{"ints":[40000,1]}`,
		`{"grid":[[1,2],[3,4]]}`, `{"grid":[[1,2,3]]}`, `{"grid":[[1]]}`, `{"grid":[[256,0]]}`, `{"grid":[[-1,0]]}`, `{"grid":[1]}`,
		`{"grid":[[]]}`, `{"grid":[]}`, `{"grid":[[1,null]]}`,
		`{"exact":0.1}`, `{"exact":0.09999999999999999}`, `{"exact":0.3}`, `{"exact":0.30000000000000004}`,
		`{"exact":0.300000000000000041}`, `{"exact":0.30000000000000003}`,
		`{"neg":0}`, `{"neg":-0}`, `{"neg":-1}`, `{"neg":-1e-0}`, `{"neg":-2147483648}`, `{"neg":-2147483649}`,
		`{"counts":{"a":1,"b":65535,"c":65536}}`, `{"counts":{"a":-1}}`, `{"counts":{"a b":1}}`, `{"counts":{"":1}}`,
		`{"counts":[]}`, `{"counts":{"a":"7"}}`,
	},
	"boundsIn/out": {
		`{"small":1,"u64":2,"big":3,"frac":0,"tiny":1,"both":1,"enum":1,"fenum":1e1,"ints":null,"grid":null,"exact":0.2,"neg":-1,"counts":null}`,
		`{"small":"1","u64":-1,"big":1e19,"frac":0.1,"tiny":0,"both":0,"enum":5,"fenum":0.5,"ints":[1],"grid":[[1,1]],"exact":1,"neg":0,"counts":{"a b":null}}`,
	},
	"textIn": {
		`{"flag":true}`, `{}`, `{"flag":"true"}`, `{"flag":1}`,
		`{"flag":true,"short":"ab"}`, `{"flag":true,"short":"a"}`, `{"flag":true,"short":"abcd"}`, `{"flag":true,"short":""}`,
		`{"flag":true,"short":"😀😀"}`, `{"flag":true,"short":"😀😀😀😀"}`, `{"flag":true,"short":"é"}`, `{"flag":true,"short":"e\u0301"}`,
		`{"flag":true,"short":"𝄞"}`, `{"flag":true,"short":"\ud83d\ude00\ud83d\ude00\ud83d\ude00"}`, `{"flag":true,"short":"\u0000\u0001"}`,
		`{"flag":true,"digit":"x1y"}`, `{"flag":true,"digit":"xy"}`, `{"flag":true,"digit":""}`, `{"flag":true,"digit":"٣"}`,
		`{"flag":true,"anchor":"abc"}`, `{"flag":true,"anchor":"abcd"}`, `{"flag":true,"anchor":"a\\c"}`, `{"flag":true,"anchor":"a\nc"}`,
		`{"flag":true,"anchor":"aéc"}`, `{"flag":true,"anchor":"xabc"}`,
		`{"flag":true,"color":"red"}`, `{"flag":true,"color":"Red"}`, `{"flag":true,"color":""}`, `{"flag":true,"color":1}`,
		`{"flag":true,"colors":["red","green"]}`, `{"flag":true,"colors":[]}`, `{"flag":true,"colors":["blue"]}`, `{"flag":true,"colors":"red"}`,
		`{"flag":true,"ident":"abcde"}`, `{"flag":true,"ident":"abcdef"}`, `{"flag":true,"ident":"a.b"}`, `{"flag":true,"ident":"a.bcdefg"}`,
		`{"flag":true,"when":"2024-02-29T23:59:60Z"}`, `{"flag":true,"when":"2023-02-29T00:00:00Z"}`,
		`{"flag":true,"when":"2024-01-01t00:00:00z"}`, `{"flag":true,"when":"2024-01-01T00:00:00.123456789+05:30"}`,
		`{"flag":true,"when":"2024-01-01T00:00:60+00:00"}`, `{"flag":true,"when":"2024-01-01T23:59:60+00:00"}`,
		`{"flag":true,"when":"2024-01-02T00:29:60+00:30"}`, `{"flag":true,"when":"2024-01-01T23:29:60-00:30"}`,
		`{"flag":true,"when":"2024-01-01T00:00:00"}`, `{"flag":true,"when":"2024-01-01 00:00:00Z"}`, `{"flag":true,"when":"2024-1-01T00:00:00Z"}`,
		`{"flag":true,"when":"2024-01-01T00:00:00.Z"}`, `{"flag":true,"when":"2024-01-01T24:00:00Z"}`, `{"flag":true,"when":"2024-01-01T+1:+0:-0Z"}`,
		`{"flag":true,"when":"2024-01-01T00:00:00+-0:00"}`, `{"flag":true,"when":"2024-01-01T00:00:00+24:00"}`,
		`{"flag":true,"when":"0000-02-29T00:00:00Z"}`, `{"flag":true,"when":"1900-02-29T00:00:00Z"}`, `{"flag":true,"when":"2000-02-29T00:00:00Z"}`,
		`{"flag":true,"when":"2024-04-31T00:00:00Z"}`, `{"flag":true,"when":"2024-13-01T00:00:00Z"}`, `{"flag":true,"when":"2024-00-10T00:00:00Z"}`,
		`{"flag":true,"when":"yesterday"}`, `{"flag":true,"when":5}`, `{"flag":true,"when":"２０２４-01-01T00:00:00Z"}`,
		`{"flag":true,"whens":["2024-01-01T00:00:00Z","x"]}`, `{"flag":true,"whens":"2024-01-01T00:00:00Z"}`,
		`{"flag":true,"maybe":null}`, `{"flag":true,"maybe":"2024-01-01T00:00:00Z"}`,
		`{"flag":true,"data":"aGk="}`, `{"flag":true,"data":"***"}`, `{"flag":true,"data":5}`,
		`{"flag":true,"any":null}`, `{"flag":true,"any":{"a":[1,{"b":1e999999}]}}`, `{"flag":true,"anys":[1,"x",null,[],{}]}`,
		`{"flag":true,"raw":[1e999999]}`, `{"flag":true,"free":{"a b":1,"c":null}}`, `{"flag":true,"free":{"a\u0000":1}}`,
		`{"flag":true,"lists":{"a":[1,2],"b":[],"c":[1.5],"d":"x","e":null}}`, `{"flag":true,"lists":{"a":"3"}}`,
		`{"flag":true,"nested":{"k":{"old_text":"a","new_text":"b"},"j":{"old_text":""},"i":{"x":1},"h":null}}`,
		`{"flag":true,"labels":{"k":"ab","l":"abc","m":"a\\b","n":5}}`,
		`{"flag":true,"pointer":"x"}`, `{"flag":true,"pointer":"z"}`, `{"flag":true,"pointer":null}`,
		`{"flag":true,"deep":[[{"old_text":"a","new_text":"b"}],[],[{"bogus":1}]]}`, `{"flag":true,"deep":[[null]]}`,
		`{"flag":true,"deep":{"old_text":"a","new_text":"b"}}`, `{"flag":true,"deep":[{"old_text":"a","new_text":"b"}]}`,
	},
	"textIn/out": {
		`{"flag":true,"short":"\u0000","digit":"x","anchor":"abc","color":"red","colors":null,"ident":"a b","when":"2024-01-01T00:00:00Z","whens":null,"pointer":null}`,
		`{"flag":true,"maybe":null,"data":null,"any":null,"anys":null,"raw":null,"free":null,"lists":null,"nested":null,"labels":null,"deep":null}`,
		`{"flag":true,"colors":[null],"whens":[null],"lists":{"a":null},"nested":{"a":null},"deep":[null,[null]]}`,
	},
	"nullableOut": {
		`{"name":null,"count":null,"when":null,"list":null,"map":null,"sub":null,"any":null,"texts":null,"nested":null}`,
		`{"name":"a","count":1,"when":"2024-01-01T00:00:00Z","list":[1,null],"map":{"a":null,"b":{"old_text":"x","new_text":"y"}},"sub":{"old_text":"x","new_text":"y"},"any":1,"texts":{"a":""},"nested":[null,["x"]]}`,
		`{"name":"c","count":0,"when":"x","list":[1.5],"map":{"a":1},"sub":{},"any":[],"opt":"ABC","texts":{"a":"x"},"nested":[[null]]}`,
		`{"name":"a","count":1,"when":null,"list":[],"map":{},"sub":null,"any":null,"opt":null,"texts":{},"nested":[]}`,
	},
	"nullableOut/out": {
		`{"name":null,"count":null,"when":null,"list":null,"map":null,"sub":null,"any":null,"texts":null,"nested":null}`,
		`{"name":"c","count":0,"when":"x","list":[1.5],"map":{"a":1},"sub":{},"any":[],"opt":"ABC","texts":{"a":""},"nested":[[null]]}`,
		`{"name":"a","count":1,"when":"2024-01-01T00:00:00Z","list":[null,2],"map":{"a":null},"sub":null,"any":null,"opt":null,"texts":{},"nested":[null]}`,
		`{"count":1,"extra":true}`,
	},
	"editIn": {
		`{"path":"a","edits":[{"old_text":"x","new_text":"y"}]}`,
		`{"path":"","edits":[]}`,
		`{"path":"a","edits":[{"old_text":"","new_text":"y","mode":1},{"new_text":"\u0007"}],"mode":"prepend","limit":0,"level":256,"ratio":0,"options":{"suffix":"toolongsuffix"},"env":{"A B":"x"},"formula":"1;2","big":9223372036854775808}`,
		`{"path":"a","edits":[{"old_text":"x","new_text":"y"}],"ratio":1,"options":{"backup":"true"},"owner":null,"include":"*.go"}`,
		`{"path":"a","edits":[{"old_text":"x","new_text":"y"}],"ratio":1.0000000000000000001,"limit":1000.0,"level":-0}`,
		`{"path":"a","edits":{"old_text":"x","new_text":"y"},"options":null,"tag":"a b"}`,
	},
	"editOut/out": {
		`{"files":null,"count":1,"next":null,"meta":null}`,
		`{"files":["a",null],"count":1.5,"next":"x","meta":{"a":"1"},"note":5}`,
		`{"count":1}`,
	},
	"kindsIn": {
		`{"path":"a","head":5000,"tail":0,"sort":"date","level":256,"name":"ab","tags":[],"version":"x1","ident":"a b","expr":"1;2","text":"\u001b","env":{"A B":"\u0000"}}`,
		`{"path":"abcdefghijklmnop","tail":10,"tags":["a","b","c"],"version":"1.0"}`,
		`{"path":null,"head":"abc","tail":2.5,"tags":{"a":1}}`,
	},
	"listIn": {
		`{"path":"src","head":25,"recursive":true,"sort":"size","exclude":["*.tmp","vendor"]}`,
		`{"path":"src","head":"25","recursive":"true","exclude":"*.tmp"}`,
		`{"path":"a\\b","head":5000,"sort":"date","bogus":1}`,
		`{"path":"a","head":2.0,"exclude":[null]}`,
		`{"path":"a","head":-0,"sort":null}`,
		`{"path":"a","head":1e999999}`,
		`{"path":"a","head":1000.00000000000000000001}`,
	},
	"calcArgs":          {`{"expr":"1+2"}`, `{"expr":"","precision":0}`, `{"expr":"x","precision":1001}`, `{"precision":"30"}`},
	"editFileArgs":      {`{"path":"a","edits":[{"old_text":"a","new_text":"b"}]}`, `{"path":"a","edits":[{"old_txt":"a"}],"dry":true}`},
	"listDirectoryArgs": {`{}`, `{"sort":"modified","offset":-1}`, `{"sort":"date","offset":"x"}`},
	"grepArgs":          {`{"query":"x"}`, `{"query":"","max_results":0,"glob":"a\\b"}`},
	"fileInfo/out": {
		`{"path":"a","size":1,"modified":"2024-01-01T00:00:00Z"}`,
		`{"path":"a","size":1,"modified":"2024-01-01T00:00:00Z","accessed":null,"entries":null}`,
		`{"path":"a","size":1.5,"modified":"2024-01-01T25:00:00Z","accessed":"2024-01-01T00:00:60Z"}`,
	},
	"listDirectoryResult/out": {
		`{"path":"a","entries":null}`,
		`{"path":"a","entries":[{"name":"x","size":null,"modified":null},{"name":1}]}`,
	},
}

func TestValidateAgreesWithSanthosh(t *testing.T) {
	all := differentials()
	for name, cases := range differentialCases {
		d, ok := all[name]
		if !ok {
			t.Fatalf("no differential schema %q", name)
		}
		for _, args := range cases {
			msg, validated := d.agreement([]byte(args))
			if !validated {
				t.Errorf("%s: %s did not reach validation", name, args)
			}
			if msg != "" {
				t.Errorf("%s: %s\n%s", name, args, msg)
			}
		}
	}
}

func TestValidateAgreesWithSanthoshOnEveryFixture(t *testing.T) {
	// Every schema, with every argument object written for any of them:
	// mostly unknown arguments and wrong types, which must agree too.
	var every []string
	for _, cases := range differentialCases {
		every = append(every, cases...)
	}
	slices.Sort(every)
	for _, name := range differentialNames() {
		d := differentials()[name]
		for _, args := range every {
			if msg, _ := d.agreement([]byte(args)); msg != "" {
				t.Errorf("%s: %s\n%s", name, args, msg)
			}
		}
	}
}

// FuzzValidateAgreesWithSanthosh checks that the native validator and
// santhosh-tekuri/jsonschema, run on the schema document, give the same
// problems for any arguments, on every differential schema.
func FuzzValidateAgreesWithSanthosh(f *testing.F) {
	names := differentialNames()
	for name, cases := range differentialCases {
		i := slices.Index(names, name)
		for _, args := range cases {
			f.Add(uint8(i), []byte(args))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		d := differentials()[names[int(which)%len(names)]]
		if msg, _ := d.agreement(args); msg != "" {
			t.Fatalf("%s: %s\n%s", d.name, args, msg)
		}
	})
}
