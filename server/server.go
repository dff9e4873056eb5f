package server

import (
	"context"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/schemagen"
	"github.com/stdiotools/toolserver/security"
	"golang.org/x/sync/semaphore"
)

// Options configures a [Server]. The zero value is usable: every field has
// a default.
type Options struct {
	// Name is the serverInfo name; default "toolserver".
	Name string
	// Title is the serverInfo title shown to people; default "toolserver".
	Title string
	// Version is the serverInfo version; default the module version from
	// the build information, or "devel".
	Version string
	// Instructions are sent to the client in the initialize result, for
	// the model: what the server is for and the rules it enforces.
	Instructions string
	// Logger receives the server's own logs. The zero Logger drops them.
	Logger zerolog.Logger
	// MaxMessageBytes is the largest incoming message; default
	// [DefaultMaxMessageBytes].
	MaxMessageBytes int
	// MaxInFlight bounds the tool calls running at once. Default 64.
	MaxInFlight int
	// MemoryBudget is the bytes the calls in flight share for their data,
	// reserved with [Call.Reserve]; default [DefaultMemoryBudget].
	MemoryBudget int64
	// MaxQueued bounds the calls waiting for one of those slots, and
	// MaxQueuedBytes the bytes of their arguments; a call that finds the
	// line full is answered at once with an error result saying the server
	// is busy. The reader never waits for a slot, so ping and
	// notifications/cancelled are answered however busy the tools are.
	// Defaults 256 and 64 MiB; a call is always taken into an empty line.
	MaxQueued      int
	MaxQueuedBytes int
	// PageSize is the number of tools in one tools/list page; default 100.
	PageSize int
	// Lang is the language of the sentences the model reads: about invalid
	// arguments, and the server's own (timeouts, internal errors, the
	// refusals of its policies, the outcome of a confirmation); a tool
	// reads it with [Call.Lang]. Default English. The messages of JSON-RPC
	// errors, which are for the client program, stay in English.
	Lang schemagen.Lang
	// ReadOnly serves only tools of level [security.Read]: the others are
	// neither listed nor run.
	ReadOnly bool
	// Tools, when not empty, names the only tools served: a tool added
	// under any other name is checked as usual, then neither listed nor
	// run, so that its description and schemas cost the model nothing.
	Tools []string
	// DisableTools names tools that are neither listed nor run, as Tools
	// leaves out the tools it does not name.
	DisableTools []string
	// AllowAdmin also serves tools of level [security.Admin] (deletion).
	// Without it they are neither listed nor run.
	AllowAdmin bool
	// ConfirmWrites makes [Call.Confirm] ask the user, through MCP
	// elicitation, before a tool changes anything.
	ConfirmWrites bool
	// MaxCalls is the number of tool calls one session may make; 0 means no
	// limit. Calls over it are answered with an error result.
	MaxCalls int
	// CallsPerSecond limits the rate of tool calls in a session, allowing
	// bursts of up to one second's worth; 0 means no limit.
	CallsPerSecond float64
	// ToolTimeout bounds each tool call whose [ToolSpec] sets no Timeout;
	// default 30s. A call that runs out of time is answered with an error
	// result at once.
	ToolTimeout time.Duration
	// MaxRepeats is how many identical tool calls (same tool, same
	// arguments in canonical form) a session may make back to back before
	// the next one is refused as a loop; default 4, negative for no limit.
	MaxRepeats int
	// Observer, when set, is told about every call, for metrics.
	Observer Observer
	// Tracer, when set, receives a span of every answered call, with its
	// stages, for tracing.
	Tracer Tracer
	// Policies are applied around every tool call, first to last, outside
	// the server's own (see [Policy]): an audit log or an authorization
	// check, for instance. They see the answers of the server's own,
	// its timeout included, and can do what those do with the exported
	// API: keep state about a call ([Call.SetValue]), decide what
	// [Call.Confirm] does ([Call.SetConfirm]), and answer before the tool
	// returns while it keeps its place ([Call.Go]).
	Policies []Policy
	// Now is the clock of the rate limit; default time.Now. Tests set it.
	Now func() time.Time
	// Roots, when set, receives the client's roots as host paths (its
	// file:// URIs turned into paths) after the handshake and whenever the
	// client reports a change. The server fetches roots only if the client
	// declared the roots capability; calls wait for the first answer. If
	// the client does not answer, Roots receives the error instead, and
	// should allow nothing: roots only ever narrow what the server allows.
	Roots func(ctx context.Context, paths []string, err error)
	// TargetKey maps a path a call names (the value of an argument its
	// tool lists in [ToolSpec.Targets], as the model wrote it) to the key
	// calls are ordered and cached by: two spellings of one file should
	// map to one key, and a path below another to a key below its key
	// (keys are slash-separated and compared by prefix). A file tool's
	// sandbox offers one (security.Sandbox.Key). nil means the path's
	// lexically clean form under "/".
	TargetKey func(target string) string
	// RootsTimeout bounds each roots/list request; default 10s.
	RootsTimeout time.Duration
	// StateKey is the HMAC key that seals the requestState of a
	// confirmation asked in MCP 2026-07-28 (a result of type
	// input_required). Processes that serve the same clients must share
	// it; when empty, the server makes a key of its own at start.
	StateKey []byte
	// Nonces remembers the confirmations accepted, so that a requestState
	// is accepted once; processes sharing StateKey should share it too
	// (see [DirNonces]). Default: this process alone remembers them.
	Nonces NonceStore
	// ConfirmTimeout is how long [Call.Confirm] waits for the user's
	// answer; default 2 minutes.
	ConfirmTimeout time.Duration
	// MaxSubscriptions bounds the resources one client watches at once
	// (resources/subscribe, subscriptions/listen): a stdio session's, or
	// over HTTP a principal's across its listen streams, each stream
	// counting one at least. Beyond it a subscription is refused with a
	// sentence that says so. Default 100.
	MaxSubscriptions int
	// UpdateDelay gathers the changes to a watched resource: the first
	// change is told this long after it happens, in one
	// notifications/resources/updated with every change until then.
	// Default 100ms.
	UpdateDelay time.Duration
	// ShutdownGrace bounds how long Serve takes to return after the input
	// ends or the context is cancelled: calls still running have that long
	// to finish, and those still running at its last tenth (at most its
	// last half second) are cancelled; default 5s.
	ShutdownGrace time.Duration
}

