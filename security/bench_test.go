package security

import (
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
