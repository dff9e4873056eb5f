package jsonschemamodel

import "github.com/invopop/jsonschema"

// subschema returns the field of s that holds the schema of key, or nil
// if key does not hold one schema.
func subschema(s *jsonschema.Schema, key string) **jsonschema.Schema {
	switch key {
	case "not":
		return &s.Not
	case "if":
		return &s.If
	case "then":
		return &s.Then
	case "else":
		return &s.Else
	case "items":
		return &s.Items
	case "contains":
		return &s.Contains
	case "additionalProperties":
		return &s.AdditionalProperties
	case "propertyNames":
		return &s.PropertyNames
	case "contentSchema":
		return &s.ContentSchema
	}
	return nil
}

// schemaList returns the field of s that holds the array of schemas of
// key, or nil if key does not hold one.
func schemaList(s *jsonschema.Schema, key string) *[]*jsonschema.Schema {
	switch key {
	case "allOf":
		return &s.AllOf
	case "anyOf":
		return &s.AnyOf
	case "oneOf":
		return &s.OneOf
	case "prefixItems":
		return &s.PrefixItems
	}
	return nil
}

// value returns a pointer to the field of s that holds the value of key,
// for the keywords whose value is not a schema, or nil if the model has
// no such field. The values of type any (enum, examples) are decoded with
// numbers as json.Number.
func value(s *jsonschema.Schema, key string) any {
	switch key {
	case "$schema":
		return &s.Version
	case "$id":
		return &s.ID
	case "$anchor":
		return &s.Anchor
	case "$ref":
		return &s.Ref
	case "$dynamicRef":
		return &s.DynamicRef
	case "$comment":
		return &s.Comments
	case "enum":
		return &s.Enum
	case "multipleOf":
		return &s.MultipleOf
	case "maximum":
		return &s.Maximum
	case "exclusiveMaximum":
		return &s.ExclusiveMaximum
	case "minimum":
		return &s.Minimum
	case "exclusiveMinimum":
		return &s.ExclusiveMinimum
	case "maxLength":
		return &s.MaxLength
	case "minLength":
		return &s.MinLength
	case "pattern":
		return &s.Pattern
	case "maxItems":
		return &s.MaxItems
	case "minItems":
		return &s.MinItems
	case "uniqueItems":
		return &s.UniqueItems
	case "maxContains":
		return &s.MaxContains
	case "minContains":
		return &s.MinContains
	case "maxProperties":
		return &s.MaxProperties
	case "minProperties":
		return &s.MinProperties
	case "required":
		return &s.Required
	case "dependentRequired":
		return &s.DependentRequired
	case "format":
		return &s.Format
	case "contentEncoding":
		return &s.ContentEncoding
	case "contentMediaType":
		return &s.ContentMediaType
	case "title":
		return &s.Title
	case "description":
		return &s.Description
	case "deprecated":
		return &s.Deprecated
	case "readOnly":
		return &s.ReadOnly
	case "writeOnly":
		return &s.WriteOnly
	case "examples":
		return &s.Examples
	}
	return nil
}
