package fs

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strings"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// The files of the roots are MCP resources too, read through the same
// sandbox, limits and memory budget as the tools (see "Resources" in
// doc.go). Their URIs are of a scheme of toolserver's own, so that no
// host path is ever shown: toolserver:///src/main.go names src/main.go of
// the root when there is one, and toolserver://notes/todo.md names
// notes:/todo.md when there are several, the root's name as the URI's
// authority. A host builds either from a path the tools show.

// ResourceScheme is the URI scheme of the files served as resources.
const ResourceScheme = "toolserver"

// resourceDirMIME is the MIME type of a directory's listing as a resource.
const resourceDirMIME = "text/plain; charset=utf-8"

// rootURI returns the URI of the root named name ("" with one root),
// with a trailing slash: the prefix of the URIs of its files.
func rootURI(name string) string { return ResourceScheme + "://" + name + "/" }

// ResourceURI returns the URI of the resource at p, a path as the tools
// show it (src/main.go, or notes:/todo.md with several roots), each of
// its names percent-encoded as RFC 3986 asks.
func ResourceURI(p string, multi bool) string {
	root := ""
	if multi {
		if name, rest, ok := strings.Cut(p, ":"); ok {
			root, p = name, strings.TrimPrefix(rest, "/")
		}
	}
	if p == "." {
		p = ""
	}
	return rootURI(root) + (&url.URL{Path: p}).EscapedPath()
}

// addResources adds, for each root, the root itself as a resource (its
// listing) and the template of the URIs of its files.
func (t *toolset) addResources(s *server.Server) error {
	multi := t.sb.Multi()
	for _, root := range t.sb.Roots() {
		name, title := "files", "Files of the root"
		if multi {
			name, title = root.Name, "Files of the root "+root.Name
		}
		uriRoot := ""
		if multi {
			uriRoot = root.Name
		}
		// prefix writes a path of the root as the model writes it: the
		// root itself is "." (or "name:"), the rest is "x/y" (or "name:/x/y").
		prefix := func(p string) string {
			switch {
			case !multi && p == "":
				return "."
			case !multi:
				return p
			case p == "":
				return root.Name + ":"
			}
			return root.Name + ":/" + p
		}
		read := func(ctx context.Context, call *server.Call, uri string, vars map[string]string) ([]server.ResourceContents, error) {
			if strings.HasPrefix(vars["path"], "/") {
				return nil, server.ResourceNotFound(uri) // an absolute path would name a host path
			}
			contents, err := t.readResource(ctx, call, uri, prefix(vars["path"]))
			return contents, resourceError(err, uri, call)
		}
		var watch server.WatchFunc
		if security.CanWatch() {
			watch = func(ctx context.Context, call *server.Call, uri string, vars map[string]string, changed func()) (func(), error) {
				if strings.HasPrefix(vars["path"], "/") {
					return nil, server.ResourceNotFound(uri)
				}
				stop, err := t.watchResource(uri, prefix(vars["path"]), changed)
				return stop, resourceError(err, uri, call)
			}
		}
		if err := server.AddResource(s, server.ResourceSpec{
			URI:         rootURI(uriRoot),
			Name:        name,
			Title:       title,
			Description: "The root's entries, one a line, as list_directory gives them.",
			MIMEType:    resourceDirMIME,
			Watch:       watch,
		}, read); err != nil {
			return err
		}
		if err := server.AddResource(s, server.ResourceSpec{
			URITemplate: rootURI(uriRoot) + "{+path}",
			Name:        name,
			Title:       title,
			Description: "A file's content (text, or binary as a blob) or a directory's listing, by its path in the root.",
			Complete: func(ctx context.Context, call *server.Call, argument, value string, _ map[string]string) (server.Completion, error) {
				if argument != "path" {
					return server.Completion{Values: []string{}}, nil
				}
				comp, err := t.completePath(ctx, prefix, value)
				return comp, resourceError(err, "", call)
			},
			Watch: watch,
		}, read); err != nil {
			return err
		}
	}
	return nil
}

