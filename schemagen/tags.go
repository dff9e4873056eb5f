package schemagen

import (
	"fmt"
	"reflect"
	"strings"
)

// tagKey is one of the struct tag keys that schemagen reads besides json.
type tagKey uint8

const (
	tagDescription tagKey = iota
	tagDefault
	tagEnum
	tagMinimum
	tagMaximum
	tagExclusiveMinimum
	tagExclusiveMaximum
	tagMinLength
	tagMaxLength
	tagMinItems
	tagMaxItems
	tagPattern
	tagChars
	tagKeyChars
	numTagKeys
)

// tagNames spells the tag keys, indexed by tagKey.
var tagNames = [numTagKeys]string{
	tagDescription:      "description",
	tagDefault:          "default",
	tagEnum:             "enum",
	tagMinimum:          "minimum",
	tagMaximum:          "maximum",
	tagExclusiveMinimum: "exclusiveMinimum",
	tagExclusiveMaximum: "exclusiveMaximum",
	tagMinLength:        "minLength",
	tagMaxLength:        "maxLength",
	tagMinItems:         "minItems",
	tagMaxItems:         "maxItems",
	tagPattern:          "pattern",
	tagChars:            "chars",
	tagKeyChars:         "keychars",
}

func (k tagKey) String() string { return tagNames[k] }

// fieldTags holds the schemagen tags of one struct field and remembers which
// of them a node has applied, so that a tag that applies to nothing (minLength
// on an integer, say) is reported instead of ignored.
type fieldTags struct {
	values  [numTagKeys]string
	present uint32
	used    uint32

	omit      bool // json tag has omitempty or omitzero
	goPath    string
	arrayDone bool // minItems/maxItems were taken by the outermost array
}

// get returns the value of tag k and marks it used.
func (t *fieldTags) get(k tagKey) (string, bool) {
	if t.present&(1<<k) == 0 {
		return "", false
	}
	t.used |= 1 << k
	return t.values[k], true
}

// unused returns the first present tag that no node applied, if any.
func (t *fieldTags) unused() (tagKey, bool) {
	for k := tagKey(0); k < numTagKeys; k++ {
		if t.present&(1<<k) != 0 && t.used&(1<<k) == 0 {
			return k, true
		}
	}
	return 0, false
}

// parseTags reads the schemagen tags of sf.
func parseTags(sf reflect.StructField, goPath string) (*fieldTags, error) {
	t := &fieldTags{goPath: goPath}
	keys := tagKeys(sf.Tag)
	for _, key := range keys {
		for _, name := range tagNames {
			if key != name && strings.EqualFold(key, name) {
				return nil, fmt.Errorf("tag %q is misspelt; write %q", key, name)
			}
		}
		switch key {
		case "jsonschema_description", "jsonschema_extras":
			return nil, fmt.Errorf("tag %q is not supported; use description:\"...\" and the constraint tags (enum, minimum, ...)", key)
		}
	}
	// Only the keys the tag has are looked up: a lookup scans the whole
	// tag, and most fields have two or three of the twenty keys.
	for _, key := range keys {
		for k := tagKey(0); k < numTagKeys; k++ {
			if tagNames[k] != key || t.present&(1<<k) != 0 {
				continue
			}
			if v, ok := sf.Tag.Lookup(key); ok {
				t.values[k] = v
				t.present |= 1 << k
			}
		}
	}
	if v, ok := sf.Tag.Lookup("jsonschema"); ok {
		// invopop/jsonschema's tag: its author would expect keywords
		// that this package neither publishes nor enforces.
		return nil, fmt.Errorf("jsonschema:%q is not supported; write description:\"...\" and the constraint tags (enum, minimum, ...)", v)
	}
	jsonTag := sf.Tag.Get("json")
	if _, opts, _ := strings.Cut(jsonTag, ","); opts != "" {
		for opt := range strings.SplitSeq(opts, ",") {
			switch opt {
			case "omitempty", "omitzero":
				t.omit = true
			case "string":
				return nil, fmt.Errorf("the json \",string\" option is not supported; numeric strings are accepted anyway")
			case "inline":
				return nil, fmt.Errorf("the json \",inline\" option is not supported (encoding/json ignores it); embed the struct without a name instead")
			}
		}
	}
	return t, nil
}

// tagKeys returns the keys of a conventionally formatted struct tag, in
// order. It stops at the first malformed pair (go vet reports those).
func tagKeys(tag reflect.StructTag) []string {
	var keys []string
	s := string(tag)
	for {
		s = strings.TrimLeft(s, " ")
		i := 0
		for i < len(s) && s[i] > ' ' && s[i] != ':' && s[i] != '"' && s[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(s) || s[i] != ':' || s[i+1] != '"' {
			return keys
		}
		keys = append(keys, s[:i])
		s = s[i+2:]
		j := 0
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(s) {
			return keys
		}
		s = s[j+1:]
	}
}

// splitList splits a comma-separated tag value such as an enum, trimming
// spaces around each item.
func splitList(v string) []string {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}
