package jsonwire

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// Canonical returns the canonical form of raw, one JSON value: object
// members sorted by name (the last value of a name given twice
// counting), strings as encoding/json writes them, and every number as
// the shortest exact form of its value, so that 1, 1.0 and 1e0 are one.
// Two texts have the same canonical form exactly when they hold the same
// value. Empty text stands for {}, the arguments of a call that gives
// none. It returns nil if raw is not valid JSON.
//
// It is what a call is known by where its arguments are a key: the
// result cache of the server, and the hash a confirmation is sealed
// with. It decodes with encoding/json and writes with json.Marshal
// (whose HTML escapes it keeps, so that the forms stay those sealed
// before): it runs once for a call that has a cache or asks for a
// confirmation, never on the path of every call.
func Canonical(raw []byte) []byte {
	if len(raw) == 0 {
		return []byte("{}")
	}
	if !Valid(raw) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	b, err := json.Marshal(normalizeNumbers(v))
	if err != nil {
		return nil
	}
	return b
}

// normalizeNumbers rewrites every json.Number in v in its canonical form
// (see canonicalNumber).
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		return canonicalNumber(x)
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	}
	return v
}

// maxExponent bounds the exponents of the numbers compared by value, as
// schemagen bounds those it takes: 1e999999 would cost big.Rat a tenth of
// a second, and its decimal form a megabyte.
const maxExponent = 400

// canonicalNumber returns the shortest decimal literal of n's value: no
// exponent, no trailing zeros after the point, no point for an integer,
// -0 as 0. A number whose exponent is beyond ±maxExponent, which no tool
// takes, is kept as written, and so compared as text.
//
// Every JSON number is a finite decimal, so the denominator of its value
// is 2^a·5^b and max(a, b) digits after the point write it exactly. (A
// fraction written as big.Rat.RatString, "3/2", is no JSON number:
// json.Marshal refuses it.)
func canonicalNumber(n json.Number) json.Number {
	s := string(n)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		if e, err := strconv.Atoi(s[i+1:]); err != nil || e < -maxExponent || e > maxExponent {
			return n
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return n
	}
	if r.IsInt() {
		return json.Number(r.Num().String())
	}
	d := new(big.Int).Set(r.Denom())
	twos := d.TrailingZeroBits()
	d.Rsh(d, twos)
	fives := uint(0)
	five, rem := big.NewInt(5), new(big.Int)
	for d.Cmp(big.NewInt(1)) > 0 {
		d.QuoRem(d, five, rem)
		fives++
	}
	return json.Number(strings.TrimRight(r.FloatString(int(max(twos, fives))), "0"))
}
