//go:build toolserver_notmpfile

package security

// unnamedDisabled turns CreateUnnamed off, so that every atomic write
// goes through a named temporary file, as where the kernel or the file
// system has no O_TMPFILE. Only tests build with the tag
// (go build -tags toolserver_notmpfile), to meet that way on Linux too:
// cmd/toolserver's test that kills the server during writes. A build tag
// rather than a flag or an environment variable, so that no binary
// anyone runs can be switched to the way that leaves files behind.
const unnamedDisabled = true
