//go:build !windows

package main

import (
	"bufio"
	"io"
	"os"
	"runtime"
)

// echoBufSize is the read buffer of the echo. Lines up to this size are
// echoed straight out of the buffer without a copy; its pages are touched
// only as far as lines reach, so it costs no memory for short lines.
const echoBufSize = 4 << 20

// echoMain is the hidden "toolbench echo" subcommand: runEcho on stdin and
// stdout.
//
// It gives the Go runtime at least two Ps even when pinned to one CPU. With
// a single P, the runtime's sysmon takes the P away from the goroutine every
// time it has sat in read(2) for a sysmon tick (20 µs or more), as it does
// between requests, and hands it back when the read returns; that churn
// wakes threads on the pinned CPU and splits the echo's round trip into two
// modes about 1.3 µs apart, which made its median jump from run to run. With
// a spare P, sysmon leaves a P in a system call alone for 10 ms. Only one
// goroutine ever runs, so the second P costs nothing.
func echoMain() error {
	runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	return runEcho(os.Stdin, os.Stdout)
}

// runEcho is the physical floor of a stdio transport: it reads in line by
// line and writes each line, newline included, back to out with exactly one
// Write call, however long the line is. A last line without a newline is
// echoed as it is. It returns nil at the end of in.
func runEcho(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, echoBufSize)
	var long []byte // a line longer than the buffer, gathered piece by piece
	for {
		line, err := r.ReadSlice('\n')
		switch err {
		case nil:
			if len(long) > 0 {
				long = append(long, line...)
				line = long
				long = long[:0]
			}
			if _, err := out.Write(line); err != nil {
				return err
			}
		case bufio.ErrBufferFull:
			long = append(long, line...)
		case io.EOF:
			if len(long) > 0 {
				line = append(long, line...)
			}
			if len(line) > 0 {
				if _, err := out.Write(line); err != nil {
					return err
				}
			}
			return nil
		default:
			return err
		}
	}
}
