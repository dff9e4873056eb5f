package server

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// errBadCursor is returned for a cursor this server did not hand out.
var errBadCursor = errors.New("bad cursor")

const cursorPrefix = "tools:"

func encodeCursor(offset int) string { return encodePrefixedCursor(cursorPrefix, offset) }

func decodeCursor(c string, n int) (int, error) { return decodePrefixedCursor(cursorPrefix, c, n) }

// encodePrefixedCursor returns the cursor of the page of a list that
// starts at offset; prefix tells the lists apart.
func encodePrefixedCursor(prefix string, offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(prefix + strconv.Itoa(offset)))
}

// decodePrefixedCursor returns the offset of cursor c of the list of n
// items whose cursors start with prefix, or errBadCursor.
func decodePrefixedCursor(prefix, c string, n int) (int, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), prefix) {
		return 0, errBadCursor
	}
	off, err := strconv.Atoi(string(b[len(prefix):]))
	if err != nil || off <= 0 || off >= n {
		return 0, errBadCursor
	}
	return off, nil
}

// listTools answers tools/list, one page at a time: the tools the
// request's grant allows, if it has one. A modern result also says how
// long a client may keep the page, and whose it is.
func (s *Server) listTools(r *request) {
	env, modern := r.env, r.era.modern
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if env.params != nil {
		if err := json.Unmarshal(env.params, &p); err != nil {
			r.invalidParams(`"cursor" must be a string`)
			return
		}
	}
	all := s.tools.visible(s.levelOf(r.grant))
	start := 0
	if p.Cursor != nil {
		off, err := decodeCursor(*p.Cursor, len(all))
		if err != nil {
			r.invalidParams("the cursor %q was not issued by this server; pass nextCursor from the previous tools/list result unchanged, or omit it", shortenString(*p.Cursor, 40))
			return
		}
		start = off
	}
	end := min(start+s.opts.PageSize, len(all))
	next := ""
	if end < len(all) {
		next = encodeCursor(end)
	}
	// The response line is written in one buffer of about its size: the
	// page is most of it, and its tens of kilobytes, grown by doubling and
	// then copied into the line, cost a start 2% of its CPU (perf).
	page := all[start:end]
	size := 192 + len(env.id) + len(next) + len(s.serverInfo)
	for _, t := range page {
		size += len(t.listing) + 1
	}
	b := appendResultHead(make([]byte, 0, size), env.id)
	b = appendToolsPage(b, page, next)
	if modern {
		scope := cacheScope
		if r.grant != nil {
			scope = "private" // the list depends on the token (MCP 2026-07-28, tools: it "MAY vary by the authorization presented")
		}
		b = append(b[:len(b)-1], fmt.Sprintf(`,"resultType":"complete","ttlMs":%d,"cacheScope":%q,"_meta":{`, toolsTTLMillis, scope)...)
		b = appendServerInfo(b, s.serverInfo, false)
		b = append(b, "}}"...)
	}
	_ = r.out.respond(append(b, "}\n"...), 0)
}

// toolsPage is a tools/list result as encoding/json would write it; the
// page is written by appendToolsPage, and the fuzz test holds the two to
// the same bytes.
type toolsPage struct {
	Tools      []json.RawMessage `json:"tools"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

// appendToolsPage appends a tools/list result: the tools' listings,
// encoded once at registration, and the cursor of the next page, if any.
func appendToolsPage(b []byte, tools []*tool, next string) []byte {
	b = append(b, `{"tools":[`...)
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, t.listing...)
	}
	b = append(b, ']')
	if next != "" {
		b = append(b, `,"nextCursor":`...)
		b = appendString(b, next)
	}
	return append(b, '}')
}
