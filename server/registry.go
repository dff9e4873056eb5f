package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// ToolSpec describes a tool: what the model reads about it, and the level
// the server checks before listing or running it.
type ToolSpec struct {
	// Name identifies the tool in tools/call: 1 to 128 characters of
	// letters, digits, '_', '-' and '.'.
	Name string
	// Title is a short human-readable name; clients show it instead of
	// Name when present.
	Title string
	// Description tells the model what the tool does and when to use it.
	// It is required.
	Description string
	// Level is how much the tool may change; it also decides the
	// readOnlyHint annotation.
	Level security.Level
	// Destructive marks a Write tool that may overwrite or lose existing
	// data. Admin tools are always destructive; Read tools never are.
	Destructive bool
	// Idempotent marks a Write or Admin tool that has no further effect
	// when called again with the same arguments.
	Idempotent bool
	// OpenWorld marks a tool that reaches outside the server's own
	// sandbox (the network, other processes).
	OpenWorld bool
	// Timeout bounds one call; 0 means [Options.ToolTimeout].
	Timeout time.Duration
	// CacheTTL, for a Read tool, keeps its results this long, keyed by
	// the tool and its arguments in canonical form; identical calls in
	// flight at the same time run once. A write naming a path drops the
	// results that cover it. 0 means no cache.
	CacheTTL time.Duration
	// Exclusive marks a tool that is unsafe to run while any other call
	// runs: it waits for the calls in flight and holds the next ones back.
	Exclusive bool
	// Attempts is how many times in all a call that fails with a
	// [Transient] error is tried; 0 means 3. Writes that are not
	// Idempotent are tried once, whatever it says.
	Attempts int
	// Targets names the arguments (strings, or lists of strings) that say
	// what a call works on, as slash-separated paths. Calls of a Write or
	// Admin tool that share a target run one after another, in the order
	// they arrived, and drop the cached results at, above or below their
	// targets; a cached Read result is dropped by a write to what its
	// targets cover. A write tool without targets drops the whole cache.
	Targets []string
	// DryRun names the boolean argument that makes a call change nothing
	// (conventionally "dry_run"): such a call is not confirmed and drops
	// nothing from the cache.
	DryRun string
	// Schemas, when not nil, are the tool's schemas as AddTool reflects
	// them, saved in the program so that a start need not reflect them
	// again (see [SavedSchemas], which says what changes).
	Schemas *SavedSchemas
}

// ToolAnnotations are the hints MCP clients read to decide how carefully to
// treat a tool. [ToolSpec] derives them so that they are always honest.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// Annotations returns the annotations spec implies.
func (spec ToolSpec) Annotations() ToolAnnotations {
	a := ToolAnnotations{Title: spec.Title, OpenWorldHint: spec.OpenWorld}
	if spec.Level == security.Read {
		a.ReadOnlyHint = true // destructive and idempotent hints only mean something for tools that write
		return a
	}
	destructive := spec.Destructive || spec.Level == security.Admin
	idempotent := spec.Idempotent
	a.DestructiveHint, a.IdempotentHint = &destructive, &idempotent
	return a
}

// Tool is a tool as tools/list describes it.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  ToolAnnotations `json:"annotations"`
}

// tool is a registered tool.
type tool struct {
	spec     ToolSpec
	declares bool // spec names Targets or a DryRun argument
	info     Tool
	listing  json.RawMessage // info encoded once for tools/list
	handler  ToolHandler     // validates the arguments and runs the tool (addtool.go)
	// in and out are the types of the tool's arguments and result, which
	// its schemas are reflected from.
	in, out reflect.Type
}

// registry holds the tools in the order they were added.
type registry struct {
	list   []*tool
	byName map[string]*tool
	// served, when set, says whether the tool of a name is served
	// ([Options.Tools], [Options.DisableTools]). A tool it leaves out is
	// checked as any other and then kept only by its name, in leftOut.
	served  func(name string) bool
	leftOut map[string]bool
	names   []string // of every tool added, served or not, in order
	// exclusive is set once a tool declares ToolSpec.Exclusive: until
	// then no call takes the exclusive lock (policy_exclusive.go).
	exclusive atomic.Bool
}

// validToolName reports whether name follows MCP's tool name rule:
// 1 to 128 characters of [A-Za-z0-9_.-].
func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for _, c := range []byte(name) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
		if !ok {
			return false
		}
	}
	return true
}

// lookup finds the tool a raw JSON string names. It returns the name as
// well, decoded, and ok false when raw is not a string. A name without
// escapes, the usual case, is looked up without a copy.
func (r *registry) lookup(raw []byte) (t *tool, name string, ok bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		if t := r.byName[string(raw[1:len(raw)-1])]; t != nil {
			return t, t.spec.Name, true
		}
	}
	name, ok = decodeString(raw)
	if !ok {
		return nil, "", false
	}
	return r.byName[name], name, true
}

