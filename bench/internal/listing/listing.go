// Package listing writes a directory listing in the text toolserver's
// list_directory gives for a folder of plainly named entries: one entry a
// line, directories ending in "/", symbolic links in "@", other special
// files in "|", then a line of counts.
//
// The bench's listing floor and its go-sdk peer both answer with this text,
// so that the three are compared on the same output. It covers what the
// bench lists, not every case of toolserver's: names that toolserver
// escapes (control characters and the like), sizes, times and pages are
// left out, and the bench checks at run time that the texts agree.
package listing

import (
	"io/fs"
	"strconv"
)

// Append appends the listing of the directory shown as dir, whose entries
// are given in the order they are to be shown, to dst and returns the
// extended slice. Entry types come from the entries themselves (the
// directory's own record); nothing is stat-ed.
func Append(dst []byte, dir string, entries []fs.DirEntry) []byte {
	var dirs, files, links, other int
	for _, e := range entries {
		dst = append(dst, e.Name()...)
		switch t := e.Type(); {
		case t.IsRegular():
			files++
		case t.IsDir():
			dirs++
			dst = append(dst, '/')
		case t&fs.ModeSymlink != 0:
			links++
			dst = append(dst, '@')
		default:
			other++
			dst = append(dst, '|')
		}
		dst = append(dst, '\n')
	}
	if len(entries) == 0 {
		return append(dst, `"`+dir+`" is empty.`+"\n"...)
	}
	dst = append(dst, dir+": "...)
	dst = appendCount(dst, dirs, "directory", "directories")
	dst = append(dst, ", "...)
	dst = appendCount(dst, files, "file", "files")
	if links > 0 {
		dst = append(dst, ", "...)
		dst = appendCount(dst, links, "symbolic link (@)", "symbolic links (@)")
	}
	if other > 0 {
		dst = append(dst, ", "...)
		dst = appendCount(dst, other, "special file (|)", "special files (|)")
	}
	return append(dst, ".\n"...)
}

// appendCount appends "1 file" or "n files".
func appendCount(dst []byte, n int, one, many string) []byte {
	dst = strconv.AppendInt(dst, int64(n), 10)
	dst = append(dst, ' ')
	if n == 1 {
		return append(dst, one...)
	}
	return append(dst, many...)
}
