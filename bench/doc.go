//go:build !windows

// Command toolbench measures an MCP stdio server against the physical floor
// of its transport: a line echo that copies every request line straight back
// and does nothing else. With -suite peers it measures start, reads,
// listings, writes, calls/s and memory at once against a go-sdk peer and
// the floors of the transport and of the work, each held to its goal (see
// "The peers suite" below). With -suite http it measures read_file over
// Streamable HTTP against the go-sdk peer and a bare net/http handler (see
// "The HTTP suite" below).
//
// A target is any command line that speaks newline-delimited JSON over its
// stdin and stdout. toolbench runs two of them side by side in one run:
//
//	A  the server under test, given with -server or after "--"
//	B  "toolbench echo", a hidden subcommand of this same binary that reads
//	   lines with bufio.Reader.ReadSlice and writes each one back with a
//	   single os.Stdout.Write (lines of any size, 1 MiB and more, work)
//
// Usage, from the root of the repository (the bench is the module in
// bench/, so go -C bench builds it):
//
//	go -C bench build -o /tmp/toolbench .
//	/tmp/toolbench -cpu 0 -server 'toolserver --root testdata/playground'
//	/tmp/toolbench -cpu 0 -- toolserver --root testdata/playground
//	taskset -c 0 go -C bench run . -server 'toolserver --root ../testdata/playground'
//	/tmp/toolbench -cpu 0 -server '/tmp/toolbench echo' -check=false   # echo vs echo: ratios ≈ 1
//
// Measures (select with -only; payload runs only when -payload-args is set):
//
//	rtt         one tools/call request line out, one response line back, -n
//	            times (after -warmup) on one initialized process; median, p90
//	            and p99. The echo gets the very same request line.
//	throughput  -calls pipelined tools/call requests with -k in flight (a
//	            writer goroutine takes a semaphore slot per request, and every
//	            response line gives one back), split into -rounds rounds;
//	            median calls/s of the rounds. Peak RSS (VmHWM from /proc) of
//	            each process is read at the end of this run, before its stdin
//	            is closed.
//	payload     like rtt, with -payload-tool and -payload-args: a call with a
//	            big response (read_file of a 1 MiB file, say), -payload-n
//	            times. The server's response size is measured once, and the
//	            echo then gets a response-shaped line padded to exactly that
//	            size, {"jsonrpc":"2.0","id":N,"result":{"pad":"xxx…"}}. (The
//	            echo moves those bytes both ways, the server only back.)
//	cold        spawn; write initialize, notifications/initialized and
//	            tools/list at once; stop the clock when the tools/list
//	            response (id 2) arrives; then close stdin and wait for the
//	            process to exit. -cold starts each, after one unmeasured start
//	            each that warms the page cache.
//
// The latency measures (rtt, payload) talk to the targets with plain
// blocking read(2) and write(2) calls, one per line; the others go through
// the Go poller, which the pipelined writer and reader goroutines need. A
// slow or stuck target is given up on after -stall per round or start, and
// the whole run after -timeout.
//
// The report is a table on stdout (or a JSON object with -json): the median
// or rate of each measure for A and B, the ratio A/B and the goal it is held
// to (rtt median ≤1.5x, cold median ≤2x, calls/s ≥0.5 of the echo).
//
// Every response of the server is checked after its arrival time has been
// taken: it must be JSON with the id of its request (ids are integers from 1:
// initialize 1, tools/list 2, calls from 3), carry no "error" member, and for
// tools/call no result.isError = true; otherwise toolbench stops with the
// offending line. Notifications (a method and no id) are skipped; any other
// line without an id, such as an error response to an unreadable request,
// stops the run too. With -check=false only the id is checked, so any target
// that answers each line with a line of the same id, the echo included, can
// stand as A. The echo's answers must always equal the request byte for
// byte. In the throughput run the answers are only counted while the clock
// runs and checked after it stops.
//
// Why interleaving: machine noise (frequency scaling, other processes, a
// virtual machine's neighbours, cache and page-cache state) moves over
// milliseconds to seconds. Measuring all of A and then all of B would charge
// that drift to one side. toolbench instead runs both in short rounds, A B,
// then B A, then A B, …, an even number of them so that each target goes
// first equally often, with the Go collector kept off inside rounds and run
// between them. Whatever the machine does then falls on both targets alike,
// and the ratio stays honest even when the absolute numbers move. Run with
// "-server '<toolbench> echo' -check=false" to see it: every ratio should be
// about 1.
//
// Why pinning: a round trip over pipes is dominated by wake-ups. When the
// client and the target share a CPU, the write hands the CPU straight to the
// reader (about 9 µs per round trip on a 2-core machine); across CPUs, each
// hop waits for an idle CPU to wake up (about 70 µs). Unpinned runs measure
// the scheduler more than the server. -cpu 0 re-executes toolbench under
// "taskset -c 0"; both targets inherit that affinity, so no taskset process
// is added to the cold-start path. Without -cpu, toolbench warns when it may
// run on more than one CPU; "taskset -c 0 toolbench …" works as well.
//
// The echo is as tight as Go allows: besides reading with ReadSlice and
// writing once per line, it keeps a spare P for the runtime, so that sysmon
// does not take its P away each time it waits in read(2) (see echoMain).
//
// # The peers suite
//
// "toolbench -suite peers" measures toolserver against its peers in one
// run, side by side, and prints one table: each measure, the figures, the
// ratios and the goal with ok or "not met". It works in a folder of its own
// (-root), which it prepares: 1k.txt, 1m.txt and 16m.txt (numbered lines
// of 64 bytes), the folder many of 1,000 empty files, and the files to
// edit. A folder that is not empty must carry the mark .toolbench-suite
// that the suite leaves, so that it never writes into a folder of yours.
// Both servers are given that folder as their root on their command lines:
//
//	go build -o /tmp/bench-ts ./cmd/toolserver
//	go -C bench build -o /tmp/bench-sdk ./internal/sdkpeer
//	go -C bench build -o /tmp/toolbench .
//	/tmp/toolbench -cpu 0 -suite peers -root /tmp/suite \
//	    -server '/tmp/bench-ts --root /tmp/suite --log-level warn --max-repeats -1' \
//	    -sdk '/tmp/bench-sdk -root /tmp/suite'
//
// Four targets take part:
//
//	toolserver  the server under test (-server)
//	go-sdk      the peer (-sdk): internal/sdkpeer, a server built on the
//	            official Go SDK serving read_file {path} and list_directory
//	            {path} in toolserver's text; the SDK is a test-only
//	            dependency of the module, so the peer is a program of its
//	            own that only the bench uses, and toolbench itself does not
//	            link it
//	echo        the line echo, the floor of the transport
//	floor       "toolbench floor -root DIR", the floor of the work: a hidden
//	            subcommand that, with no protocol, reads a file through an
//	            os.Root (open, fstat, read to the end, close; the text sent
//	            back as one JSON string), lists a folder
//	            (os.ReadDir and list_directory's text, sent back as one JSON
//	            string) or writes a file as write_file does (temporary file,
//	            write, fsync, rename, fsync of the folder) with the bytes it
//	            is sent after a "write N PATH" line
//
// The measures, each on fresh processes, interleaved where they compare
// times (the order turns by one target each round). A Go server that sat
// idle through the other targets' rounds is slower for a few milliseconds
// after, so each round of round trips starts with 10 ms of unmeasured
// calls, and each target is let go idle (its CPU time in /proc stops
// growing) before the next one's round:
//
//	spawn → tools/list answer, and the peak RSS just then (VmHWM), median
//	    of -cold starts: toolserver, go-sdk, echo
//	read_file 1 KiB round trip (-n): toolserver, go-sdk, echo, floor
//	read_file 1 KiB, calls/s with -k in flight (-calls): toolserver, echo
//	    (the same request lines), floor
//	read_file 1 MiB round trip (-payload-n): toolserver, go-sdk, the
//	    echo carrying a line as long as toolserver's answer, and floor
//	peak RSS after -mem-calls reads of 1 MiB, -k in flight: toolserver,
//	    go-sdk, echo (same bytes)
//	peak RSS after -mem-calls reads of 4 MiB of the 16 MiB file (offset
//	    and limit, a quarter of its lines each), -k in flight: toolserver,
//	    echo (same bytes)
//	list_directory of 1,000 entries (-list-n): toolserver, go-sdk, floor
//	write_file of 1 and 8 MiB (-write-n): toolserver, floor
//	edit_file of one line in a file of 1 and 8 MiB (-write-n), changed and
//	    changed back call by call: toolserver, and the floor writing as
//	    many bytes; a call toolserver refuses (edit_file works on files up
//	    to its edit limit, 16 MiB by default; up to the read limit, 4 MiB,
//	    before) is reported as refused, and its goal as not met
//
// The reads are held to the echo; a note under the table says where the
// floor of the read stands against the same echo, since a goal below the
// floor's own ratio is one no server can meet.
//
// Before timing, the answers are held to the files: the reads (the
// floor's too) must return the file's text, and the three listings must be
// the same text; after the writes, the files must hold what was written.
//
// # The HTTP suite
//
// "toolbench -suite http" measures read_file of a 1 KiB file over
// Streamable HTTP (one JSON-RPC message per POST, stateless), side by
// side in one run, and prints one table with the ratios and the goals
// (round-trip p50 ≤0.5x go-sdk's, calls/s ≥6x go-sdk's). It prepares
// 1k.txt (numbered lines of 64 bytes) in -root, under the same rule as
// the peers suite (a new or empty folder, or one it marked). The
// servers' command lines name that folder as their root, and the address
// each listens at, which must have a port (toolbench reads it from their
// -http or --http flag, and refuses to start when something listens
// there already):
//
//	go build -o /tmp/bench-ts ./cmd/toolserver
//	go -C bench build -o /tmp/bench-sdk ./internal/sdkpeer
//	go -C bench build -o /tmp/toolbench .
//	/tmp/toolbench -cpu 0 -suite http -root /tmp/suite-http \
//	    -server '/tmp/bench-ts --root /tmp/suite-http --http 127.0.0.1:8090 --log-level warn --max-repeats -1' \
//	    -sdk '/tmp/bench-sdk -root /tmp/suite-http -http 127.0.0.1:8091'
//
// (--max-repeats -1: toolserver's loop guard refuses the fifth identical
// call in a row, and every call here is the same read.) Three targets
// take part, each a process of its own, started once for the run and
// stopped with SIGTERM at its end; with -cpu they run pinned with
// toolbench:
//
//	toolserver  the server under test (-server)
//	go-sdk      the peer (-sdk) with -http: the same read_file, through the
//	            SDK's StreamableHTTPHandler, stateless with JSON answers
//	floor       "toolbench httpfloor -addr ADDR -text FILE", the floor of
//	            an HTTP round trip: a hidden subcommand, a bare net/http
//	            handler at /mcp that reads the body and answers a fixed
//	            tools/call result carrying the file's text, in go-sdk's
//	            shape; toolbench gives it a free port on 127.0.0.1
//
// toolbench talks to each through a Go HTTP client of its own: keep-alive
// HTTP/1.1, no compression, the headers a Streamable HTTP client sends
// (Accept: application/json, text/event-stream; Content-Type:
// application/json; MCP-Protocol-Version: 2025-11-25), and the legacy
// body {"jsonrpc":"2.0","id":N,"method":"tools/call","params":{"name":
// "read_file","arguments":{"path":"1k.txt"}}} with no initialize before
// it. The first answer of each is checked whole (one JSON answer, the
// file's text exactly, from a server a JSON-RPC response to the call);
// every other one must be a 200 holding the text, and from a server carry
// the call's id and neither an error nor isError. The measures:
//
//	round trips  -n calls one at a time, from the request to the end of
//	             the answer's body, interleaved in rounds as the stdio
//	             round trips are (10 ms of unmeasured calls first in each
//	             round, and a wait for the server to go idle after it);
//	             p50, p90 and p99
//	calls/s      -calls calls with -k in flight (k callers, each posting
//	             its next call when its answer is in, on k connections),
//	             in -rounds interleaved rounds after -warmup unmeasured
//	             calls; the median of the rounds
//	CPU a call   the CPU time of each server process (all its threads,
//	             from /proc, until it goes idle after the round) over the
//	             calls of each of those rounds, median of the rounds
//	peak RSS     VmHWM of each server process after all the calls
//
// Notes under the table say where the floor leaves each goal: what each
// server adds to the floor's p50, whether the p50 goal lies below the
// floor's own round trip (then no server on net/http can meet it on that
// machine) or the calls/s goal above the floor's rate, and each one's
// time a call beyond the floor's. The client's own work is in every
// round trip and rate, the floor's included, so that their ratios to
// go-sdk understate the difference of the servers' work: the figures
// above the floor, and the CPU time a call, which leaves the client out,
// show it.
//
// # What a model reads: toolbench context
//
// "toolbench context" counts bytes rather than time: what a model reads
// of two stdio servers, side by side in one run. A host forwards each
// tool's name, description and input schema to the model with every turn
// of a conversation, so the model-facing bytes of tools/list are their
// sum (the schema compacted, as hosts send it), for every tool and for the
// tools both servers serve by name; the output schemas and the whole
// tools/list line are shown beside them. It then asks both for common
// results on files it prepares (a listing of 1,000 files, a tree of 84
// folders, a search, 100 grep matches, a read of 1 KiB, a file not found)
// and counts the text a model reads and the structuredContent beside it.
// The reference filesystem server takes absolute paths and names its read
// read_text_file; a tool a server lacks is shown as such.
//
//	ref=$(bash bench/reference.sh)   # the reference server, from the npm registry
//	go build -o /tmp/toolserver ./cmd/toolserver
//	go -C bench run . context -root /tmp/ctx -server '/tmp/toolserver --root /tmp/ctx' -reference "node $ref /tmp/ctx"
//
// # The module
//
// The bench is a module of its own, github.com/stdiotools/toolserver/bench
// in bench/, so that toolserver's go test ./... neither builds it nor
// needs its dependencies. It requires toolserver through a replace
// directive that points at ../, the tree it sits in: its tests hold what
// it copies of toolserver (package listing, the text of list_directory)
// to that tree's code, never to a published version.
//
// toolbench uses Linux interfaces (/proc, taskset) and the standard library
// only, so that its echo and floors start with nothing else to initialise
// (TestToolbenchLinksTheStandardLibraryOnly); internal/sdkpeer links the Go
// SDK, and is built on its own.
package main
