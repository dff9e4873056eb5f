package fs

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/internal/gitignore"
	"github.com/stdiotools/toolserver/internal/topk"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// DirectoryTreeArgs are the arguments of directory_tree.
type DirectoryTreeArgs struct {
	Path           string   `json:"path" chars:"path" default:"." description:"Relative to the root."`
	Depth          int      `json:"depth" default:"3" minimum:"1" maximum:"100" description:"Levels below path; 1 lists only its entries."`
	Exclude        []string `json:"exclude,omitempty" chars:"glob" minLength:"1" maxItems:"50" description:"Globs to leave out with their contents, such as node_modules."`
	IncludeIgnored bool     `json:"include_ignored,omitempty" description:"Also show .git and ignored files."`
}

// DirectoryTreeResult is the result of directory_tree. The tree is sent as
// indented text; the counts as structured content.
type DirectoryTreeResult struct {
	Path      string `json:"path" description:"The directory at the top, relative to the root."`
	Depth     int    `json:"depth" description:"The depth shown."`
	Entries   int    `json:"entries" description:"How many entries the tree shows."`
	Dirs      int    `json:"dirs" description:"How many of them are directories."`
	Files     int    `json:"files" description:"How many of them are files."`
	Symlinks  int    `json:"symlinks,omitempty" description:"How many of them are symbolic links (shown, not followed)."`
	Truncated bool   `json:"truncated" description:"True when the tree was cut at the entry limit."`
	// Ignored counts the entries of the levels read, not those of deeper
	// ones.
	Ignored         int            `json:"ignored,omitempty" description:"Entries left out as ignored (.git, and what ignore files exclude) on the levels shown; a directory counts once."`
	IgnoreUnapplied []SkippedEntry `json:"ignore_files_not_applied,omitempty" description:"Ignore files not applied, so what they exclude is shown, and why."`
	Note            string         `json:"note,omitempty" description:"What was left out and how to see it."`

	// Tree is the tree as indented text, sent as content only.
	Tree string `json:"-"`
}

// Content returns the tree and the note.
func (r DirectoryTreeResult) Content() []server.Content {
	s := r.Tree
	if r.Note != "" {
		s += r.Note + "\n"
	}
	return []server.Content{server.TextContent(s)}
}

// treeNode is one entry of a tree being built.
type treeNode struct {
	name     string
	typ      string
	link     string // for a symbolic link: " -> target"
	children []*treeNode
	more     int  // entries left out for the entry limit
	unread   bool // could not be read
	cut      bool // not read for the entry limit
}

func (t *toolset) addDirectoryTree(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "directory_tree",
		Schemas: savedSchemas("directory_tree"),
		Title:   "Show a directory tree",
		Description: fmt.Sprintf("Shows the layout below path as an indented tree; directories end in \"/\", symbolic links in \"@\" (not followed). "+
			"depth at most %d, at most %d entries, level by level. ",
			t.lim.MaxDepth, t.lim.MaxListEntries) + mention(s, "list_directory", "For one directory's details use list_directory. ") + ignoreSentence,
		Level: security.Read,
	}, speak(t.directoryTree))
}

