package security_test

import (
	"fmt"

	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/security"
)

// A sandbox turns the paths a model sends into clean paths inside the
// root, or into a sentence that says what to do instead.
func ExampleSandbox_Resolve() {
	sb := security.NewSandbox(afero.NewMemMapFs(), security.SandboxOptions{HostRoot: "/srv/project"})
	for _, p := range []string{"notes/./todo.txt", "/srv/project/src/main.go", "../secret", "/srv/project_secret/key", `C:\Users`} {
		rel, err := sb.Resolve(p)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(rel)
	}
	// Output:
	// notes/todo.txt
	// src/main.go
	// path "../secret" leaves the root; use a path inside it, such as "secret"
	// path "/srv/project_secret/key" is outside the root; use a path relative to the root
	// path "C:\Users" is a Windows path; use a path relative to the root with / separators
}