// add registers t after checking its definition.
func (r *registry) add(t *tool) error {
	name := t.spec.Name
	switch {
	case !validToolName(name):
		return fmt.Errorf("tool name %q is invalid: use 1 to 128 letters, digits, '_', '-' or '.'", name)
	case strings.TrimSpace(t.spec.Description) == "":
		return fmt.Errorf("tool %q has no description: the model needs one to know when to use it", name)
	case t.spec.Level < security.Read || t.spec.Level > security.Admin:
		return fmt.Errorf("tool %q has an unknown level %v", name, t.spec.Level)
	}
	if _, dup := r.byName[name]; dup || r.leftOut[name] {
		return fmt.Errorf("tool %q is already registered", name)
	}
	r.names = append(r.names, name)
	if r.served != nil && !r.served(name) {
		if r.leftOut == nil {
			r.leftOut = make(map[string]bool)
		}
		r.leftOut[name] = true
		return nil
	}
	t.info = Tool{
		Name:         name,
		Title:        t.spec.Title,
		Description:  t.spec.Description,
		InputSchema:  t.info.InputSchema,
		OutputSchema: t.info.OutputSchema,
		Annotations:  t.spec.Annotations(),
	}
	if t.info.InputSchema == nil {
		t.info.InputSchema = json.RawMessage(`{"type":"object"}`) // MCP requires one; this one takes any arguments
	}
	// Sized for the schemas and the description, which are most of it,
	// so that it is not grown by doubling.
	t.listing = appendTool(make([]byte, 0, 256+len(t.info.InputSchema)+len(t.info.OutputSchema)+len(t.info.Description)+len(t.info.Title)), &t.info)
	t.declares = len(t.spec.Targets) > 0 || t.spec.DryRun != ""
	if t.spec.Exclusive {
		r.exclusive.Store(true)
	}
	if r.byName == nil {
		r.byName = make(map[string]*tool)
	}
	r.list = append(r.list, t)
	r.byName[name] = t
	return nil
}

// visible returns the tools a server at level max serves, in order.
func (r *registry) visible(max security.Level) []*tool {
	out := make([]*tool, 0, len(r.list))
	for _, t := range r.list {
		if max.Allows(t.spec.Level) {
			out = append(out, t)
		}
	}
	return out
}

// names lists the names of tools, for error messages.
func names(tools []*tool) string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.spec.Name
	}
	return strings.Join(names, ", ")
}

// Tools returns the descriptions of the tools the server serves, in the
// order tools/list gives them. They are the caller's to change.
func (s *Server) Tools() []Tool {
	visible := s.tools.visible(s.opts.maxLevel())
	out := make([]Tool, len(visible))
	for i, t := range visible {
		out[i] = t.info
		// The schemas are copied: saved ones share the bytes of their
		// strings (constants, in memory a write faults on), which the
		// first call reads again, and reflected ones the validator's. The
		// annotations' hints are pointers, made anew.
		out[i].InputSchema = bytes.Clone(t.info.InputSchema)
		out[i].OutputSchema = bytes.Clone(t.info.OutputSchema)
		out[i].Annotations = t.spec.Annotations()
	}
	return out
}

// shortenString cuts s to at most n runes, marking the cut with "…".
func shortenString(s string, n int) string { return shorten([]byte(s), n) }

// appendTool appends t as JSON, as encoding/json would write it without
// HTML escaping, given schemas that are compact JSON (schemagen writes
// them so, and add has checked they are valid): they are copied as they
// are, where encoding/json would compact and copy them again at every
// start of the server.
func appendTool(b []byte, t *Tool) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, t.Name)
	if t.Title != "" {
		b = append(b, `,"title":`...)
		b = appendString(b, t.Title)
	}
	b = append(b, `,"description":`...)
	b = appendString(b, t.Description)
	b = append(b, `,"inputSchema":`...)
	b = append(b, t.InputSchema...)
	if t.OutputSchema != nil {
		b = append(b, `,"outputSchema":`...)
		b = append(b, t.OutputSchema...)
	}
	a := &t.Annotations
	b = append(b, `,"annotations":{`...)
	if a.Title != "" {
		b = append(b, `"title":`...)
		b = appendString(b, a.Title)
		b = append(b, ',')
	}
	b = append(b, `"readOnlyHint":`...)
	b = strconv.AppendBool(b, a.ReadOnlyHint)
	if a.DestructiveHint != nil {
		b = append(b, `,"destructiveHint":`...)
		b = strconv.AppendBool(b, *a.DestructiveHint)
	}
	if a.IdempotentHint != nil {
		b = append(b, `,"idempotentHint":`...)
		b = strconv.AppendBool(b, *a.IdempotentHint)
	}
	b = append(b, `,"openWorldHint":`...)
	b = strconv.AppendBool(b, a.OpenWorldHint)
	return append(b, "}}"...)
}
