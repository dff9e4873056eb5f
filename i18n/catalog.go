package i18n

import (
	"errors"
	"fmt"
	"slices"
)

// Entry is one message in both languages: its English, then its Chinese.
// It is an alias of a plain struct so that a catalog can list its entries
// as {"English", "中文"} pairs, or name the fields where one is left out.
type Entry = struct{ En, Zh string }

// ID is what a catalog's message ids may be: an integer type whose
// constants, counted from zero, index the catalog.
type ID interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Catalog holds the messages of one package, each id's [Entry] at the
// index of the id, so that a package declares its ids as constants and
// its texts as a keyed literal:
//
//	var catalog = i18n.Catalog[msgID]{
//		msgGone: {"{1} does not exist", "{1} 不存在"},
//	}
//
// {1} to {9} in a text stand for the arguments of [Catalog.Say] and
// [Catalog.Message]; texts written out with [Expand] may name theirs
// instead ({path}). Every method answers in English for any language but
// Chinese, and with "" for an id the catalog does not hold. Looking a
// text up allocates nothing.
type Catalog[K ID] []Entry

// Text returns the text of id in lang, its placeholders as they are.
func (c Catalog[K]) Text(lang Lang, id K) string {
	if e := c.entry(id); e != nil {
		return Pick(lang, e.En, e.Zh)
	}
	return ""
}

// Say returns the text of id in lang with {1}, {2}, … replaced by args,
// in one pass (see [Fill]).
func (c Catalog[K]) Say(lang Lang, id K, args ...string) string {
	return Fill(c.Text(lang, id), len(args), func(i int) string { return args[i] })
}

// Message returns id with its arguments, to be written out later in any
// language ([Message.In]). An id whose entry is empty in both languages
// (a package's "no message") gives the zero Message.
func (c Catalog[K]) Message(id K, args ...Arg) Message {
	e := c.entry(id)
	if e == nil || e.En == "" && e.Zh == "" {
		return Message{}
	}
	return Message{entry: e, args: args}
}

// Check holds every entry of the catalog from id 0 up to end, except the
// ids listed, to both languages with [Check] (the function), and returns
// what is wrong with each, joined, or nil. An id below end that the
// catalog does not reach is missing, and an entry at end or beyond has no
// id. The catalogs' tests call it, so that no message reaches a model in
// one language only.
func (c Catalog[K]) Check(end K, except ...K) error {
	var errs []error
	for id := K(0); id < end; id++ {
		if slices.Contains(except, id) {
			continue
		}
		e := c.entry(id)
		if e == nil {
			errs = append(errs, fmt.Errorf("message %d is missing", id))
			continue
		}
		if err := Check(e.En, e.Zh); err != nil {
			errs = append(errs, fmt.Errorf("message %d: %w", id, err))
		}
	}
	if n := len(c); uint64(n) > uint64(end) {
		errs = append(errs, fmt.Errorf("the catalog holds %d entries, more than the %d ids below %d", n, end, end))
	}
	return errors.Join(errs...)
}

// entry returns the entry of id, or nil when the catalog has none.
func (c Catalog[K]) entry(id K) *Entry {
	if uint64(id) >= uint64(len(c)) { // a negative id wraps round to a large one
		return nil
	}
	return &c[id]
}

// Arg is an argument of a [Message], written out in the language of the
// message it is shown in, so that a count, a size or a list reads as the
// sentence around it does. A Message is an Arg itself.
type Arg interface {
	In(lang Lang) string
}

// Message is an entry of a catalog with its arguments, written out only
// when read ([Message.In]), so that an error built in one place can be
// shown in whichever language the call that reads it speaks. The zero
// Message is empty.
type Message struct {
	entry *Entry
	args  []Arg
}

// In returns m written out in lang: its text with {1} to {9} replaced by
// its arguments, each written out in lang too.
func (m Message) In(lang Lang) string {
	if m.entry == nil {
		return ""
	}
	return Fill(Pick(lang, m.entry.En, m.entry.Zh), len(m.args), func(i int) string { return m.args[i].In(lang) })
}

// IsZero reports whether m is the zero Message, which has no text.
func (m Message) IsZero() bool { return m.entry == nil }

// Args returns the arguments of m, as it holds them: an error that
// carries a Message finds its cause among them.
func (m Message) Args() []Arg { return m.args }