// maxLevel is the highest tool level the options allow.
func (o *Options) maxLevel() security.Level {
	switch {
	case o.ReadOnly:
		return security.Read
	case o.AllowAdmin:
		return security.Admin
	default:
		return security.Write
	}
}

// Server is an MCP server that offers tools over a JSON-RPC stream. Add
// tools with [AddTool] before calling [Server.Serve]; a Server may serve
// several sessions at once, one per Serve call, and HTTP requests
// ([Server.HTTPHandler]) beside them. It is the process scope (see
// scope.go): the slots, the order of changes, the Exclusive lock, the
// limits and loop guards, the cache and the memory budget are one for
// all of them.
type Server struct {
	opts  Options
	log   zerolog.Logger
	tools registry
	// resources are what the server serves by URI (resource.go).
	resources resources
	sleep     func(context.Context, time.Duration) error // between retries; tests replace it
	cache     *resultCache
	budget    *semaphore.Weighted // the memory the calls share (budget.go)
	states    *stateKeeper        // seals the requestState of confirmations in the modern era (mrtr.go)
	handle    ToolHandler         // the policies around the tools, built once (policy.go)
	runners   *runners            // the goroutines of Call.Go (worker.go)
	timers    sync.Pool           // of *time.Timer, for the calls' deadlines (policy_timeout.go)

	// The process scope of the calls (scope.go).
	slots      chan struct{}       // one token per call running (worker.go)
	lineMu     sync.Mutex          // guards line, and orders it with the slots
	line       callQueue           // admitted calls waiting for a slot (queue.go)
	paths      pathQueues          // the order of changes to each target (policy_order.go)
	alone      *semaphore.Weighted // the Exclusive lock (policy_exclusive.go)
	principals principals          // the limits and loop guards (scope.go)
	// serverInfo is the encoded io.modelcontextprotocol/serverInfo of the
	// results of the modern era (era.go).
	serverInfo []byte
	listeners  listeners     // who hears about every call (events.go)
	chunks     chunkPool     // the buffers large answers are written through (line.go)
	frames     framePool     // the buffers of response lines written (line.go)
	subs       subscriptions // what every client watches (subscribe.go)
	listensEnd chan struct{} // closed by CloseSubscriptions
	endListens sync.Once
}

