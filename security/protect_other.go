//go:build !unix

package security

import "fmt"

// protection guards nested read-only roots by identity on Unix only;
// elsewhere they are guarded by path alone.
type protection struct{}

// newProtection returns nil: there is no identity check here.
func newProtection(*sbRoot) *protection { return nil }

// refusal is never called.
func (p *protection) refusal(string, bool) *readOnlyError { return nil }

// checkNested refuses a read-only root nested in a writable one: without
// the identity check, a path that differs only in case (on a file system
// that ignores case) or a link could reach it.
func (s *Sandbox) checkNested() error {
	for _, r := range s.roots {
		if len(r.nested) > 0 {
			return fmt.Errorf("the read-only root %q lies inside the writable root %q, which is guarded on Unix only; give folders that do not nest", r.nested[0].root.name, r.name)
		}
	}
	return nil
}
