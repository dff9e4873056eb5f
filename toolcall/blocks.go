package toolcall

import (
	"encoding/json"
	"strings"
)

// block is a fenced code block or a <tool_call> element in a model's
// output. Only blocks that may hold tool calls are scanned for them; the
// others (```python, say) are left as text, so a dictionary literal in
// example code is never taken for a call.
type block struct {
	start, end         int  // the whole block, markers included
	bodyStart, bodyEnd int  // its content
	scan               bool // its content may hold calls
}

// findBlocks returns the blocks of text in order. A fence opens with three
// or more backticks or tildes at the start of a line and an optional
// language word, and closes with at least as many of the same character at
// the start of a line or at the end of one; models often write
// {...}``` on one line. A fence that never closes runs to the end of the
// text, as in a cut-off answer. Blocks do not nest.
func findBlocks(text string) []block {
	var blocks []block
	for i := 0; i < len(text); {
		b, ok := nextBlock(text, i)
		if !ok {
			break
		}
		blocks = append(blocks, b)
		i = b.end
	}
	return blocks
}

// nextBlock finds the first block that starts at or after i.
func nextBlock(text string, i int) (block, bool) {
	const tagOpen, tagClose = "<tool_call>", "</tool_call>"
	for ; i < len(text); i++ {
		switch c := text[i]; {
		case c == '<' && strings.HasPrefix(text[i:], tagOpen) && opensCall(text[i+len(tagOpen):]):
			b := block{start: i, bodyStart: i + len(tagOpen), scan: true}
			b.bodyEnd, b.end = closeTag(text, b.bodyStart, tagClose)
			return b, true
		case (c == '`' || c == '~') && atLineStart(text, i):
			n := runLen(text, i, c)
			if n < 3 {
				i += n - 1
				continue
			}
			lang := i + n
			for lang < len(text) && isLangByte(text[lang]) {
				lang++
			}
			b := block{start: i, bodyStart: lang, scan: isCallLanguage(text[i+n : lang])}
			b.bodyEnd, b.end = closeFence(text, lang, c, n)
			return b, true
		}
	}
	return block{}, false
}

// closeFence finds the closing fence of at least n bytes c after from; it
// returns where the body ends and where the fence ends, or len(text) twice.
func closeFence(text string, from int, c byte, n int) (bodyEnd, end int) {
	marker := strings.Repeat(string(c), 3)
	for i := from; ; {
		j := strings.Index(text[i:], marker)
		if j < 0 {
			return len(text), len(text)
		}
		j += i
		k := j + runLen(text, j, c)
		if k-j >= n && (atLineStart(text, j) || atLineEnd(text, k)) {
			return j, k
		}
		i = k
	}
}

// runLen counts the bytes equal to c from text[i].
func runLen(text string, i int, c byte) int {
	j := i
	for j < len(text) && text[j] == c {
		j++
	}
	return j - i
}

// atLineStart reports whether only spaces and tabs precede text[i] on its line.
func atLineStart(text string, i int) bool {
	for i--; i >= 0; i-- {
		switch text[i] {
		case '\n':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// atLineEnd reports whether only spaces, tabs and '\r' follow text[i] on
// its line.
func atLineEnd(text string, i int) bool {
	for ; i < len(text); i++ {
		switch text[i] {
		case '\n':
			return true
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

func isLangByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '+' || c == '.'
}

// isCallLanguage reports whether a fence's language word allows tool calls
// inside: none, or one that mentions json, tool, call or function (```JSON,
// ```tool_call, ```function_call, ```jsonc).
func isCallLanguage(lang string) bool {
	lang = strings.ToLower(lang)
	if lang == "" {
		return true
	}
	for _, w := range []string{"json", "tool", "call", "function"} {
		if strings.Contains(lang, w) {
			return true
		}
	}
	return false
}

// opensCall reports whether the text after a <tool_call> tag begins with
// a JSON object or array (after spaces), or is empty (a cut-off answer):
// only then is the tag one, and not the words "<tool_call>" in prose or
// in a string.
func opensCall(after string) bool {
	after = strings.TrimLeft(after, " \t\r\n")
	return after == "" || after[0] == '{' || after[0] == '['
}

// maxCloseTries bounds the closing tags tried for one element, each a
// scan of the body, so that text full of them costs linear time.
const maxCloseTries = 8

// closeTag finds the </tool_call> that ends the element whose body starts
// at from: the first one (of the first maxCloseTries) before which the
// body is complete JSON, so that the tag inside a string of the call does
// not end it, or else the first one. It returns where the body ends and where the element ends, or
// len(text) twice.
func closeTag(text string, from int, tag string) (bodyEnd, end int) {
	first := -1
	for i, tries := from, 0; tries < maxCloseTries; tries++ {
		j := strings.Index(text[i:], tag)
		if j < 0 {
			break
		}
		j += i
		if first < 0 {
			first = j
		}
		if json.Valid([]byte(text[from:j])) {
			return j, j + len(tag)
		}
		i = j + len(tag)
	}
	if first < 0 {
		return len(text), len(text)
	}
	return first, first + len(tag)
}
