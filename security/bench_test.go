package security

import (
	"fmt"
	"testing"

	"github.com/stdiotools/toolserver/i18n"
)

func BenchmarkResolve(b *testing.B) {
	s := newTestSandbox(i18n.English)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Resolve("notes/2024/meeting-minutes.md"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveRestricted(b *testing.B) {
	s := newTestSandbox(i18n.English)
	s.Restrict([]string{"docs", "notes", "src/app"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Resolve("./notes/2024/../2024/meeting-minutes.md"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRootFsStat(b *testing.B) {
	tt := newTestTree(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tt.fs.Stat("notes/todo.txt"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEscapeName escapes a thousand names as a listing shows them:
// plain ASCII, with nothing to escape.
func BenchmarkEscapeName(b *testing.B) {
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("file%04d.txt", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range names {
			if _, escaped := EscapeName(n); escaped {
				b.Fatal(n)
			}
		}
	}
}

// BenchmarkRefusalText writes out one refusal of a path, as the model
// reads it, in each language.
func BenchmarkRefusalText(b *testing.B) {
	for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
		b.Run(string(lang), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = msgNotAllowed.format(lang, "read", "notes/2026/december/a.txt", "docs"+listSep+"src", "")
			}
		})
	}
}
