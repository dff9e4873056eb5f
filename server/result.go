package server

import (
	"encoding/base64"
	"fmt"
)

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
func TextContent(text string) Content { return Content{kind: "text", text: text} }

// ImageContent returns an image block; data is the raw image, sent as
// base64.
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
func (c Content) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func (c Content) appendJSON(b []byte) ([]byte, error) {
	switch c.kind {
	case "text":
		b = append(b, `{"type":"text","text":`...)
		b = appendString(b, c.text)
		return append(b, '}'), nil
	case "image", "audio":
		b = append(b, `{"type":"`+c.kind+`","data":"`...)
		b = base64.StdEncoding.AppendEncode(b, c.data)
		b = append(b, `","mimeType":`...)
		b = appendString(b, c.mimeType)
		return append(b, '}'), nil
	default:
		return nil, fmt.Errorf("content block has no type; create it with TextContent, ImageContent or AudioContent")
	}
}
