// Package jsonschemamodel gives the document of a [schemagen.Schema] as
// github.com/invopop/jsonschema's document model, a [jsonschema.Schema]
// with a field for every keyword of JSON Schema 2020-12: for programs that
// want to inspect a tool's schema, or extend it for another use (a title,
// examples, an OpenAPI description), with a complete model rather than a
// map of any.
//
//	in, err := schemagen.For[ReadIn]()
//	...
//	doc, err := jsonschemamodel.Of(in)
//	for name, p := range doc.Properties.FromOldest() {
//		fmt.Println(name, p.Type, p.Description)
//	}
//
// # What the model holds
//
// [Of] reads the document that [schemagen.Schema.JSON] publishes, the one
// a tools/list answer carries, so the model is that document and nothing
// else; [Parse] reads a document given as JSON, such as a tool's saved
// schema. Encoding
// the model with encoding/json (invopop's MarshalJSON) gives the document
// back byte for byte: the keywords come in the order invopop's Schema
// declares them, which is the order schemagen writes them in, and
// properties keep their order. The one difference is in strings holding
// characters that do not print, which schemagen writes as \uXXXX escapes
// and encoding/json writes as they are; both mean the same string.
// TestDocumentIsWhatInvopopWrites, in schemagen, holds every test type's
// document, input and output, to that.
//
// Numbers are kept as written: the bounds are json.Number fields of the
// model, and the numbers inside an enum, a default or any other value are
// json.Number too, so that an int64 bound or a decimal such as 0.10 keeps
// every digit. Two things a document may say have no field of their own
// in invopop's model, and go to [jsonschema.Schema.Extras], which invopop
// writes after the other keywords: a list of types (the "type": ["array",
// "null"] of an output property that encoding/json may write as null),
// and a default or const of null, which the model's fields could not tell
// from an absent keyword. So do keywords JSON Schema 2020-12 does not
// define.
//
// # Why a package of its own
//
// schemagen writes its documents itself and no program of this module
// links invopop/jsonschema: every package a binary links runs its
// initialisation at each start, and linking invopop costs toolserver
// 0.12 ms of package init, 12-16 page faults and 120 kB of binary (see
// "The document and invopop/jsonschema" in schemagen). A
// program that wants the model imports this package and pays that; a
// server that only publishes and checks its tools' schemas does not.
package jsonschemamodel
