//go:build !toolserver_notmpfile

package security

// unnamedDisabled turns CreateUnnamed off when set; see
// tmpfile_disabled.go.
const unnamedDisabled = false
