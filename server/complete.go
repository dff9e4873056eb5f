package server

import (
	"encoding/json"
	"fmt"
	"time"
)

// This file answers completion/complete for the variables of resource
// templates (ResourceSpec.Complete): the completion runs as a read does,
// and its answer is written by answerRead.

// completeParams are the params of completion/complete.
type completeParams struct {
	Ref *struct {
		Type string `json:"type"`
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"ref"`
	Argument *struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context *struct {
		Arguments map[string]string `json:"arguments"`
	} `json:"context"`
}

// complete answers completion/complete.
func (s *Server) complete(r *request) {
	var p completeParams
	if r.env.params == nil || json.Unmarshal(r.env.params, &p) != nil || p.Ref == nil || p.Argument == nil {
		r.invalidParams(`completion/complete needs params with "ref" ({"type":"ref/resource","uri":…}) and "argument" ({"name":…,"value":…}), with strings`)
		return
	}
	max := s.levelOf(r.grant)
	if p.Ref.Type != "ref/resource" {
		r.invalidParams("this server has no prompts; it completes the variables of its resource templates (ref/resource)")
		return
	}
	res := s.resources.template(p.Ref.URI, max)
	if res == nil || res.spec.Complete == nil {
		r.invalidParams("no resource template %q completes its variables; resources/templates/list gives the templates", shortenString(p.Ref.URI, 80))
		return
	}
	if !contains(res.tmpl.Varnames(), p.Argument.Name) {
		r.invalidParams("the template %s has no variable %q", res.spec.URITemplate, shortenString(p.Argument.Name, 40))
		return
	}
	var args map[string]string
	if p.Context != nil {
		args = p.Context.Arguments
	}
	s.start(r, func(r *request, received time.Time) (*Call, *wireError) {
		c := s.requestCall(r, received)
		if meta := r.env.meta; meta != nil {
			c.readMeta(meta)
		}
		c.tool, c.Tool = res.tool, res.tool.spec.Name
		c.read = &readRequest{uri: res.spec.URITemplate, complete: &completeRequest{argument: p.Argument.Name, value: p.Argument.Value, args: args}}
		return c, nil
	})
}

// bounded returns c as a client gets it: at most MaxCompletions values,
// hasMore when there were more (or the total says so), and a total no
// smaller than what it had, or 0 when unknown.
func (c Completion) bounded() Completion {
	if c.Total != 0 {
		c.Total = max(c.Total, len(c.Values))
	}
	if len(c.Values) > MaxCompletions {
		c.Total = max(c.Total, len(c.Values))
		c.Values, c.HasMore = c.Values[:MaxCompletions:MaxCompletions], true
	}
	if c.Values == nil {
		c.Values = []string{}
	}
	c.HasMore = c.HasMore || c.Total > len(c.Values)
	return c
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// appendCompleteResult appends the response line of a completion; si, the
// encoded serverInfo, is set for a modern one.
func appendCompleteResult(b []byte, id json.RawMessage, comp *Completion, si []byte) []byte {
	values, total, hasMore := comp.Values, comp.Total, comp.HasMore
	b = appendResultHead(b, id)
	b = append(b, `{"completion":{"values":[`...)
	for i, v := range values {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v)
	}
	b = append(b, ']')
	if total > 0 {
		b = append(b, fmt.Sprintf(`,"total":%d`, total)...)
	}
	b = append(b, fmt.Sprintf(`,"hasMore":%t}`, hasMore)...)
	if si != nil {
		b = append(b, `,"resultType":"complete","_meta":{`...)
		b = appendServerInfo(b, si, false)
		b = append(b, '}')
	}
	return append(b, "}}\n"...)
}
