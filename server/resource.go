package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/stdiotools/toolserver/internal/jsonwire"
	"github.com/stdiotools/toolserver/security"
	"github.com/yosida95/uritemplate/v3"
)

// ResourceSpec describes what a server serves by URI (MCP resources): one
// resource at a fixed URI, which resources/list names, or the many a URI
// template names, which resources/templates/list gives. A read runs as a
// tool call does, through the same slots, limits, policies, timeout,
// logs, metrics and traces, and the same levels decide whether it is
// served.
type ResourceSpec struct {
	// URI is the fixed URI of one resource. Set it or URITemplate.
	URI string
	// URITemplate is an RFC 6570 template of the URIs of many resources,
	// such as "notes://{+path}"; a read of a URI it matches gets the
	// values of its variables.
	URITemplate string
	// Name identifies the resource, or the template, to people and in
	// logs. It is required.
	Name string
	// Title is a short human-readable name, shown instead of Name.
	Title string
	// Description says what the resources are.
	Description string
	// MIMEType is the type of the resource's content, if it is one type.
	MIMEType string
	// Level is the level a server must serve for the resources to be
	// listed and read; reads change nothing, so most are security.Read.
	Level security.Level
	// Timeout bounds one read; 0 means [Options.ToolTimeout].
	Timeout time.Duration
	// Complete, if set, completes a variable of URITemplate as it is
	// typed (completion/complete), with the values of the others given
	// so far; it runs as a read does.
	Complete CompleteFunc
	// Watch, if set, lets clients subscribe to the resources: it runs as
	// a read does, once for each subscriber of a URI, and the server
	// tells the subscriber of each change Watch reports, gathered over
	// [Options.UpdateDelay]. Without it, subscribing is refused, and a
	// server none of whose resources has it does not offer subscriptions.
	Watch WatchFunc
}

// WatchFunc starts watching the resource at uri, whose template (if any)
// gave vars, and calls changed each time it may have changed, until stop
// is called. It returns once the watch is set: ctx and call are the
// subscription's, for checking that uri may be watched, and end before
// the watch does. A [ResourceNotFound] error says the URI names nothing;
// any other is the subscriber's to read. changed must be cheap and may be
// called from any goroutine.
type WatchFunc func(ctx context.Context, call *Call, uri string, vars map[string]string, changed func()) (stop func(), err error)

// CompleteFunc returns the completions of the value typed so far of the
// variable argument of a template, given the values of its other
// variables in args.
type CompleteFunc func(ctx context.Context, call *Call, argument, value string, args map[string]string) (Completion, error)

// Completion is what a CompleteFunc found: the first values, at most
// [MaxCompletions] of them, how many there are in all (0 if unknown), and
// whether there are more than Values holds.
type Completion struct {
	Values  []string
	Total   int
	HasMore bool
}

// MaxCompletions is the most values a completion returns, as MCP bounds
// them.
const MaxCompletions = 100

// ResourceContents is the content of a resource, or of one of the parts a
// read returns: Text, or Blob for binary content (sent as base64).
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
}

// ReadResourceFunc reads the resource at uri, whose template (if any)
// gave vars. A [ResourceNotFound] error says the URI names nothing; any
// other error is the reader's to read, as a tool's error is the model's.
type ReadResourceFunc func(ctx context.Context, call *Call, uri string, vars map[string]string) ([]ResourceContents, error)

// MaxResourceURI is the longest URI, in bytes, a read is matched with.
const MaxResourceURI = 16 << 10

// resource is a ResourceSpec added to a server.
type resource struct {
	spec    ResourceSpec
	tmpl    *uritemplate.Template // nil for a fixed URI
	read    ReadResourceFunc
	tool    *tool  // what a read runs as: its spec, and the handler the policies wrap
	listing []byte // its entry in resources/list or resources/templates/list
}

// resources holds the resources of a server, in the order they were added.
type resources struct {
	fixed, templates []*resource
}

// completes reports whether the server completes a variable of any
// template it serves at level max.
func (r *resources) completes(max security.Level) bool {
	for _, res := range r.templates {
		if res.spec.Complete != nil && max.Allows(res.spec.Level) {
			return true
		}
	}
	return false
}

// watches reports whether the server lets clients subscribe to any
// resource it serves at level max.
func (r *resources) watches(max security.Level) bool {
	for _, list := range [][]*resource{r.fixed, r.templates} {
		for _, res := range list {
			if res.spec.Watch != nil && max.Allows(res.spec.Level) {
				return true
			}
		}
	}
	return false
}

// template returns the template at level max whose URITemplate is t.
func (r *resources) template(t string, max security.Level) *resource {
	for _, res := range r.templates {
		if res.spec.URITemplate == t && max.Allows(res.spec.Level) {
			return res
		}
	}
	return nil
}

// any reports whether the server serves any resource at level max.
func (r *resources) any(max security.Level) bool {
	for _, list := range [][]*resource{r.fixed, r.templates} {
		for _, res := range list {
			if max.Allows(res.spec.Level) {
				return true
			}
		}
	}
	return false
}

