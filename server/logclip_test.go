package server

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestClipKeepsUpToMaxLoggedWholeAndShortensTheRest(t *testing.T) {
	cases := []struct {
		name    string
		n       int
		clipped bool
	}{
		{"short", 10, false},
		{"exactly maxLogged bytes", maxLogged, false},
		{"a byte more", maxLogged + 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := strings.Repeat("a", tc.n)
			if got := clip(s); (got != s) != tc.clipped || tc.clipped && got != strings.Repeat("a", maxLogged-1)+"…" {
				t.Errorf("clip of %d bytes gave %d bytes: %.20q…", tc.n, len(got), got)
			}
			// A JSON text of n bytes: itself, or a string of its prefix.
			raw := json.RawMessage(`"` + strings.Repeat("a", tc.n-2) + `"`)
			got := clipJSON(raw)
			if (string(got) != string(raw)) != tc.clipped {
				t.Errorf("clipJSON of %d bytes gave %d bytes: %.20s…", tc.n, len(got), got)
			}
			var text string
			if err := json.Unmarshal(got, &text); err != nil {
				t.Fatalf("clipJSON gave no JSON string: %v", err)
			}
			if tc.clipped && text != `"`+strings.Repeat("a", maxLogged-2)+"…" {
				t.Errorf("clipJSON of %d bytes kept %.20q…", tc.n, text)
			}
		})
	}
}
