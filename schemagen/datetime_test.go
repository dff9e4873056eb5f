package schemagen

import (
	"sync"
	"testing"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
)

// santhoshDateTime is a schema asserting the date-time format, compiled
// with santhosh-tekuri/jsonschema.
var santhoshDateTime = sync.OnceValue(func() *santhosh.Schema {
	sch, err := compileSanthosh([]byte(`{"type":"string","format":"date-time"}`))
	if err != nil {
		panic(err)
	}
	return sch
})

func TestIsDateTime(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"2024-01-02T03:04:05Z", true},
		{"2024-01-02t03:04:05z", true},
		{"2024-01-02T03:04:05.123456789123+05:30", true},
		{"2024-01-02T03:04:05-00:00", true},
		{"2024-02-29T00:00:00Z", true},
		{"2000-02-29T00:00:00Z", true},
		{"0000-02-29T00:00:00Z", true},
		{"2023-02-29T00:00:00Z", false},
		{"1900-02-29T00:00:00Z", false},
		{"2024-04-31T00:00:00Z", false},
		{"2024-12-31T23:59:60Z", true},
		{"2024-12-31T23:58:60Z", false},
		{"2024-12-31T00:29:60+00:30", true},
		{"2024-12-31T23:29:60-00:30", true},
		{"2024-12-31T23:59:60+00:01", false},
		{"2024-12-31T23:59:61Z", false},
		{"2024-12-31T24:00:00Z", false},
		{"2024-12-31T23:60:00Z", false},
		{"2024-12-31T+3:+4:-0Z", true},
		{"2024-12-31T-1:00:00Z", false},
		{"2024-12-31T00:00:00+-0:+0", true},
		{"2024-12-31T00:00:00+24:00", false},
		{"2024-12-31T00:00:00+05:60", false},
		{"2024-12-31T00:00:00+0530", false},
		{"2024-12-31T00:00:00", false},
		{"2024-12-31T00:00:00.Z", false},
		{"2024-12-31 00:00:00Z", false},
		{"2024-1-31T00:00:00Z", false},
		{"+024-12-31T00:00:00Z", false},
		{"2024-13-01T00:00:00Z", false},
		{"2024-00-01T00:00:00Z", false},
		{"2024-01-00T00:00:00Z", false},
		{"2024-01-01T00:00:00ZZ", false},
		{"2024-01-01T00:00:00.5", false},
		{"2024-01-01T00:0:00Z", false},
		{"", false},
		{"yesterday", false},
	}
	for _, tt := range tests {
		if got := isDateTime(tt.s); got != tt.want {
			t.Errorf("isDateTime(%q) = %v, want %v", tt.s, got, tt.want)
		}
		if santhoshOK := santhoshDateTime().Validate(tt.s) == nil; santhoshOK != tt.want {
			t.Errorf("santhosh says %q is valid = %v, want %v", tt.s, santhoshOK, tt.want)
		}
	}
}

// FuzzDateTimeAgreesWithSanthosh checks isDateTime against the date-time
// format of santhosh-tekuri/jsonschema.
func FuzzDateTimeAgreesWithSanthosh(f *testing.F) {
	for _, s := range []string{"2024-01-02T03:04:05Z", "2024-12-31T23:59:60.5+00:00", "2024-02-29t00:00:00z", "2024-12-31T+3:+4:-0Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isDateTime(s), santhoshDateTime().Validate(s) == nil; got != want {
			t.Fatalf("isDateTime(%q) = %v, santhosh says %v", s, got, want)
		}
	})
}
