package toolcall

// appendPathKey appends a path segment for the key whose string body (the
// raw bytes between the quotes) is body: the key's text as encoding/json
// decodes it, with "~" written "~0" and "/" written "~1" (RFC 6901).
// scratch is a buffer for decoding keys with escapes or non-ASCII bytes;
// the grown one is returned for reuse.
func appendPathKey(dst, body, scratch []byte) ([]byte, []byte) {
	text := body
	for _, c := range body {
		if c == '\\' || c >= 0x80 {
			scratch, _ = appendUnquoted(scratch[:0], body, false)
			text = scratch
			break
		}
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
	return dst, scratch
}
