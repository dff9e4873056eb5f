package server

import "fmt"

// CallToolResult is the result of a tools/call as MCP sends it.
//
// A tool that fails still produces a result: IsError is set and Content
// explains the failure in a sentence the model can act on. Only problems
// with the request itself (an unknown tool, params that are not an object)
// are JSON-RPC errors.
type CallToolResult struct {
	// Content is what the model reads: text, images, audio. MCP requires
	// the list, so a nil Content is sent as an empty one.
	Content []Content `json:"content"`
	// StructuredContent is the result as JSON matching the tool's output
	// schema. It is left out of error results.
	StructuredContent any `json:"structuredContent,omitempty"`
	// IsError marks a result that reports a failure.
	IsError bool `json:"isError,omitempty"`
	// Meta carries details for programs rather than the model.
	Meta map[string]any `json:"_meta,omitempty"`

	// encoded is set when StructuredContent is a json.RawMessage this
	// package encoded itself, compact and valid, so that it is written as
	// it is rather than checked again.
	encoded bool
	// read marks the result of a resource read (resource.go), whose
	// contents are written as a resources/read result.
	read       bool
	contents   []ResourceContents
	completion *Completion // of a completion/complete
}

// ErrorResult returns a result that reports a failure with text.
func ErrorResult(text string) *CallToolResult {
	return &CallToolResult{Content: []Content{TextContent(text)}, IsError: true}
}

// Content is one block of a tool result. Create it with [TextContent],
// [ImageContent] or [AudioContent].
type Content struct {
	kind     string
	text     string
	data     []byte
	mimeType string
}

// TextContent returns a text block.
//
// A text of any size costs the server no copy of its own: when the
// result is sent, a long text is escaped from the string straight into
// the transport's output, a bounded buffer at a time, so that the
// result's memory is the text and little more. A tool that reads a large
// text into a []byte can make the string without a copy as well, with
// unsafe.String, when nothing writes to those bytes afterwards.
func TextContent(text string) Content { return Content{kind: "text", text: text} }

// ImageContent returns an image block; data is the raw image, sent as
// base64, encoded into the output as it is written (as [TextContent]
// says). The caller must not change data afterwards.
func ImageContent(data []byte, mimeType string) Content {
	return Content{kind: "image", data: data, mimeType: mimeType}
}

// AudioContent returns an audio block; data is the raw audio, sent as
// base64.
func AudioContent(data []byte, mimeType string) Content {
	return Content{kind: "audio", data: data, mimeType: mimeType}
}

// Type returns the block's MCP type: "text", "image" or "audio".
func (c Content) Type() string { return c.kind }

// Text returns the text of a text block.
func (c Content) Text() string { return c.text }

// Data returns the raw bytes of an image or audio block.
func (c Content) Data() []byte { return c.data }

// MIMEType returns the media type of an image or audio block.
func (c Content) MIMEType() string { return c.mimeType }

// MarshalJSON encodes the block as MCP's ContentBlock.
func (c Content) MarshalJSON() ([]byte, error) {
	l := line{}
	if err := c.addTo(&l, 0); err != nil {
		return nil, err
	}
	return l.frame, nil
}

// addTo appends the block to the frame of l, its text or data as a part
// when it has minPart bytes or more (see line.go) and minPart is not 0.
func (c Content) addTo(l *line, minPart int) error {
	switch c.kind {
	case "text":
		l.frame = append(l.frame, `{"type":"text","text":`...)
		l.addText(c.text, minPart)
		l.frame = append(l.frame, '}')
		return nil
	case "image", "audio":
		l.frame = append(l.frame, `{"type":"`+c.kind+`","data":"`...)
		l.addBase64(c.data, minPart)
		l.frame = append(l.frame, `","mimeType":`...)
		l.frame = appendString(l.frame, c.mimeType)
		l.frame = append(l.frame, '}')
		return nil
	default:
		return fmt.Errorf("content block has no type; create it with TextContent, ImageContent or AudioContent")
	}
}
