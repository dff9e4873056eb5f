//go:build !windows

// Command toolbench measures an MCP stdio server against the physical floor
// of its transport: a line echo that copies every request line straight back
// and does nothing else.
//
// A target is any command line that speaks newline-delimited JSON over its
// stdin and stdout. toolbench runs two of them side by side in one run:
//
//	A  the server under test, given with -server or after "--"
//	B  "toolbench echo", a hidden subcommand of this same binary that reads
//	   lines with bufio.Reader.ReadSlice and writes each one back with a
//	   single os.Stdout.Write (lines of any size, 1 MiB and more, work)
//
// Usage:
//
//	go build -o /tmp/toolbench ./cmd/toolbench
//	/tmp/toolbench -cpu 0 -server 'toolserver --root testdata/playground'
//	/tmp/toolbench -cpu 0 -- toolserver --root testdata/playground
//	taskset -c 0 go run ./cmd/toolbench -server 'toolserver --root testdata/playground'
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
// toolbench uses Linux interfaces (/proc, taskset) and the standard library
// only.
package main