// New returns a Server configured by opts.
func New(opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "toolserver"
	}
	if opts.Title == "" {
		opts.Title = opts.Name
	}
	if opts.Version == "" {
		opts.Version = buildVersion()
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = 64
	}
	if opts.MemoryBudget <= 0 {
		opts.MemoryBudget = DefaultMemoryBudget
	}
	if opts.MaxQueued <= 0 {
		opts.MaxQueued = 256
	}
	if opts.MaxQueuedBytes <= 0 {
		opts.MaxQueuedBytes = 64 << 20
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 100
	}
	if opts.Lang == "" {
		opts.Lang = schemagen.English
	}
	if opts.ToolTimeout <= 0 {
		opts.ToolTimeout = 30 * time.Second
	}
	if opts.MaxRepeats == 0 {
		opts.MaxRepeats = defaultMaxRepeats
	}
	if opts.RootsTimeout <= 0 {
		opts.RootsTimeout = defaultRootsTimeout
	}
	if opts.ConfirmTimeout <= 0 {
		opts.ConfirmTimeout = defaultConfirmTimeout
	}
	if opts.MaxSubscriptions <= 0 {
		opts.MaxSubscriptions = 100
	}
	if opts.UpdateDelay <= 0 {
		opts.UpdateDelay = 100 * time.Millisecond
	}
	if opts.ShutdownGrace <= 0 {
		opts.ShutdownGrace = 5 * time.Second
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	s := &Server{opts: opts, log: opts.Logger, sleep: sleepCtx, cache: newResultCache(now), budget: newBudget(opts.MemoryBudget)}
	s.listensEnd = make(chan struct{})
	s.slots = make(chan struct{}, opts.MaxInFlight)
	s.runners = newRunners(opts.MaxInFlight)
	runtime.AddCleanup(s, func(jobs chan job) { close(jobs) }, s.runners.jobs)
	s.line = callQueue{maxCalls: opts.MaxQueued, maxBytes: opts.MaxQueuedBytes}
	s.alone = newExclusive()
	if len(opts.Tools) > 0 || len(opts.DisableTools) > 0 {
		s.tools.served = opts.serves
	}
	s.states = newStateKeeper(opts.StateKey, now, opts.Nonces)
	s.serverInfo = appendServerInfoObject(nil, serverInfo{Name: opts.Name, Title: opts.Title, Version: opts.Version})
	s.listeners.log = eventLog{opts.Logger}
	s.listeners.stages = opts.Tracer != nil || infoEnabled(opts.Logger)
	if opts.Observer != nil {
		s.listeners.observer = &observerEvents{opts.Observer}
	}
	if opts.Tracer != nil {
		s.listeners.tracer = &traceEvents{opts.Tracer}
	}
	s.handle = s.policies()
	return s
}

// MaxLevel returns the highest level of the tools s serves:
// [security.Read] with [Options.ReadOnly], [security.Admin] with
// [Options.AllowAdmin], [security.Write] otherwise. A set of tools may
// ask it so as to leave alone, on a read-only server, housekeeping that
// changes files.
func (s *Server) MaxLevel() security.Level { return s.opts.maxLevel() }

// infoEnabled reports whether l writes lines at info level (the zero
// Logger, with no writer, writes none).
func infoEnabled(l zerolog.Logger) bool {
	ev := l.Info()
	ok := ev.Enabled()
	ev.Discard()
	return ok
}

// buildVersion is the main module's version as the go command recorded it.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
