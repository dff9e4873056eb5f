// Package security decides what a tool may touch: the tool levels, the
// character classes that string arguments are whitelisted by, and the
// sandbox a file tool works in. It knows nothing about JSON-RPC or MCP, so
// its rules can be tested, and reused, on their own.
package security