func (t *toolset) directoryTree(ctx context.Context, call *server.Call, in DirectoryTreeArgs) (DirectoryTreeResult, error) {
	rel, err := t.sb.Resolve(in.Path)
	if err != nil {
		return DirectoryTreeResult{}, err
	}
	exclude, err := compileGlobs(in.Exclude, "exclude")
	if err != nil {
		return DirectoryTreeResult{}, err
	}
	depth := in.Depth
	lang := call.Lang()
	var notes reasons
	if depth > t.lim.MaxDepth {
		depth = t.lim.MaxDepth
		notes = append(notes, say(msgTreeDepth, num(in.Depth), num(depth)))
	}
	res := DirectoryTreeResult{Path: rel, Depth: depth}

	// Read level by level, so that the entry limit cuts the deepest
	// levels first.
	type pending struct {
		n      *treeNode
		rel    string
		sub    string
		level  int
		parent *gitignore.Rules // the ignore rules of the directory that holds it
	}
	ig := t.newIgnorer(in.IncludeIgnored)
	root := &treeNode{name: rel, typ: typeDir}
	queue := []pending{{root, rel, "", 1, ig.above(ctx, rel)}}
	limit := t.lim.MaxListEntries
	for qi := 0; qi < len(queue); qi++ {
		p := queue[qi]
		if res.Entries >= limit {
			p.n.cut = true
			continue
		}
		// The first entries by name that the limit leaves room for, read
		// without holding the whole directory.
		first := topk.New(limit-res.Entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		seen := 0
		rules, _ := ig.enter(ctx, p.parent, p.rel) // kept while its subdirectories wait
		err := t.streamDir(ctx, p.rel, func(d fs.DirEntry) error {
			if ig.skip(rules, joinRel(p.rel, d.Name()), d) {
				return nil
			}
			if !matchAny(exclude, joinSub(p.sub, d.Name())) {
				seen++
				first.Add(d)
			}
			return nil
		})
		if err != nil {
			if p.n == root || ctx.Err() != nil {
				return DirectoryTreeResult{}, err
			}
			p.n.unread = true
			continue
		}
		kept := first.Sorted()
		if more := seen - len(kept); more > 0 {
			p.n.more += more
			res.Truncated = true
		}
		for _, d := range kept {
			sub := joinSub(p.sub, d.Name())
			child := &treeNode{name: d.Name(), typ: entryType(d.Type())}
			p.n.children = append(p.n.children, child)
			res.Entries++
			switch child.typ {
			case typeDir:
				res.Dirs++
				if p.level < depth {
					queue = append(queue, pending{child, joinRel(p.rel, d.Name()), sub, p.level + 1, rules})
				}
			case typeFile:
				res.Files++
			case typeSymlink:
				res.Symlinks++
				child.link = t.linkArrow(joinRel(p.rel, d.Name()), lang)
			}
		}
	}
	var sb strings.Builder
	top, escaped := displayName(rel)
	sb.WriteString(top)
	sb.WriteByte('/')
	if escaped {
		sb.WriteString(escapedMark)
	}
	sb.WriteByte('\n')
	marked := writeTree(&sb, root, 1, lang) || escaped
	res.Tree = sb.String()
	if res.Truncated || hasCut(root) {
		res.Truncated = true
		notes = append(notes, say(msgTreeStops, num(limit)))
	}
	if res.Ignored, res.IgnoreUnapplied = ig.count(), ig.unused(); res.Ignored > 0 {
		notes = append(notes, counted(res.Ignored, msgTreeIgnoredOne, msgTreeIgnoredMany))
	}
	var note sentences
	if len(notes) > 0 {
		note = append(note, say(msgTreeNote, notes))
	}
	res.Note = append(note, ig.unusedSentence()).In(lang)
	if marked {
		res.Note = strings.TrimPrefix(res.Note+"\n"+escapedNote(lang), "\n")
	}
	return res, nil
}

// linkArrow returns " -> target" for the symbolic link rel, with the
// target root-relative, or a phrase when it points outside the root.
func (t *toolset) linkArrow(rel string, lang i18n.Lang) string {
	target, inside, err := linkTarget(t.sb, rel)
	switch {
	case err != nil:
		return ""
	case !inside:
		return " -> " + say(msgOutsideRoot).In(lang)
	}
	shown, _ := displayName(target)
	return " -> " + shown
}

// writeTree writes the children of n, indented two spaces a level, and
// reports whether it marked an escaped name.
func writeTree(sb *strings.Builder, n *treeNode, level int, lang i18n.Lang) (marked bool) {
	indent := strings.Repeat("  ", level)
	for _, c := range n.children {
		sb.WriteString(indent)
		name, escaped := displayName(c.name)
		escaped = escaped || strings.Contains(c.link, `\`) // the target, already escaped
		sb.WriteString(name)
		switch c.typ {
		case typeDir:
			sb.WriteByte('/')
		case typeSymlink:
			sb.WriteByte('@')
			sb.WriteString(c.link)
		case typeOther:
			sb.WriteByte('|')
		}
		switch {
		case c.unread:
			sb.WriteString(say(msgCannotRead).In(lang))
		case c.cut:
			sb.WriteString(" …")
		}
		if escaped {
			sb.WriteString(escapedMark)
			marked = true
		}
		sb.WriteByte('\n')
		if writeTree(sb, c, level+1, lang) {
			marked = true
		}
	}
	if n.more > 0 {
		fmt.Fprintf(sb, "%s… %s\n", indent, counted(n.more, msgMoreEntry, msgMoreEntries).In(lang))
	}
	return marked
}

// hasCut reports whether any directory of the tree was left unread for
// the entry limit.
func hasCut(n *treeNode) bool {
	if n.cut || n.more > 0 {
		return true
	}
	for _, c := range n.children {
		if hasCut(c) {
			return true
		}
	}
	return false
}
