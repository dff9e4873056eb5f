package toolcall

// maxPathKey is the longest key, in bytes of its text, that a path holds
// whole; a longer one is cut there (at a character boundary) and marked
// with "…". Every event carries its path as a string of its own, so a long
// key in the path of many events would cost time in proportion to both.
const maxPathKey = 256

// appendPathKey appends a path segment for the key whose string body (the
// raw bytes between the quotes) is body: the key's text as encoding/json
// decodes it, cut to maxPathKey bytes, with "~" written "~0" and "/"
// written "~1" (RFC 6901). scratch is a buffer for decoding keys with
// escapes or non-ASCII bytes; the grown one is returned for reuse.
func appendPathKey(dst, body, scratch []byte) ([]byte, []byte) {
	text := body
	for _, c := range body {
		if c == '\\' || c >= 0x80 {
			scratch, _ = appendUnquoted(scratch[:0], body, false)
			text = scratch
			break
		}
	}
	cut := len(text) > maxPathKey
	if cut {
		n := maxPathKey
		for n > 0 && text[n]&0xC0 == 0x80 {
			n-- // back to the start of a character
		}
		text = text[:n]
	}
	for _, c := range text {
		switch c {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, c)
		}
	}
	if cut {
		dst = append(dst, "…"...)
	}
	return dst, scratch
}
