package jsonwire

import "testing"

func TestCanonicalJSON(t *testing.T) {
	cases := []struct{ a, b string }{
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{`{"n":1}`, `{"n":1.0}`},
		{`{"n":100}`, `{"n":1e2}`},
		{`{"n":0.5}`, `{"n":5e-1}`},
		{`{"l":[1,{"y":2,"x":1}]}`, `{"l":[1.00,{"x":1,"y":2}]}`},
		{``, `{}`},
	}
	for _, tc := range cases {
		if a, b := Canonical([]byte(tc.a)), Canonical([]byte(tc.b)); string(a) != string(b) {
			t.Errorf("%s and %s differ: %s vs %s", tc.a, tc.b, a, b)
		}
	}
	if a, b := Canonical([]byte(`{"n":1}`)), Canonical([]byte(`{"n":"1"}`)); string(a) == string(b) {
		t.Error("a number and a string are the same")
	}
	if Canonical([]byte(`{`)) != nil {
		t.Error("invalid JSON has a canonical form")
	}
}

// TestCanonicalForms holds the bytes of a few canonical forms: a
// confirmation sealed by one release is opened by the next, which must
// find the same hash of the same arguments. Numbers with a fraction have
// one since json.Marshal refused the "3/2" of big.Rat.RatString, and
// every text with one had none: nil, the same for all of them.
func TestCanonicalForms(t *testing.T) {
	for in, want := range map[string]string{
		`{"path":"a<b>.go","n":1.50,"l":[1e2,{"z":null,"a":true}]}`: `{"l":[100,{"a":true,"z":null}],"n":1.5,"path":"a\u003cb\u003e.go"}`,
		`[0.5,5e-1,-0.0,-0,1.25e1,12.5,1E-3,0.001]`:                 `[0.5,0.5,0,0,12.5,12.5,0.001,0.001]`,
		`[1e401,1e401,1E+2]`:  `[1e401,1e401,100]`,
		`{"n":0.5}`:           `{"n":0.5}`,
		`{"a":1,"a":2}`:       `{"a":2}`,
		` {"\u0061" : "\/"} `: `{"a":"/"}`,
		`{"a":1} x`:           ``,
	} {
		if got := string(Canonical([]byte(in))); got != want {
			t.Errorf("Canonical(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestCanonicalComparesByValueUpToTheBoundOfExponents: at exponents of
// ±maxExponent itself numbers are still compared by value, and only
// beyond it as text.
func TestCanonicalComparesByValueUpToTheBoundOfExponents(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{`1e400`, `10e399`, true},
		{`1e-400`, `0.1e-399`, true},
		{`1e401`, `10e400`, false},
		{`1e-401`, `0.1e-400`, false},
	} {
		if same := string(Canonical([]byte(tc.a))) == string(Canonical([]byte(tc.b))); same != tc.same {
			t.Errorf("%s and %s the same: %v, want %v", tc.a, tc.b, same, tc.same)
		}
	}
}