// readResource reads the file or directory at p, a path as the model
// writes it, for the resource at uri: a file as read_file reads it
// whole (binary content of any kind as a blob), a directory as
// list_directory lists it.
func (t *toolset) readResource(ctx context.Context, call *server.Call, uri, p string) ([]server.ResourceContents, error) {
	if _, _, ok := security.ClassPath.Check(p); !ok {
		return nil, server.ResourceNotFound(uri)
	}
	rel, err := t.sb.Resolve(p)
	if err != nil {
		return nil, err
	}
	fi, err := t.sb.Fs().Stat(rel)
	if err != nil {
		return nil, t.sb.Explain("read", rel, err)
	}
	if fi.IsDir() {
		res, err := t.listDirectory(ctx, call, ListDirectoryArgs{Path: p})
		if err != nil {
			return nil, err
		}
		res.setLang(call.Lang())
		var b strings.Builder
		for _, c := range res.Content() {
			b.WriteString(c.Text())
		}
		return []server.ResourceContents{{URI: uri, MIMEType: resourceDirMIME, Text: b.String()}}, nil
	}
	res, err := t.readFile(ctx, call, rel, lineRange{from: 1}, t.lim.MaxReadBytes)
	var binary *binaryFileError
	switch {
	case errors.As(err, &binary):
		return t.readBlob(ctx, call, uri, rel)
	case err != nil:
		return nil, err
	case res.Data != nil:
		return []server.ResourceContents{{URI: uri, MIMEType: res.MIMEType, Blob: res.Data}}, nil
	case res.Truncated:
		return nil, fail(msgResourceTooLarge, lit(quote(rel)), size(res.Size), size(t.lim.MaxReadBytes))
	}
	return []server.ResourceContents{{URI: uri, MIMEType: textMIME, Text: res.Text}}, nil
}

// watchResource watches the file or folder at p, a path as the model
// writes it, for the resource at uri, through the sandbox: the same
// paths a read may read, and nothing outside the roots.
func (t *toolset) watchResource(uri, p string, changed func()) (func(), error) {
	if _, _, ok := security.ClassPath.Check(p); !ok {
		return nil, server.ResourceNotFound(uri)
	}
	rel, err := t.sb.Resolve(p)
	if err != nil {
		return nil, err
	}
	return t.sb.Watch(rel, changed)
}

// readBlob reads the binary file rel whole, within the read limit, for
// the resource at uri, after readFile found it binary and reserved room
// for it from the memory budget.
func (t *toolset) readBlob(ctx context.Context, call *server.Call, uri, rel string) ([]server.ResourceContents, error) {
	f, fi, err := t.sb.OpenRead(pathArg(rel), false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > t.lim.MaxReadBytes {
		return nil, fail(msgResourceTooLarge, lit(quote(rel)), size(fi.Size()), size(t.lim.MaxReadBytes))
	}
	// readFile, which found the file binary, reserved its size already.
	data, err := readUpTo(f, nil, t.lim.MaxReadBytes)
	if err != nil && err != io.EOF {
		return nil, t.sb.Explain("read", rel, err)
	}
	if int64(len(data)) > t.lim.MaxReadBytes {
		return nil, fail(msgResourceTooLarge, lit(quote(rel)), size(int64(len(data))), size(t.lim.MaxReadBytes))
	}
	return []server.ResourceContents{{URI: uri, MIMEType: "application/octet-stream", Blob: data}}, nil
}

// resourceError returns err as a resource read answers it: a path that
// is not there, or not the server's to serve (outside every root, or the
// client's roots), is the URI not found; any other error is its sentence,
// in the call's language.
func resourceError(err error, uri string, call *server.Call) error {
	var pe *security.PathError
	if errors.As(err, &pe) {
		switch pe.Reason {
		case security.NotExist, security.Escapes, security.NotAllowed, security.LinkOutside, security.NotDir,
			security.Empty, security.Control, security.Backslash, security.WindowsPath, security.Tilde, security.Ambiguous,
			security.TooLong, security.NameTooLong:
			return server.ResourceNotFound(uri)
		}
	}
	if e, ok := err.(translatable); ok {
		return e.inLanguage(call.Lang())
	}
	return err
}