// AddResource adds the resource, or the template of resources, spec
// describes to s, read by read. Once s has a resource its capabilities
// say so, in both eras, and resources/list, resources/templates/list and
// resources/read are served.
func AddResource(s *Server, spec ResourceSpec, read ReadResourceFunc) error {
	r, err := newResource(spec, read)
	if err != nil {
		return err
	}
	if r.tmpl != nil {
		s.resources.templates = append(s.resources.templates, r)
	} else {
		for _, other := range s.resources.fixed {
			if other.spec.URI == spec.URI {
				return fmt.Errorf("resource %q is already added", spec.URI)
			}
		}
		s.resources.fixed = append(s.resources.fixed, r)
	}
	return nil
}

// newResource checks spec and builds what serves it.
func newResource(spec ResourceSpec, read ReadResourceFunc) (*resource, error) {
	switch {
	case read == nil:
		return nil, fmt.Errorf("resource %q has no read function", spec.Name)
	case strings.TrimSpace(spec.Name) == "":
		return nil, errors.New("a resource needs a Name")
	case (spec.URI == "") == (spec.URITemplate == ""):
		return nil, fmt.Errorf("resource %q needs a URI or a URITemplate, and not both", spec.Name)
	case spec.Level < security.Read || spec.Level > security.Admin:
		return nil, fmt.Errorf("resource %q has an unknown level %v", spec.Name, spec.Level)
	case !utf8.ValidString(spec.URI + spec.URITemplate + spec.Name + spec.Title + spec.Description + spec.MIMEType):
		return nil, fmt.Errorf("resource %q is not valid UTF-8", spec.Name)
	}
	r := &resource{spec: spec, read: read}
	if spec.URITemplate != "" {
		t, err := uritemplate.New(spec.URITemplate)
		if err != nil {
			return nil, fmt.Errorf("resource %q: the URI template: %w", spec.Name, err)
		}
		r.tmpl = t
	} else if spec.Complete != nil {
		return nil, fmt.Errorf("resource %q: Complete needs a URITemplate", spec.Name)
	}
	r.tool = &tool{spec: ToolSpec{Name: spec.Name, Description: spec.Description, Level: spec.Level, Timeout: spec.Timeout}}
	r.tool.handler = r.handle
	r.listing = appendResourceEntry(nil, &spec)
	return r, nil
}

// match returns the resource at level max that serves uri, and the values
// of its template's variables; nil if none does. A fixed URI is looked up
// before the templates, which are tried in the order they were added.
func (r *resources) match(uri string, max security.Level) (*resource, map[string]string) {
	for _, res := range r.fixed {
		if res.spec.URI == uri && max.Allows(res.spec.Level) {
			return res, nil
		}
	}
	if len(uri) > MaxResourceURI {
		return nil, nil
	}
	for _, res := range r.templates {
		if !max.Allows(res.spec.Level) {
			continue
		}
		if values := res.tmpl.Match(uri); values != nil {
			vars := make(map[string]string, len(values))
			for name, v := range values {
				vars[name] = v.String()
			}
			return res, vars
		}
	}
	return nil, nil
}

// readRequest is what a resource read, or a completion of a template's
// variable, is asked.
type readRequest struct {
	uri      string
	vars     map[string]string
	complete *completeRequest // set for a completion of the template uri
	watch    *watchRequest    // set for a subscription (subscribe.go)
}

// completeRequest is the variable a completion completes, the value
// typed so far and the values of the other variables.
type completeRequest struct {
	argument, value string
	args            map[string]string
}

// handle runs a read as the innermost handler of the policies, and
// carries the contents in the result, which the answer writes as a
// resources/read result (answerRead).
func (r *resource) handle(ctx context.Context, c *Call) (*CallToolResult, error) {
	req := c.read
	if req == nil {
		return nil, Internal(errors.New("a resource read without its request"))
	}
	if req.watch != nil {
		return req.watch.run(ctx, c)
	}
	if cr := req.complete; cr != nil {
		comp, err := r.spec.Complete(ctx, c, cr.argument, cr.value, cr.args)
		if err != nil {
			return nil, err
		}
		comp = comp.bounded()
		return &CallToolResult{completion: &comp, read: true}, nil
	}
	contents, err := r.read(ctx, c, req.uri, req.vars)
	if err != nil {
		return nil, err
	}
	// The answer's line holds the contents again, escaped or in base64:
	// it is reserved from the memory budget as the contents are, and
	// given back when the call ends, after the answer is sent.
	if err := c.Reserve(ctx, encodedSize(contents)); err != nil {
		return nil, err
	}
	return &CallToolResult{contents: contents, read: true}, nil
}

// encodedSize returns how many bytes contents take in a response line,
// give or take the member names: the text as a JSON string, escapes
// counted, and blobs in base64.
func encodedSize(contents []ResourceContents) int64 {
	var n int64
	for _, c := range contents {
		n += int64(len(c.URI)+len(c.MIMEType)+jsonwire.QuotedLen(c.Text, false)+(len(c.Blob)+2)/3*4) + 64
	}
	return n
}

// ResourceNotFound returns the error a [ReadResourceFunc] gives for a URI
// that names nothing: the client gets -32602 with the URI in the error's
// data, as MCP asks.
func ResourceNotFound(uri string) error {
	return &callError{protocolError{code: jsonrpc2.CodeInvalidParams, message: resourceNotFound + shortenString(uri, 200), data: uriData(uri)}}
}

// resourceNotFound starts the message of a ResourceNotFound error.
const resourceNotFound = "Resource not found: "

// uriData is the data of an error about uri: {"uri": uri}.
func uriData(uri string) []byte {
	b := append([]byte(`{"uri":`), appendString(nil, uri)...)
	return append(b, '}')
}
