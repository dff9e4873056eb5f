//go:build !unix

package main

import "io"

// pollable returns r unchanged: non-blocking pipes are a Unix matter.
func pollable(r io.Reader) (io.Reader, func()) { return r, func() {} }
