package schemagen_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"

	"github.com/stdiotools/toolserver/schemagen"
)

// ReadIn is the arguments of a file-reading tool.
type ReadIn struct {
	Path string `json:"path" chars:"path" minLength:"1" description:"File to read"`
	Head int    `json:"head,omitempty" minimum:"1" maximum:"1000" description:"Only the first N lines"`
	Mode string `json:"mode" enum:"text,hex" default:"text" description:"How to show the content"`
}

func Example() {
	// At registration: build the schema once.
	schema, err := schemagen.For[ReadIn]()
	if err != nil {
		log.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(schema.JSON(), &doc); err != nil {
		log.Fatal(err)
	}
	fmt.Println("required:", doc["required"])

	// On each call: decode the arguments, or explain what is wrong.
	var in ReadIn
	report, err := schema.Decode(json.RawMessage(`{"path":"notes.txt","head":"20"}`), &in)
	fmt.Printf("%+v %v %v\n", in, report.Coercions, err)

	_, err = schema.Decode(json.RawMessage(`{"head":5000,"mode":"bin","bogus":true}`), &in)
	var errs *schemagen.Errors
	if errors.As(err, &errs) {
		fmt.Println(errs.Text(schemagen.English))
		fmt.Println(errs.Problems[0].Kind, errs.Problems[0].Path)
	}
	// Output:
	// required: [path]
	// {Path:notes.txt Head:20 Mode:text} [head: "20" → integer] <nil>
	// missing required argument "path" (a string); add it
	// "mode" must be one of "text", "hex"; got "bin"
	// "head" must be at most 1000, got 5000
	// …and 1 more
	// missing_required path
}

func ExampleErrors_Text() {
	schema, err := schemagen.For[ReadIn]()
	if err != nil {
		log.Fatal(err)
	}
	_, err = schema.Decode(json.RawMessage(`{"path":"a\\b"}`), new(ReadIn))
	fmt.Println(err.(*schemagen.Errors).Text(schemagen.Chinese))
	// Output:
	// "path"：第 2 个字符 '\' 不允许；目录之间请用 '/'
}
