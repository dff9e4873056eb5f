package toolcall

import "strings"

// prose returns the text outside the cuts, each piece trimmed and the
// pieces joined by newlines. A block whose content is only cuts and spaces
// goes as a whole, fence or tags included.
func (x *extractor) prose() string {
	if len(x.cuts) == 0 {
		return strings.TrimSpace(x.text)
	}
	var gone []span
	k := 0
	for _, b := range x.blocks {
		for k < len(x.cuts) && x.cuts[k].start < b.bodyStart {
			gone = append(gone, x.cuts[k])
			k++
		}
		first := k
		for k < len(x.cuts) && x.cuts[k].start < b.bodyEnd {
			k++
		}
		if k > first && onlySpaces(x.text, b.bodyStart, b.bodyEnd, x.cuts[first:k]) {
			gone = append(gone, span{b.start, b.end})
		} else {
			gone = append(gone, x.cuts[first:k]...)
		}
	}
	gone = append(gone, x.cuts[k:]...)

	var pieces []string
	from := 0
	for _, g := range append(gone, span{len(x.text), len(x.text)}) {
		if piece := strings.TrimSpace(x.text[from:g.start]); piece != "" {
			pieces = append(pieces, piece)
		}
		from = g.end
	}
	return strings.Join(pieces, "\n")
}

// onlySpaces reports whether text[from:to] is white space outside cuts.
func onlySpaces(text string, from, to int, cuts []span) bool {
	for _, c := range cuts {
		if strings.TrimSpace(text[from:c.start]) != "" {
			return false
		}
		from = c.end
	}
	return strings.TrimSpace(text[from:to]) == ""
}
