package schemagen_test

import (
	"reflect"
	"testing"

	"github.com/stdiotools/toolserver/schemagen"
)

// Fields that encoding/json skips, and so the builder too, but that
// invopop/jsonschema reflects: an unexported embedded non-struct type, and
// an unexported embedded struct given a JSON name. The document must not
// list them: the validator refuses them as unknown properties.
//
//lint:ignore U1000 the field must exist to be skipped
type reviewLabel string

type reviewInner struct {
	X string `json:"x"`
}

type reviewEmbedsUnexported struct {
	reviewLabel //lint:ignore U1000 skipped by encoding/json, which is the point
	reviewInner `json:"in"`
	Y           string `json:"y"`
}

func TestDocumentListsOnlyTheFieldsJSONEncodes(t *testing.T) {
	typ := reflect.TypeFor[reviewEmbedsUnexported]()
	in, err := schemagen.New(typ)
	if err != nil {
		t.Fatal(err)
	}
	const wantIn = `{"properties":{"y":{"type":"string"}},"type":"object","required":["y"]}`
	if got := string(in.JSON()); got != wantIn {
		t.Errorf("input document:\n got %s\nwant %s", got, wantIn)
	}
	out, err := schemagen.NewOutput(typ)
	if err != nil {
		t.Fatal(err)
	}
	const wantOut = `{"properties":{"y":{"type":"string"}},"type":"object","required":["y"]}`
	if got := string(out.JSON()); got != wantOut {
		t.Errorf("output document:\n got %s\nwant %s", got, wantOut)
	}
}
