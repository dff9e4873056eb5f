package server

import (
	"encoding/json"
	"strings"
)

// LogLevel is the severity of a message sent to the client, as in syslog
// (RFC 5424), which MCP's logging uses.
type LogLevel int32

// The levels, least severe first.
const (
	LevelDebug LogLevel = iota
	LevelInfo
	LevelNotice
	LevelWarning
	LevelError
	LevelCritical
	LevelAlert
	LevelEmergency
)

var levelNames = [...]string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// String returns the level's MCP name.
func (l LogLevel) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return "unknown"
	}
	return levelNames[l]
}

func parseLogLevel(s string) (LogLevel, bool) {
	for i, n := range levelNames {
		if n == s {
			return LogLevel(i), true
		}
	}
	return 0, false
}

// setLevel answers logging/setLevel: from now on, messages at or above
// the level are sent as notifications/message. A request without a
// session (stateless HTTP) has no "from now on": it is answered, and
// changes nothing.
func (s *Server) setLevel(r *request) {
	var p struct {
		Level *string `json:"level"`
	}
	if r.env.params != nil {
		_ = json.Unmarshal(r.env.params, &p)
	}
	if p.Level == nil {
		r.invalidParams(`logging/setLevel needs "level", one of %s`, strings.Join(levelNames[:], ", "))
		return
	}
	l, ok := parseLogLevel(*p.Level)
	if !ok {
		r.invalidParams(`unknown log level %q; use one of %s`, shortenString(*p.Level, 24), strings.Join(levelNames[:], ", "))
		return
	}
	if r.sess != nil {
		r.sess.clientLevel.Store(int32(l))
	}
	r.reply([]byte("{}"))
}

type messageParams struct {
	Level  string `json:"level"`
	Logger string `json:"logger,omitempty"`
	Data   any    `json:"data"`
}

// notifyLog sends notifications/message when the client asked for
// messages at this level.
func (s *session) notifyLog(level LogLevel, logger string, data any) bool {
	min := s.clientLevel.Load()
	if min < 0 || int32(level) < min {
		return false
	}
	b, err := appendNotification(nil, "notifications/message", messageParams{Level: level.String(), Logger: logger, Data: data})
	if err != nil {
		return false
	}
	return s.out.notify(b) == nil
}

// Log sends a log message about this call to the client, if the client
// asked for messages at this level with logging/setLevel. data is any
// JSON-encodable value, usually a string. It reports whether the message
// was sent.
//
// A call of MCP 2026-07-28 sends messages only when its own request asked
// with a logLevel, and only before its response.
func (c *Call) Log(level LogLevel, data any) bool {
	if c.out == nil || c.quiet() {
		return false
	}
	if !c.modern {
		// A legacy call's messages follow its session's logging/setLevel;
		// a request of its own (stateless HTTP) never set one.
		return c.sess != nil && c.sess.notifyLog(level, c.Tool, data)
	}
	if c.logLevel < 0 || level < c.logLevel {
		return false
	}
	b, err := appendNotification(nil, "notifications/message", messageParams{Level: level.String(), Logger: c.Tool, Data: data})
	if err != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.done && c.out.notify(b) == nil
}
