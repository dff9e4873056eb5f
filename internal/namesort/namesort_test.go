package namesort

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// entry is an item with a name and other fields, as a listing's entry:
// four pointers, 48 bytes.
type entry struct {
	Name, Type string
	Size       *int64
	Modified   *int64
}

func entryName(e *entry) string { return e.Name }

// checkSortByName fails the test unless Sort orders names as
// slices.SortFunc with strings.Compare does, keeping each name's entry.
func checkSortByName(t *testing.T, names []string) {
	t.Helper()
	entries := make([]entry, len(names))
	for i, n := range names {
		entries[i] = entry{Name: n, Type: strconv.Itoa(i)} // the type says where it came from
	}
	want := slices.Clone(entries)
	slices.SortStableFunc(want, func(a, b entry) int { return strings.Compare(a.Name, b.Name) })
	Sort(entries, entryName)
	for i := range want {
		if entries[i].Name != want[i].Name {
			t.Fatalf("place %d holds %q, want %q", i, entries[i].Name, want[i].Name)
		}
		if from, err := strconv.Atoi(entries[i].Type); err != nil || names[from] != entries[i].Name {
			t.Fatalf("entry %q lost its own fields: %+v", entries[i].Name, entries[i])
		}
	}
}

func TestSortByNameOrdersAsStringsCompare(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var thousand, prefixes, deep []string
	for i := range 1000 {
		thousand = append(thousand, fmt.Sprintf("file%04d.txt", (i*7919)%1000))
		prefixes = append(prefixes, strings.Repeat("a", r.IntN(40))) // equal names too, and a prefix of another
		deep = append(deep, strings.Repeat("x", 50)+fmt.Sprint(r.IntN(100000)))
	}
	bytes := make([]string, 300)
	for i := range bytes {
		b := make([]byte, r.IntN(5))
		for j := range b {
			b[j] = "\x00\x01a\x7f\x80\xff"[r.IntN(6)]
		}
		bytes[i] = string(b)
	}
	tests := []struct {
		name  string
		names []string
	}{
		{"none", nil},
		{"one", []string{"a"}},
		{"a few, by insertion", []string{"b", "a", "ab", "", "aa"}},
		{"a thousand files", thousand},
		{"names that are prefixes of others, and equal ones", prefixes},
		{"names sharing more bytes than the radix goes", deep},
		{"every byte, high ones past ASCII and invalid UTF-8", bytes},
		{"names in order already", slices.Sorted(slices.Values(thousand))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSortByName(t, tt.names) })
	}
}

// FuzzSortByName sorts names cut from fuzzed text at each separator
// byte.
func FuzzSortByName(f *testing.F) {
	f.Add("file1 file10 file2 a  b\xff\x80 aa a", byte(' '))
	f.Add(strings.Repeat("zz y x w v u t s r q p o n m l k j i h g f e d c b a ", 3), byte(' '))
	f.Fuzz(func(t *testing.T, s string, sep byte) {
		checkSortByName(t, strings.Split(s, string(sep)))
	})
}

func TestStringsSortsAsSlicesSort(t *testing.T) {
	names := []string{"b", "", "a\xff", "a", "ab", "B", "a"}
	want := slices.Sorted(slices.Values(names))
	Strings(names)
	if !slices.Equal(names, want) {
		t.Errorf("Strings gave %q, want %q", names, want)
	}
}

// BenchmarkSortAThousandEntries sorts 1,000 entries of 48 bytes by name,
// with Sort and with slices.SortFunc.
func BenchmarkSortAThousandEntries(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	entries := make([]entry, 1000)
	for i := range entries {
		entries[i] = entry{Name: fmt.Sprintf("file-%06d.txt", r.IntN(1_000_000))}
	}
	work := make([]entry, len(entries))
	b.Run("namesort", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(work, entries)
			Sort(work, entryName)
		}
	})
	b.Run("slices.SortFunc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(work, entries)
			slices.SortFunc(work, func(a, b entry) int { return strings.Compare(a.Name, b.Name) })
		}
	})
}
