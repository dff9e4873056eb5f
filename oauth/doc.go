// Package oauth makes an MCP server over HTTP an OAuth 2.1 resource
// server, as MCP's authorization asks: it publishes the Protected
// Resource Metadata (RFC 9728) that tells a client where to get a token,
// answers a request without one 401 with the challenge that points
// there, and checks each access token it is given: a JWT (RFC 9068)
// against the keys its authorization server publishes, or an opaque
// token by introspection (RFC 7662). A token passes only if that server
// issued it, for this resource (RFC 8707 audience), within its time, and
// signed with an asymmetric algorithm; its scopes then set the highest
// tool level the request may call, which [server.Grant] carries to the
// server.
//
// [New] reads the authorization server's metadata (RFC 8414, or OpenID
// Connect Discovery) and keys; [Resource.Protect] wraps the handler of
// [server.Server.HTTPHandler], and [Resource.MetadataHandler] serves the
// metadata at [Resource.MetadataPaths]. Tokens are verified once and
// remembered, by their hash, until they expire; keys are fetched again
// when a token names one not known yet, at most once a
// [Config.KeyRefresh], and while the authorization server cannot be
// reached the keys known still verify.
//
// JWTs are parsed and verified with github.com/go-jose/go-jose/v4.
package oauth
