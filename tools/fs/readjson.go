package fs

import (
	"slices"
	"strconv"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// AppendJSON appends the result as encoding/json writes it without HTML
// escaping, for structuredContent (see server.JSONAppender): reflection
// cost a read of 1 KiB over HTTP more than any other step of its own.
// TestReadJSONIsEncodingJSON and FuzzReadJSON hold it to encoding/json
// byte for byte.
func (r ReadFileResult) AppendJSON(b []byte) ([]byte, error) {
	b = slices.Grow(b, 224+len(r.Path)+len(r.Kind)+len(r.MIMEType)+len(r.Note)+len(r.Version))
	b = append(b, `{"path":`...)
	b = jsonwire.AppendString(b, r.Path, false)
	b = append(b, `,"kind":`...)
	b = jsonwire.AppendString(b, r.Kind, false)
	if r.MIMEType != "" {
		b = append(b, `,"mime_type":`...)
		b = jsonwire.AppendString(b, r.MIMEType, false)
	}
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, r.Size, 10)
	if r.TotalLines != nil {
		b = appendIntField(b, `,"total_lines":`, *r.TotalLines)
	}
	if r.FromLine != 0 {
		b = appendIntField(b, `,"from_line":`, r.FromLine)
	}
	if r.ToLine != 0 {
		b = appendIntField(b, `,"to_line":`, r.ToLine)
	}
	if r.Lines != 0 {
		b = appendIntField(b, `,"lines":`, r.Lines)
	}
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, r.Truncated)
	b = append(b, `,"invalid_utf8":`...)
	b = strconv.AppendBool(b, r.InvalidUTF8)
	if r.ReplacedBytes != 0 {
		b = appendIntField(b, `,"replaced_bytes":`, r.ReplacedBytes)
	}
	if r.Note != "" {
		b = append(b, `,"note":`...)
		b = jsonwire.AppendString(b, r.Note, false)
	}
	b = append(b, `,"version":`...)
	b = jsonwire.AppendString(b, r.Version, false)
	return append(b, '}'), nil
}
