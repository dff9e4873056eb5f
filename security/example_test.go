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

// With several roots, a path names its root, a plain path lies in the
// first, and a read-only root refuses every change.
func ExampleNewRoots() {
	src, notes := afero.NewMemMapFs(), afero.NewMemMapFs()
	sb, err := security.NewRoots([]security.Root{
		{Name: "src", Fs: src, HostPath: "/home/me/src"},
		{Name: "notes", Fs: notes, HostPath: "/home/me/notes", ReadOnly: true},
	}, security.SandboxOptions{})
	if err != nil {
		panic(err)
	}
	for _, p := range []string{"main.go", "notes:/todo.md", "notes:todo.md", "/home/me/notes/a/b.md", "docs:/x"} {
		rel, err := sb.Resolve(p)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(rel)
	}
	_, err = sb.ResolveNew("notes:/new.md")
	fmt.Println(err)
	// Output:
	// src:/main.go
	// notes:/todo.md
	// notes:/todo.md
	// notes:/a/b.md
	// path "docs:/x" names the root "docs", which does not exist; use one of the roots "src:" or "notes:"
	// "notes:/new.md" is in the read-only root "notes", where nothing can be changed; write in "src:" instead
}
