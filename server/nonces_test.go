package server

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDirNoncesAreSpentOnceAcrossStores(t *testing.T) {
	dir := t.TempDir()
	now := time.Unix(1_800_000_000, 0)
	a := DirNonces{Dir: dir, Now: func() time.Time { return now }}
	b := DirNonces{Dir: dir, Now: func() time.Time { return now }} // another process
	const n = "0123456789abcdef0123456789abcdef"
	exp := now.Add(time.Minute).Unix()
	if ok, err := a.Spend(n, exp); !ok || err != nil {
		t.Fatalf("first spend: %v %v", ok, err)
	}
	if ok, err := b.Spend(n, exp); ok || err != nil {
		t.Fatalf("a second process spent it again: %v %v", ok, err)
	}
	if ok, _ := a.Spend("../../etc/passwd", exp); ok {
		t.Fatal("a name that is no nonce was accepted")
	}
	// Once its state has expired, its file goes.
	now = now.Add(2 * time.Minute)
	if ok, _ := b.Spend("fedcba9876543210fedcba9876543210", now.Add(time.Minute).Unix()); !ok {
		t.Fatal("a new nonce was refused")
	}
	if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
		t.Fatalf("the expired nonce's file is still there: %v", err)
	}
}

func TestOnlyThirtyTwoLowerCaseHexDigitsNameANonce(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"0123456789abcdef0123456789abcdef", true},
		{"ffffffffffffffffffffffffffffffff", true},
		{"0123456789ABCDEF0123456789abcdef", false},  // upper case
		{"0123456789abcdef0123456789abcde", false},   // 31
		{"0123456789abcdef0123456789abcdef0", false}, // 33
		{"0123456789abcdef0123456789abcdeg", false},
		{"0123456789abcdef0123456789abcd/.", false},
		{"0123456789abcdef0123456789abcd\n", false},
		{"", false},
	} {
		if got := isNonceName(tc.name); got != tc.want {
			t.Errorf("isNonceName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
