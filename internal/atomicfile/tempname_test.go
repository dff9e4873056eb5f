package atomicfile

import "testing"

func TestIsTempNameTakesOnlyTheNamesTheServerMakes(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{TempName(), true},
		{".toolserver-0123456789abcdef.tmp", true},
		{".toolserver-0123456789ABCDEF.tmp", false},  // upper case: never made
		{".toolserver-0123456789abcde.tmp", false},   // 15 digits
		{".toolserver-0123456789abcdef0.tmp", false}, // 17
		{".toolserver-0123456789abcdeg.tmp", false},
		{".toolserver-0123456789abcdef.tmp.bak", false},
		{"toolserver-0123456789abcdef.tmp", false},
		{".toolserver-0123456789abcdef.TMP", false},
		{".toolserver-.tmp", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsTempName(tt.name); got != tt.want {
			t.Errorf("IsTempName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
