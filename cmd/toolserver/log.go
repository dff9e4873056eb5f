package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// newLogger returns the stderr logger: JSON lines, or readable text when
// stderr is a terminal. stdout carries protocol messages only.
func newLogger(level string, stderr io.Writer) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(strings.ToLower(level))
	if err != nil || level == "" || lvl == zerolog.NoLevel {
		return zerolog.Logger{}, fmt.Errorf("--log-level %q is not one of debug, info, warn, error", level)
	}
	var w io.Writer = stderr
	if isTerminal(stderr) {
		w = zerolog.ConsoleWriter{Out: stderr, TimeFormat: time.TimeOnly}
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger(), nil
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
