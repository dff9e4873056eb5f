package fs

import (
	"context"
	"io/fs"
	"strings"

	"github.com/stdiotools/toolserver/internal/topk"
	"github.com/stdiotools/toolserver/internal/walk"
	"github.com/stdiotools/toolserver/server"
)

// completePath completes value, a path in a root typed so far (inRoot
// turns a path in the root into one as the model writes it), as a shell
// does: the entries of the folder typed so far whose names start with
// what follows its last "/", folders ending in "/", in name order, at
// most server.MaxCompletions of them. The folder is streamed as the
// searches stream it, within the same bound of entries; ignored entries
// (.git, and what ignore files list) are left out, and hidden names
// (starting with ".") come only when what is typed starts with one.
// Names are escaped as the tools show them, so that each reads back. A
// folder that is not there, or not the server's to show, completes to
// nothing; so does an absolute path, which would name the host's folders.
func (t *toolset) completePath(ctx context.Context, inRoot func(string) string, value string) (server.Completion, error) {
	dir, partial := "", value
	if strings.HasPrefix(value, "/") {
		return server.Completion{Values: []string{}}, nil // a host path is never completed
	}
	if i := strings.LastIndexByte(value, '/'); i >= 0 {
		dir, partial = value[:i+1], value[i+1:]
	}
	p := inRoot(strings.TrimSuffix(dir, "/"))
	var none server.Completion
	rel, err := t.sb.Resolve(p)
	if err != nil {
		return none, nil
	}
	if fi, err := t.sb.Fs().Stat(rel); err != nil || !fi.IsDir() {
		return none, nil
	}
	hidden := strings.HasPrefix(partial, ".")
	keep := topk.New(server.MaxCompletions, strings.Compare)
	total, stopped := 0, false
	err = t.walkIgnoring(ctx, rel, t.newIgnorer(false), func(_, _ string, d fs.DirEntry, err error) error {
		switch {
		case err == walk.ErrBudget:
			stopped = true
			return nil
		case err != nil:
			return nil // an entry that cannot be used is not offered
		}
		name, _ := displayName(d.Name()) // as the tools show it, which a read takes back
		if strings.HasPrefix(name, partial) && (hidden || !strings.HasPrefix(name, ".")) {
			total++
			v := dir + name
			if d.IsDir() {
				v += "/"
			}
			keep.Add(v)
		}
		if d.IsDir() {
			return fs.SkipDir // one level: the folder typed so far
		}
		return nil
	})
	if err != nil {
		return none, err
	}
	values := keep.Sorted()
	if values == nil {
		values = []string{}
	}
	if stopped {
		total = 0 // how many there are is not known
	}
	return server.Completion{Values: values, Total: total, HasMore: stopped || total > len(values)}, nil
}
