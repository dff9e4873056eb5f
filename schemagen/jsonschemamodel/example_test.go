package jsonschemamodel_test

import (
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/stdiotools/toolserver/schemagen"
	"github.com/stdiotools/toolserver/schemagen/jsonschemamodel"
)

// SearchIn is the arguments of a search tool.
type SearchIn struct {
	Query string `json:"query" chars:"text" minLength:"1" description:"Text to look for"`
	Limit int    `json:"limit,omitempty" minimum:"1" maximum:"100" default:"20" description:"Most results"`
	Sort  string `json:"sort" enum:"name,date" default:"name" description:"Order of the results"`
}

func ExampleOf() {
	in, err := schemagen.For[SearchIn]()
	if err != nil {
		log.Fatal(err)
	}
	doc, err := jsonschemamodel.Of(in)
	if err != nil {
		log.Fatal(err)
	}
	for name, p := range doc.Properties.FromOldest() {
		fmt.Printf("%s (%s): %s\n", name, p.Type, p.Description)
	}
	limit, _ := doc.Properties.Get("limit")
	fmt.Println("limit from", limit.Minimum, "to", limit.Maximum, "by default", limit.Default)
	fmt.Println("required:", doc.Required)

	// Extend the document for another use: the model writes it back.
	doc.Title = "Search"
	out, err := json.Marshal(doc)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.HasSuffix(string(out), `"required":["query"],"title":"Search"}`))
	// Output:
	// query (string): Text to look for (any text except control characters other than tab and newline)
	// limit (integer): Most results
	// sort (string): Order of the results
	// limit from 1 to 100 by default 20
	// required: [query]
	// true
}
