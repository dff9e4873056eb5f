//go:build !linux

package watch

import (
	"errors"
	"os"
)

// Supported reports whether watching works on this system.
const Supported = false

// errUnsupported is Watch's error where watching does not work.
var errUnsupported = errors.New("watching files is supported on Linux only")

type system struct{}

func startSystem(func(string, bool), func()) (*system, error) { return nil, errUnsupported }
func (*system) add(*os.File) (string, error)                  { return "", errUnsupported }
func (*system) remove(string)                                 {}
func (*system) close()                                        {}
func identify(*os.File) (folderID, error)                     { return folderID{}, errUnsupported }
