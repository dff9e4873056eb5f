package fs

import (
	"io/fs"
	"strconv"
	"strings"

	"github.com/stdiotools/toolserver/i18n"
)

// The arguments of a message (messages.go): each is written out in the
// language of the message it is shown in, so that a count, a size or a
// list reads as the sentence around it does.

// An arg is one argument of a message, written out in the message's
// language.
type arg = i18n.Arg

// lit is text shown as it is in every language: a quoted path or
// pattern, a tool or argument name, a number already formatted.
type lit string

func (s lit) In(i18n.Lang) string { return string(s) }

// num is a count, a line number or a limit, in decimal.
type num int64

func (n num) In(i18n.Lang) string { return strconv.FormatInt(int64(n), 10) }

// size is a number of bytes in words: "512 bytes", "1234567 bytes (1.2
// MiB)".
type size int64

func (n size) In(lang i18n.Lang) string {
	s := count{int64(n), msgByte, msgBytes}.In(lang)
	if n < 1<<10 {
		return s
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f, u := float64(n)/1024, 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	return say(msgParen, lit(s), lit(strconv.FormatFloat(f, 'f', 1, 64)+" "+units[u])).In(lang)
}

// count is a number of things: the message one for exactly one, the
// message many, with the number as its {1}, for any other.
type count struct {
	n         int64
	one, many msgID
}

// counted returns the count n of things named by one and many.
func counted[N int | int64](n N, one, many msgID) count { return count{int64(n), one, many} }

func (c count) In(lang i18n.Lang) string {
	if c.n == 1 {
		return say(c.one).In(lang)
	}
	return say(c.many, num(c.n)).In(lang)
}

// kind names, with its article in English, the kind of a file that is
// neither regular, a directory nor a symbolic link: "a named pipe".
type kind fs.FileMode

func (k kind) In(lang i18n.Lang) string {
	mode := fs.FileMode(k)
	id := msgKindSpecial
	switch {
	case mode&fs.ModeNamedPipe != 0:
		id = msgKindPipe
	case mode&fs.ModeSocket != 0:
		id = msgKindSocket
	case mode&fs.ModeDevice != 0:
		id = msgKindDevice
	}
	return say(id).In(lang)
}

// cause is an error shown inside a message: its sentence, in the
// message's language when the error is one of this package's.
type cause struct{ err error }

func (c cause) In(lang i18n.Lang) string {
	if e, ok := c.err.(*msgError); ok {
		return e.m.In(lang)
	}
	return c.err.Error()
}

// list is items shown as they are, separated by commas in the message's
// language: "a, b, c".
type list []string

func (l list) In(lang i18n.Lang) string { return strings.Join(l, say(msgListSep).In(lang)) }

// joined is two phrases joined as in a list: "2 files, 1 symbolic link".
type joined [2]arg

func (j joined) In(lang i18n.Lang) string {
	return j[0].In(lang) + say(msgListSep).In(lang) + j[1].In(lang)
}

// reasons are the reasons of a failure, joined by semicolons.
type reasons []arg

func (r reasons) In(lang i18n.Lang) string {
	s := make([]string, len(r))
	for i, a := range r {
		s[i] = a.In(lang)
	}
	return strings.Join(s, say(msgWhySep).In(lang))
}

// phrases are phrases joined as in a list: "2 binary files, 1 file
// larger than 8 MiB".
type phrases []arg

func (p phrases) In(lang i18n.Lang) string {
	s := make([]string, len(p))
	for i, a := range p {
		s[i] = a.In(lang)
	}
	return strings.Join(s, say(msgListSep).In(lang))
}

// sentences are sentences written one after the other, separated by a
// space in English and by nothing in Chinese; empty ones are left out.
type sentences []arg

func (ss sentences) In(lang i18n.Lang) string {
	var b strings.Builder
	for _, a := range ss {
		if a == nil {
			continue
		}
		s := strings.TrimSpace(a.In(lang))
		if s == "" {
			continue
		}
		if b.Len() > 0 && lang != i18n.Chinese {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}
