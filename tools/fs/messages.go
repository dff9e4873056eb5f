package fs

import (
	"context"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/server"
)

// This file binds the catalog (catalog.go) to the tools: a message of
// it (an i18n.Message), the error that carries one, and the wrapper that
// puts a call's errors and results into the language the model reads.
// The arguments of messages are in args.go.

// message is an entry of the catalog with its arguments, written out
// only when read, so that it can be shown in any language. The zero
// message is empty.
type message = i18n.Message

// say returns the message id of the catalog with its arguments.
func say(id msgID, args ...arg) message { return catalog.Message(id, args...) }

// msgError is an error whose text is a message of the catalog: English
// from Error, until speak sets the language of the call it ends.
type msgError struct {
	m    message
	lang i18n.Lang
}

// fail returns the error whose sentence is the message id with args.
func fail(id msgID, args ...arg) error { return &msgError{m: say(id, args...)} }

func (e *msgError) Error() string { return e.m.In(e.lang) }

// Message returns the sentence in lang; it makes the error a
// schemagen.Phraser, so that a Validate method's refusal is read in the
// call's language too.
func (e *msgError) Message(lang i18n.Lang) string { return e.m.In(lang) }

func (e *msgError) inLanguage(lang i18n.Lang) error {
	inLang := *e
	inLang.lang = lang
	return &inLang
}

// Unwrap returns the error the message shows, if any, so that
// errors.Is and errors.As see through it as through fmt.Errorf's %w.
func (e *msgError) Unwrap() error {
	for _, a := range e.m.Args() {
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
