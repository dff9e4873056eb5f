package server

import (
	"encoding/json"
	"fmt"
)

// This file answers resources/list and resources/templates/list: the
// resources at fixed URIs, and the templates, a page at a time, as
// tools/list pages the tools.

// listResources answers resources/list.
func (s *Server) listResources(r *request) {
	s.listResourcePage(r, "resources", s.resources.fixed)
}

// listResourceTemplates answers resources/templates/list.
func (s *Server) listResourceTemplates(r *request) {
	s.listResourcePage(r, "resourceTemplates", s.resources.templates)
}

// listResourcePage answers a list of the resources of list that the
// server serves, under the member key: a page of them from the request's
// cursor, with the cursor of the next page.
func (s *Server) listResourcePage(r *request, key string, list []*resource) {
	max := s.levelOf(r.grant)
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if r.env.params != nil {
		if err := json.Unmarshal(r.env.params, &p); err != nil {
			r.invalidParams(`"cursor" must be a string`)
			return
		}
	}
	var served []*resource
	for _, res := range list {
		if max.Allows(res.spec.Level) {
			served = append(served, res)
		}
	}
	start := 0
	if p.Cursor != nil {
		off, err := decodePrefixedCursor(key+":", *p.Cursor, len(served))
		if err != nil {
			r.invalidParams("the cursor %q was not issued by this server; pass nextCursor from the previous result unchanged, or omit it", shortenString(*p.Cursor, 40))
			return
		}
		start = off
	}
	end := min(start+s.opts.PageSize, len(served))
	b := append(appendResultHead(nil, r.env.id), `{"`+key+`":[`...)
	for i, res := range served[start:end] {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, res.listing...)
	}
	b = append(b, ']')
	if end < len(served) {
		b = append(b, `,"nextCursor":`...)
		b = appendString(b, encodePrefixedCursor(key+":", end))
	}
	if r.era.modern {
		scope := cacheScope
		if r.grant != nil {
			scope = "private" // what is listed depends on the token
		}
		b = append(b, fmt.Sprintf(`,"resultType":"complete","ttlMs":%d,"cacheScope":%q,"_meta":{`, toolsTTLMillis, scope)...)
		b = appendServerInfo(b, s.serverInfo, false)
		b = append(b, '}')
	}
	_ = r.out.respond(append(b, "}}\n"...), 0)
}

// appendResourceEntry appends the entry of spec in resources/list (for a
// fixed URI) or resources/templates/list.
func appendResourceEntry(b []byte, spec *ResourceSpec) []byte {
	if spec.URITemplate != "" {
		b = append(b, `{"uriTemplate":`...)
		b = appendString(b, spec.URITemplate)
	} else {
		b = append(b, `{"uri":`...)
		b = appendString(b, spec.URI)
	}
	b = append(b, `,"name":`...)
	b = appendString(b, spec.Name)
	for _, f := range []struct{ key, value string }{{"title", spec.Title}, {"description", spec.Description}, {"mimeType", spec.MIMEType}} {
		if f.value != "" {
			b = append(b, `,"`+f.key+`":`...)
			b = appendString(b, f.value)
		}
	}
	return append(b, '}')
}
