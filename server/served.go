package server

import (
	"fmt"
	"slices"
	"strings"
)

// serves reports whether the options let the tool named name be served.
func (o *Options) serves(name string) bool {
	if len(o.Tools) > 0 && !slices.Contains(o.Tools, name) {
		return false
	}
	return !slices.Contains(o.DisableTools, name)
}

// Serves reports whether the options of s let a tool called name be
// served: [Options.Tools] lists it, if it lists any, and
// [Options.DisableTools] does not. A tool is served only when
// [Server.MaxLevel] allows its level too. A tool whose description
// points the model to another tool asks first, so that it names no tool
// the model cannot call.
func (s *Server) Serves(name string) bool { return s.opts.serves(name) }

// CheckToolNames returns an error that names each name in [Options.Tools]
// and [Options.DisableTools] that no tool added so far has, and the tools
// that were added; nil when every name is a tool's. A program calls it
// once its tools are added, to refuse a misspelt name rather than serve
// other tools than it was asked to.
func (s *Server) CheckToolNames() error {
	var unknown []string
	for _, name := range slices.Concat(s.opts.Tools, s.opts.DisableTools) {
		if !slices.Contains(s.tools.names, name) && !slices.Contains(unknown, name) {
			unknown = append(unknown, name)
		}
	}
	switch len(unknown) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("no tool is called %q; the tools are %s", unknown[0], strings.Join(s.tools.names, ", "))
	}
	return fmt.Errorf("no tools are called %s; the tools are %s", quoteAll(unknown), strings.Join(s.tools.names, ", "))
}

// quoteAll quotes each name and joins them with commas.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
