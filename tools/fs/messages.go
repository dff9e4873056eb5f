package fs

import (
	"context"
	"io/fs"
	"strconv"
	"strings"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/server"
)

// This file holds the machinery of the catalog (catalog.go): the
// arguments of a message, a message written out in a language, the error
// that carries one, and the wrapper that puts a call's errors and results
// into the language the model reads.

// An arg is one argument of a message, written out in the message's
// language.
type arg interface {
	in(lang i18n.Lang) string
}

// lit is text shown as it is in every language: a quoted path or
// pattern, a tool or argument name, a number already formatted.
type lit string

func (s lit) in(i18n.Lang) string { return string(s) }

// num is a count, a line number or a limit, in decimal.
type num int64

func (n num) in(i18n.Lang) string { return strconv.FormatInt(int64(n), 10) }

// size is a number of bytes in words: "512 bytes", "1234567 bytes (1.2
// MiB)".
type size int64

func (n size) in(lang i18n.Lang) string {
	s := count{int64(n), msgByte, msgBytes}.in(lang)
	if n < 1<<10 {
		return s
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f, u := float64(n)/1024, 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	return say(msgParen, lit(s), lit(strconv.FormatFloat(f, 'f', 1, 64)+" "+units[u])).in(lang)
}

// count is a number of things: the message one for exactly one, the
// message many, with the number as its {1}, for any other.
type count struct {
	n         int64
	one, many msgID
}

// counted returns the count n of things named by one and many.
func counted[N int | int64](n N, one, many msgID) count { return count{int64(n), one, many} }

func (c count) in(lang i18n.Lang) string {
	if c.n == 1 {
		return say(c.one).in(lang)
	}
	return say(c.many, num(c.n)).in(lang)
}

// kind names, with its article in English, the kind of a file that is
// neither regular, a directory nor a symbolic link: "a named pipe".
type kind fs.FileMode

func (k kind) in(lang i18n.Lang) string {
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
	return say(id).in(lang)
}

// cause is an error shown inside a message: its sentence, in the
// message's language when the error is one of this package's.
type cause struct{ err error }

func (c cause) in(lang i18n.Lang) string {
	if e, ok := c.err.(*msgError); ok {
		return e.m.in(lang)
	}
	return c.err.Error()
}

// message is an entry of the catalog with its arguments, written out
// only when read, so that it can be shown in any language. A message can
// be the argument of another. The zero message is empty.
type message struct {
	id   msgID
	args []arg
}

// say returns the message id with its arguments.
func say(id msgID, args ...arg) message { return message{id, args} }

// in returns m written out in lang: English for any language but
// Chinese. {1} to {9} in the text stand for the arguments, in the order
// the code passes them; a language may place them in any order.
func (m message) in(lang i18n.Lang) string {
	if m.id == msgNone || m.id >= numMsgs {
		return ""
	}
	tpl := i18n.Pick(lang, catalog[m.id].en, catalog[m.id].zh)
	if len(m.args) == 0 {
		return tpl
	}
	var b strings.Builder
	b.Grow(len(tpl) + 16*len(m.args))
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 || i+2 >= len(tpl) {
			b.WriteString(tpl)
			return b.String()
		}
		b.WriteString(tpl[:i])
		if n := int(tpl[i+1]) - '1'; tpl[i+2] == '}' && 0 <= n && n < len(m.args) {
			b.WriteString(m.args[n].in(lang))
			tpl = tpl[i+3:]
			continue
		}
		b.WriteByte('{')
		tpl = tpl[i+1:]
	}
}

// msgError is an error whose text is a message of the catalog: English
// from Error, until speak sets the language of the call it ends.
type msgError struct {
	m    message
	lang i18n.Lang
}

// fail returns the error whose sentence is the message id with args.
func fail(id msgID, args ...arg) error { return &msgError{m: say(id, args...)} }

func (e *msgError) Error() string { return e.m.in(e.lang) }

// Message returns the sentence in lang; it makes the error a
// schemagen.Phraser, so that a Validate method's refusal is read in the
// call's language too.
func (e *msgError) Message(lang i18n.Lang) string { return e.m.in(lang) }

func (e *msgError) inLanguage(lang i18n.Lang) error {
	inLang := *e
	inLang.lang = lang
	return &inLang
}

// Unwrap returns the error the message shows, if any, so that
// errors.Is and errors.As see through it as through fmt.Errorf's %w.
func (e *msgError) Unwrap() error {
	for _, a := range e.m.args {
		if c, ok := a.(cause); ok {
			return c.err
		}
	}
	return nil
}

// translatable is an error of this package that can be written out in
// another language: a copy of it in lang.
type translatable interface {
	inLanguage(lang i18n.Lang) error
}

// errorText returns the sentence of err in lang, for a result that
// carries an error as text (read_multiple_files).
func errorText(err error, lang i18n.Lang) string {
	if e, ok := err.(translatable); ok {
		return e.inLanguage(lang).Error()
	}
	return err.Error()
}

// inLang is embedded in a result whose Content writes sentences: the
// language to write them in, set by speak. It is not part of the JSON.
type inLang struct{ lang i18n.Lang }

func (l *inLang) setLang(lang i18n.Lang) { l.lang = lang }

// speak wraps the handler of a file tool so that the model reads its
// sentences in the call's language ([server.Call.Lang]): an error of the
// catalog, and the Content of a result that embeds inLang. The sandbox's
// own errors are in its language already.
func speak[In, Out any](h func(context.Context, *server.Call, In) (Out, error)) func(context.Context, *server.Call, In) (Out, error) {
	return func(ctx context.Context, call *server.Call, in In) (Out, error) {
		out, err := h(ctx, call, in)
		lang := call.Lang()
		if e, ok := err.(translatable); ok {
			err = e.inLanguage(lang)
		}
		if r, ok := any(&out).(interface{ setLang(i18n.Lang) }); ok {
			r.setLang(lang)
		}
		return out, err
	}
}

// list is items shown as they are, separated by commas in the message's
// language: "a, b, c".
type list []string

func (l list) in(lang i18n.Lang) string { return strings.Join(l, say(msgListSep).in(lang)) }

// joined is two phrases joined as in a list: "2 files, 1 symbolic link".
type joined [2]arg

func (j joined) in(lang i18n.Lang) string {
	return j[0].in(lang) + say(msgListSep).in(lang) + j[1].in(lang)
}

// reasons are the reasons of a failure, joined by semicolons.
type reasons []arg

func (r reasons) in(lang i18n.Lang) string {
	s := make([]string, len(r))
	for i, a := range r {
		s[i] = a.in(lang)
	}
	return strings.Join(s, say(msgWhySep).in(lang))
}

// phrases are phrases joined as in a list: "2 binary files, 1 file
// larger than 8 MiB".
type phrases []arg

func (p phrases) in(lang i18n.Lang) string {
	s := make([]string, len(p))
	for i, a := range p {
		s[i] = a.in(lang)
	}
	return strings.Join(s, say(msgListSep).in(lang))
}

// sentences are sentences written one after the other, separated by a
// space in English and by nothing in Chinese; empty ones are left out.
type sentences []arg

func (ss sentences) in(lang i18n.Lang) string {
	var b strings.Builder
	for _, a := range ss {
		if a == nil {
			continue
		}
		s := strings.TrimSpace(a.in(lang))
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
