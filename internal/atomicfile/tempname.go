package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
)

// The temporary names a write, or any caller that puts something in place
// by a rename, gives its entries: TempPrefix, 16 lower-case hex digits and
// TempSuffix, beside the target.
const (
	TempPrefix   = ".toolserver-"
	TempSuffix   = ".tmp"
	tempHexBytes = 8 // 16 hex digits
)

// TempName returns a new random name for a temporary entry.
func TempName() string {
	var b [tempHexBytes]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return TempPrefix + hex.EncodeToString(b[:]) + TempSuffix
}

// IsTempName reports whether name is one TempName makes: exactly
// TempPrefix, 16 lower-case hex digits and TempSuffix, never a name that
// merely looks like one.
func IsTempName(name string) bool {
	const n = len(TempPrefix) + 2*tempHexBytes + len(TempSuffix)
	if len(name) != n || name[:len(TempPrefix)] != TempPrefix || name[n-len(TempSuffix):] != TempSuffix {
		return false
	}
	for _, c := range name[len(TempPrefix) : n-len(TempSuffix)] {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
