package security

import "fmt"

// Level is how much a tool may change. A server is configured with the
// highest level it serves; tools above it are neither listed nor run.
type Level int

const (
	// Read tools only look: they never change anything.
	Read Level = iota
	// Write tools create and change files.
	Write
	// Admin tools destroy: deletion and anything that cannot be undone.
	Admin
)

// String returns the level's name as flags and messages spell it.
func (l Level) String() string {
	switch l {
	case Read:
		return "read"
	case Write:
		return "write"
	case Admin:
		return "admin"
	default:
		return fmt.Sprintf("Level(%d)", int(l))
	}
}

// Allows reports whether a server configured at level l may serve a tool
// of level t.
func (l Level) Allows(t Level) bool { return t <= l }
