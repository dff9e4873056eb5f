//go:build !unix

package security

// protection guards nested read-only roots by identity on Unix only;
// elsewhere they are guarded by path alone.
type protection struct{}

// newProtection returns nil: there is no identity check here.
func newProtection(*sbRoot) *protection { return nil }

// refusal is never called.
func (p *protection) refusal(string, bool) *readOnlyError { return nil }
