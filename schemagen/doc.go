// Package schemagen turns the Go struct types of a tool's arguments and
// results into JSON Schemas, and checks and decodes each call's arguments
// against them, with errors that a language model can act on.
//
// A tool server builds the Schema of its argument type once, at
// registration, publishes [Schema.JSON] in tools/list and calls
// [Schema.Decode] on every call:
//
//	in, err := schemagen.New(reflect.TypeFor[In]())  // or schemagen.For[In]()
//	...
//	var args In
//	report, err := in.Decode(rawArguments, &args)
//	var errs *schemagen.Errors
//	if errors.As(err, &errs) {
//		// errs.Text(lang) for the model, errs.Problems for programs.
//	}
//
// # Schemas
//
// The schema of a struct is a JSON Schema 2020-12 object written inline:
// no $ref, $defs, $schema or $id. Properties appear in the order of the
// struct's fields, and no others are accepted in any object, including
// nested structs and the elements of slices of structs (see "What a
// document leaves out" for why the document does not say so). Property names
// come from json tags; fields tagged json:"-" and unexported fields are
// left out, and embedded structs have their fields promoted as
// encoding/json does. Two fields with the same JSON name are an error.
//
// The type is walked once, by this package: the walk follows the fields
// as encoding/json does, reads the tags, and builds a tree of nodes. The
// document is written from that tree, and Decode validates against the
// same tree, so the document lists exactly the properties a call may send
// (see "The document and invopop/jsonschema" below). The root has no
// "$schema": JSON Schema 2020-12 is MCP's default dialect, and clients
// that validate with a draft-07 validator refuse a 2020-12 "$schema".
//
// Go types map to JSON as encoding/json maps them: strings, booleans,
// numbers, integers (with "minimum" and "maximum" set to the range of types
// narrower than 64 bits, and "minimum": 0 for unsigned ones), structs,
// slices and arrays, maps with string keys, time.Time (an RFC 3339
// date-time string), []byte (a base64 string), json.RawMessage and any (any
// JSON value). A pointer has the schema of what it points to; it is not made
// nullable. Channels, functions, complex numbers, interfaces with methods,
// maps with other keys, pointers to pointers and types with their own
// UnmarshalJSON, UnmarshalText or JSONSchema methods are refused, as are
// recursive types, whose error names the type and the field path that leads
// back to it. The json ",string" option is refused too.
//
// # Required properties
//
// In an input schema a property is required unless its json tag has
// omitempty or omitzero, or its field is a pointer, or it has a default.
// In an output schema (see [NewOutput]) a property is required unless its
// json tag has omitempty or omitzero, because that is when encoding/json
// leaves it out.
//
// # Tags
//
// Constraints come from struct tags, one key per constraint:
//
//	description:"..."       the property's description (jsonschema tags
//	                        are refused: their keywords would not be
//	                        enforced)
//	default:"..."           the value used when the argument is absent; for
//	                        a string field the text itself, for any other
//	                        field JSON text: default:"10", default:"true",
//	                        default:"[\"*.go\"]"
//	enum:"a,b,c"            allowed values, comma-separated, spaces trimmed;
//	                        for string, integer and number fields
//	minimum:"1"  maximum:"100"  exclusiveMinimum:"0"  exclusiveMaximum:"1"
//	                        bounds of integer and number fields
//	minLength:"1"  maxLength:"200"
//	                        bounds of a string's length in characters
//	pattern:"^v[0-9]+$"     a regular expression (RE2 syntax) strings match
//	minItems:"1"  maxItems:"50"
//	                        bounds of a slice's length
//	chars:"path"            the character class of strings (see below)
//	keychars:"text"         the character class of a map's keys
//
// On slices, arrays, maps and pointers, the string and number tags apply to
// the values inside (the elements of a []string, the values of a
// map[string]int); minItems and maxItems apply to the outermost slice. A
// tag that applies to nothing in its field (minLength on an int), a
// misspelt key (minlength), a value that is not what the key wants (minimum
// that is not a number, a bound outside the Go type's range, minimum above
// maximum) and a default that breaks its own field's rules (a string
// outside its enum, say) are errors of New, which names the field.
//
// # Character classes
//
// Every string an input schema accepts has a character class from
// package security: ident (ASCII letters, digits, '_' and '-', not empty),
// path (printable characters except '\', which may only start a \u{…}
// or \x{…} escape of a name, see security.EscapeName), glob (the same
// without escapes, described as wildcards), text (anything except control characters other than tab,
// newline and carriage return) or expr (an arithmetic expression's
// alphabet). A string field without a chars tag is ident, the strictest.
// Decode enforces the class with a fast check whose error names the
// first refused character and its position. The class is not published
// in the document: a model reads every schema on every turn of a
// conversation, and a class pattern cost more bytes than the rest of a
// property (about 4 kB of toolserver's tool list), while what it rules
// out (control characters, invisible characters, a lone '\') is what a
// model sends by accident, and the error says what to fix. A pattern tag
// the tool's author wrote is published. A string with an
// enum needs no class: its values are checked against the class by New.
// Map keys are ident unless keychars says otherwise. Values of any and
// json.RawMessage fields are not checked: avoid them for untrusted text.
//
// # What a document leaves out
//
// A host sends every tool's input schema to the model on every turn of a
// conversation, so a document carries what a model needs to form a valid
// call and leaves out three rules that Decode enforces whatever the
// document says, each with an error that says what to fix:
//
//   - the character classes (see above);
//   - "additionalProperties": false: a name the struct does not declare is
//     refused with the name it was probably meant to be, or the names
//     allowed (the keyword costs 28 bytes an object);
//   - "minLength": 1: an empty string is refused as empty. Any other
//     minLength is published.
//
// Output documents leave out "additionalProperties": false too: the
// server writes only the fields declared. A library user's tools get the
// same economy without doing anything; a rule that a model should read
// goes into the field's description.
//
// # Output schemas
//
// [NewOutput] describes a tool's result with the same rules, except that
// it has no character classes and no coercions, requires what encoding/json
// always writes, and accepts null where encoding/json writes null for a nil
// pointer, slice or map without omitempty ("type": ["array", "null"]).
//
// # Decoding arguments
//
// Decode parses the arguments as encoding/json does, keeping numbers as
// json.Number so that large integers keep every digit; a long string is
// decoded in a few passes of eight bytes at a time. Absent or empty
// arguments mean {}. Anything but one JSON object in valid UTF-8 is refused
// with one problem. So are duplicate keys within an object, which
// encoding/json would otherwise resolve silently in favour of the last.
// A caller that has parsed the arguments already, as a server that reads
// each request once does, hands the object to [Schema.DecodeValue], which
// runs every stage after parsing. Where a number is wanted, a literal longer than 100 characters or with an
// exponent beyond ±400 is refused before any arithmetic is done on it.
//
// Before validation, input schemas apply a few safe coercions, each listed
// in the [Report]: a string holding a JSON number where a number or integer
// is wanted ("25" becomes 25, but "2.5" for an integer and " 25 " stay
// strings and fail), exactly "true" or "false" where a boolean is wanted
// (never 1, 0 or "yes"), a single value where an array is wanted (wrapped in
// a one-element array when it would be a valid element), and null for an
// optional property (dropped, as if absent). An array is never unwrapped.
//
// Validation then walks the same tree of nodes the schema document was
// written from, applying each keyword of the document as JSON Schema
// 2020-12 does, and the rules it leaves out (see "What a document leaves
// out"), so what the model reads is enforced: types (2.0
// and 1e3 are integers), enums (1 equals 1.0), bounds compared exactly
// with the literal sent, lengths in characters, patterns, the date-time
// format of RFC 3339, required and unknown properties. A differential
// test and fuzz target check that it agrees with an independent JSON
// Schema 2020-12 validator, github.com/santhosh-tekuri/jsonschema/v6,
// which the tests alone use. The character classes and the range of the
// Go type (a value beyond int64 for an int64 field, say) are checked
// besides. Floats never accept NaN or infinities: JSON cannot carry them,
// strings such as "NaN" are not coerced, and numbers beyond the float's
// range are refused.
//
// Valid arguments are decoded into a fresh value: defaults fill the absent
// properties of every object that was sent, integers are parsed exactly
// from their literals (2.0 and 1e3 count as integers), any fields get what
// encoding/json would give them (float64 for numbers), json.RawMessage
// fields get compact JSON. Finally, if the struct has a method
// Validate() error, it is called; its error's text becomes the message of
// a problem of kind Other (a [Phraser] gives it in each language), and an
// *Errors it returns is used as is.
//
// # Problems
//
// Invalid arguments give an *[Errors] holding every [Problem] found, each
// with a [Kind], a path such as "edits[1].old_text" and the facts a message
// needs. Problems are sorted by kind (missing required, wrong type, not
// allowed, out of range, unknown argument, other), then by the schema order
// of the argument they concern, then by path, so the same arguments always
// give the same text. Problems that would only repeat another are dropped:
// nothing is reported inside a value of the wrong type.
//
// [Problem.Message] phrases one problem as one short sentence that names
// the argument, says what was expected and what came (values cut to about
// two dozen characters), and how to fix it:
//
//	missing required argument "path" (a string); add it
//	"head" must be an integer, got "abc" (a string)
//	"sort" must be one of "name", "size"; got "date"
//	unknown argument "pth"; did you mean "path"?
//
// [Errors.Text] lists the most critical three, one per line, then
// "…and N more". Messages exist in English and Chinese (see [Lang]); every
// text is in one catalog, and no library error text or JSON pointer ever
// reaches the model.
//
// # The document and invopop/jsonschema
//
// github.com/invopop/jsonschema reflects a Go type into a schema, reading
// its own tags (jsonschema:"..."), and its Schema type is a complete model
// of a JSON Schema document, with an encoding that keeps the properties in
// order. This package used to have its reflector draw the skeleton of the
// document and then walk the type a second time to read the tags above and
// build the validator, and had to reconcile the two walks: they disagreed
// once on which fields encoding/json skips, and the validator refused
// properties the document listed. Now the builder's walk is the only one,
// since only it reads this package's tags.
//
// invopop's model is what a program gets when it wants to inspect or
// extend a document: package [github.com/stdiotools/toolserver/schemagen/jsonschemamodel]
// reads [Schema.JSON] into it, and its encoding writes the document back
// byte for byte. The document itself is written by this package, from the
// nodes, rather than filled into invopop's Schema and encoded by it, for
// two measured reasons. Writing is several times cheaper: edit_in's
// document takes 20-90 µs, 10.3 kB and 65 allocations with the writer,
// and invopop's encoding of the model alone 190-240 µs, 37.6 kB and 148
// allocations (BenchmarkDocument, on a loaded 2-core machine), which every
// AddTool without saved schemas would pay. And linking invopop costs every
// start of a binary, used or not: toolserver with invopop linked in runs
// 0.12 ms more of package initialisation (go.yaml.in/yaml/v4 0.09 ms;
// go/token, go/parser, go/doc and invopop itself the rest, medians of 40
// starts with GODEBUG=inittrace=1, where toolserver's whole init takes
// 0.7-0.9 ms), takes 12-16 more page faults a start, and is 120 kB
// larger. A server whose tools have saved schemas never writes a
// document, yet it cannot leave the writer out while AddTool, which builds
// a document when a spec has no saved schemas, is in the same binary. So
// the model lives in a package of its own, which no program of this module
// imports (a test in cmd/toolserver holds the server to that), and invopop
// holds the writer to its model instead: the writer puts the keywords in
// the order invopop's Schema declares them and escapes strings as
// encoding/json does, and TestDocumentIsWhatInvopopWrites reads the
// document of every test type, input and output, into the model with
// jsonschemamodel, requires every keyword to have a field there, and
// requires invopop's encoding of the model to be the writer's bytes.
// Documents therefore stay what they were when invopop wrote them, and
// saved schemas need not change.
//
// invopop's tags and the methods its reflector calls (JSONSchema,
// JSONSchemaAlias, JSONSchemaExtend, JSONSchemaProperty) are refused
// rather than ignored, since nothing here would honour them.
package schemagen
