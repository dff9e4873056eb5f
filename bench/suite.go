//go:build !windows

package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// suitePeers names the suite that measures toolserver against its peers
// (the go-sdk peer, the echo and the floor of the work) side by side in
// one run: start, reads, calls/s, memory, listing, writes and edits.
const suitePeers = "peers"

// The targets of the suite, by label.
const (
	labelServer = "toolserver"
	labelSDK    = "go-sdk"
	labelEcho   = "echo"
	labelFloor  = "floor"
)

// The files the suite works with. Lines are suiteLine bytes long, so that
// a quarter of the 16 MiB file is a whole number of lines.
const (
	suiteLine   = 64
	manyEntries = 1000
	suiteMark   = ".toolbench-suite"
	manyDir     = "many"
)

// suitePlan is where the suite works and how large its files are.
type suitePlan struct {
	root string
	// mib is the size of what the file names and the table call a MiB:
	// 1 MiB, and less in the tests, which would otherwise write hundreds
	// of megabytes.
	mib int
	// many is how many files the folder to list holds: manyEntries, and
	// fewer in the tests, where creating files is slow.
	many int
}

// quarterLines is how many lines a quarter of 16m.txt has.
func (p suitePlan) quarterLines() int { return 4 * p.mib / suiteLine }

// quarterReads reads the four quarters of 16m.txt in turn.
func (p suitePlan) quarterReads(dst []byte, id int64) []byte {
	return readCall("16m.txt", 1+int(id%4)*p.quarterLines(), p.quarterLines()).appendLine(dst, id)
}

// suiteTargets are the four programs of a suite run.
type suiteTargets struct {
	server, sdk, echo, floor Spec
}

func newSuiteTargets(cfg config, self string) suiteTargets {
	return suiteTargets{
		server: Spec{Label: labelServer, Argv: cfg.server},
		sdk:    Spec{Label: labelSDK, Argv: cfg.sdk},
		echo:   Spec{Label: labelEcho, Argv: []string{self, "echo"}, Echo: true},
		floor:  Spec{Label: labelFloor, Argv: []string{self, "floor", "-root", cfg.root}, Floor: true},
	}
}

// SuiteFigures are what one suite run measured: for each measure, the
// figure of each target that took part, by label. Times are medians.
type SuiteFigures struct {
	BinaryMiB   map[string]float64 `json:"binary_mib"`
	Cold        map[string]Summary `json:"cold"`
	StartRSSMiB map[string]float64 `json:"start_rss_mib"` // median VmHWM just after tools/list
	Read1K      map[string]Summary `json:"read_1k"`
	CallsPerSec map[string]float64 `json:"calls_per_sec"` // read_file of 1k.txt, K in flight
	Read1M      map[string]Summary `json:"read_1m"`
	ListEntries int                `json:"list_entries"`  // in the folder listed
	Read1MBytes int                `json:"read_1m_bytes"` // toolserver's answer, which the echo carries
	RSS1MMiB    map[string]float64 `json:"rss_1m_mib"`    // VmHWM after MemCalls reads of 1 MiB, K in flight
	RSS16MMiB   map[string]float64 `json:"rss_16m_mib"`   // the same with 4 MiB of the 16 MiB file each
	List        map[string]Summary `json:"list"`
	Write1M     map[string]Summary `json:"write_1m"`
	Write8M     map[string]Summary `json:"write_8m"`
	Edit1M      map[string]Summary `json:"edit_1m"`
	Edit8M      map[string]Summary `json:"edit_8m"`
	// Refused holds, by measure (write_1m … edit_8m), what toolserver said
	// when it refused the call, so that the measure could not be taken.
	Refused map[string]string `json:"refused,omitempty"`
}

// runSuite prepares cfg.root and runs every measure of the suite.
func runSuite(ctx context.Context, cfg config, self string, log io.Writer) (*SuiteFigures, error) {
	defer quietGC()()
	p := suitePlan{root: cfg.root, mib: cmp.Or(cfg.plan.mib, 1<<20), many: cmp.Or(cfg.plan.many, manyEntries)}
	if err := prepareRoot(p); err != nil {
		return nil, err
	}
	t := newSuiteTargets(cfg, self)
	o := cfg.opts
	f := &SuiteFigures{BinaryMiB: map[string]float64{}, ListEntries: p.many}
	for _, s := range []Spec{t.server, t.sdk} {
		if size, err := binarySize(s.Argv[0]); err == nil {
			f.BinaryMiB[s.Label] = float64(size) / (1 << 20)
		}
	}
	steps := []struct {
		what string
		run  func() error
	}{
		{fmt.Sprintf("spawn to tools/list and peak RSS at start: %d starts each", o.Cold), func() (err error) {
			f.Cold, f.StartRSSMiB, err = suiteCold(ctx, []Spec{t.server, t.sdk, t.echo}, o)
			return err
		}},
		{fmt.Sprintf("read_file 1k.txt: %d round trips each", o.N), func() (err error) {
			f.Read1K, err = suiteRead(ctx, []Spec{t.server, t.sdk, t.echo, t.floor}, p, "1k.txt", o, o.N)
			return err
		}},
		{fmt.Sprintf("read_file 1k.txt pipelined: %d calls each, %d in flight", o.Calls, o.K), func() (err error) {
			f.CallsPerSec, err = suiteThroughput(ctx, [3]Spec{t.server, t.echo, t.floor}, o)
			return err
		}},
		{fmt.Sprintf("read_file 1m.txt: %d round trips each", o.PayloadN), func() (err error) {
			f.Read1M, err = suiteRead(ctx, []Spec{t.server, t.sdk, t.echo, t.floor}, p, "1m.txt", o, o.PayloadN)
			return err
		}},
		{fmt.Sprintf("peak RSS under %d reads of 1m.txt, %d in flight", o.MemCalls, o.K), func() (err error) {
			f.RSS1MMiB, f.Read1MBytes, err = suitePeakRSS(ctx, []Spec{t.server, t.sdk, t.echo}, o, readCall("1m.txt", 0, 0).appendLine)
			return err
		}},
		{fmt.Sprintf("peak RSS under %d reads of 4 MiB of 16m.txt, %d in flight", o.MemCalls, o.K), func() (err error) {
			f.RSS16MMiB, _, err = suitePeakRSS(ctx, []Spec{t.server, t.echo}, o, p.quarterReads)
			return err
		}},
		{fmt.Sprintf("list_directory of %d entries: %d round trips each", p.many, o.ListN), func() (err error) {
			f.List, err = suiteList(ctx, []Spec{t.server, t.sdk, t.floor}, o)
			return err
		}},
		{fmt.Sprintf("write_file and edit_file of 1 and 8 MiB: %d calls each", o.WriteN), func() error {
			pair := [2]Spec{t.server, t.floor}
			for _, w := range []struct {
				key  string
				into *map[string]Summary
				run  func(context.Context, [2]Spec, suitePlan, int, Options) (map[string]Summary, error)
				mib  int
			}{
				{"write_1m", &f.Write1M, suiteWrite, 1},
				{"write_8m", &f.Write8M, suiteWrite, 8},
				{"edit_1m", &f.Edit1M, suiteEdit, 1},
				{"edit_8m", &f.Edit8M, suiteEdit, 8},
			} {
				m, err := w.run(ctx, pair, p, w.mib, o)
				if te, ok := errors.AsType[*toolError](err); ok {
					if f.Refused == nil {
						f.Refused = map[string]string{}
					}
					f.Refused[w.key] = te.msg
					fmt.Fprintf(log, "toolbench: %s: toolserver refused: %s\n", w.key, te.msg)
					continue
				}
				if err != nil {
					return fmt.Errorf("%s: %w", w.key, err)
				}
				*w.into = m
			}
			return nil
		}},
	}
	for _, step := range steps {
		fmt.Fprintf(log, "toolbench: %s\n", step.what)
		if err := step.run(); err != nil {
			return nil, fmt.Errorf("%s: %w", step.what, err)
		}
	}
	return f, nil
}

// binarySize returns the size of the program that argv0 runs.
func binarySize(argv0 string) (int64, error) {
	path, err := exec.LookPath(argv0)
	if err != nil {
		return 0, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// suiteText returns size bytes of text in lines of suiteLine bytes, each
// numbered, so that no two lines are alike.
func suiteText(size int) []byte {
	const filler = "the quick brown fox jumps over the lazy dog 0123456789."
	b := make([]byte, 0, size)
	for i := 0; len(b) < size; i++ {
		line := fmt.Appendf(nil, "%07d %s", i, filler)
		line = append(line[:suiteLine-1], '\n')
		b = append(b, line[:min(len(line), size-len(b))]...)
	}
	return b
}

// The marker lines an edit swaps, suiteLine bytes each with the newline.
var (
	markerA = fmt.Sprintf("%-*s", suiteLine-1, "edit here: A")
	markerB = fmt.Sprintf("%-*s", suiteLine-1, "edit here: B")
)

// editText is suiteText with its middle line replaced by markerA.
func editText(size int) []byte {
	b := suiteText(size)
	mid := size / 2 / suiteLine * suiteLine
	copy(b[mid:], markerA)
	return b
}

// editName, writeName and floorName name the files of n MiB the writes
// go to.
func editName(n int) string  { return "edit-" + strconv.Itoa(n) + "m.txt" }
func writeName(n int) string { return "write-" + strconv.Itoa(n) + "m.txt" }
func floorName(n int) string { return "floor-" + strconv.Itoa(n) + "m.txt" }

// prepareRoot makes p.root the suite's folder: 1k.txt, 1m.txt and 16m.txt
// to read, the folder many of p.many empty files to list, and the
// files to edit, rewritten each run.
func prepareRoot(p suitePlan) error {
	err := prepareFolder(p.root, suitePeers, map[string][]byte{
		"1k.txt":     suiteText(1 << 10),
		"1m.txt":     suiteText(p.mib),
		"16m.txt":    suiteText(16 * p.mib),
		editName(1):  editText(p.mib),
		editName(8):  editText(8 * p.mib),
		writeName(1): nil,
		writeName(8): nil,
		floorName(1): nil,
		floorName(8): nil,
	})
	if err != nil {
		return err
	}
	return prepareMany(filepath.Join(p.root, manyDir), p.many)
}

// prepareFolder writes files, by name, into dir, with the suite's mark. A
// folder that exists must be empty or carry the mark, so that no folder
// of the user's is ever written over.
func prepareFolder(dir, suite string, files map[string][]byte) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err
	case len(entries) > 0:
		if _, err := os.Stat(filepath.Join(dir, suiteMark)); err != nil {
			return fmt.Errorf("-root %s is not empty and was not prepared by toolbench (it has no %s): give a new or empty folder", dir, suiteMark)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, suiteMark), []byte("prepared by toolbench -suite "+suite+"; rewritten at every run\n"), 0o644); err != nil {
		return err
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// manyName is the name of entry i of the folder to list.
func manyName(i int) string { return fmt.Sprintf("file-%04d.txt", i) }

// prepareMany makes dir hold exactly n empty files.
func prepareMany(dir string, n int) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == n {
		i := 0
		for i < len(entries) && entries[i].Type().IsRegular() && entries[i].Name() == manyName(i) {
			i++
		}
		if i == n {
			return nil
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, manyName(i)), nil, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// resultText returns the text of the first content item of a checked
// tools/call answer, or of a floor's answer.
func resultText(line []byte, floor bool) (string, error) {
	var text string
	if floor {
		err := json.Unmarshal(line, &text)
		return text, err
	}
	var resp struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return "", err
	}
	if len(resp.Result.Content) == 0 {
		return "", errors.New("the result has no content")
	}
	return resp.Result.Content[0].Text, nil
}

// probe calls each server once with build and checks that the text it
// answers is want (or, with want nil, the same as the first target's).
func probe(ss []*session, build []requestFunc, want []byte, stall time.Duration) error {
	for t, s := range ss {
		if s.spec.Echo {
			continue
		}
		s.p.setDeadline(stall)
		_, line, err := s.exchange(build[t], "tools/call")
		if err != nil {
			return err
		}
		text, err := resultText(line, s.spec.Floor)
		if err != nil {
			return fmt.Errorf("%s: %w: %s", s.spec.Label, err, snippet(line))
		}
		if want == nil {
			want = []byte(text)
			continue
		}
		if text != string(want) {
			return fmt.Errorf("%s answered %d bytes that differ from the %d expected: %q",
				s.spec.Label, len(text), len(want), snippetString(text))
		}
	}
	return nil
}

// readCall returns the read_file call of path, of limit lines from line
// offset when offset > 0.
func readCall(path string, offset, limit int) callTemplate {
	args := `{"path":` + strconv.Quote(path) + `}`
	if offset > 0 {
		args = fmt.Sprintf(`{"path":%q,"offset":%d,"limit":%d}`, path, offset, limit)
	}
	tpl, err := newCallTemplate("read_file", args)
	if err != nil {
		panic(err) // the arguments are ours
	}
	return tpl
}

func summaries(specs []Spec, samples [][]time.Duration) map[string]Summary {
	m := make(map[string]Summary, len(specs))
	for t, s := range specs {
		m[s.Label] = summarize(samples[t])
	}
	return m
}

// suiteCold measures spawn to tools/list and the peak RSS at start.
func suiteCold(ctx context.Context, specs []Spec, o Options) (map[string]Summary, map[string]float64, error) {
	samples, rss, err := measureColdStarts(ctx, specs, o)
	if err != nil {
		return nil, nil, err
	}
	mib := make(map[string]float64, len(specs))
	for t, s := range specs {
		m := make([]float64, len(rss[t]))
		for i, b := range rss[t] {
			m[i] = float64(b) / (1 << 20)
		}
		mib[s.Label] = median(m)
	}
	return summaries(specs, samples), mib, nil
}

// suiteRead measures n round trips of read_file of path, after checking
// that every server, and the floor, returns the file's text; the echo
// carries a line as long as the first server's answer.
func suiteRead(ctx context.Context, specs []Spec, p suitePlan, path string, o Options, n int) (_ map[string]Summary, err error) {
	want, err := os.ReadFile(filepath.Join(p.root, path))
	if err != nil {
		return nil, err
	}
	tpl := readCall(path, 0, 0)
	ss, err := openAll(ctx, specs, o, "read_file")
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeAll(ss, err != nil)) }()
	build := builds(ss, tpl.appendLine, floorReadLine(path))
	if err := probe(ss, build, want, o.Stall); err != nil {
		return nil, err
	}
	size, err := answerSize(ss, tpl.appendLine, o.Stall)
	if err != nil {
		return nil, err
	}
	for t, s := range ss {
		if s.spec.Echo {
			build[t] = func(dst []byte, id int64) []byte { return appendPadLine(dst, id, size) }
		}
	}
	return suiteRounds(ctx, ss, specs, build, n, o)
}

// builds returns each session's request: the floor's for the floor, the
// server's for the others.
func builds(ss []*session, server, floor requestFunc) []requestFunc {
	build := make([]requestFunc, len(ss))
	for t, s := range ss {
		build[t] = server
		if s.spec.Floor {
			build[t] = floor
		}
	}
	return build
}

// suiteRounds measures n round trips of each session's request, in rounds
// of a tenth at most, and summarises them by target.
func suiteRounds(ctx context.Context, ss []*session, specs []Spec, build []requestFunc, n int, o Options) (map[string]Summary, error) {
	samples, err := latencyRounds(ctx, ss, build, max(1, min(o.Warmup, n/10)), n, max(1, min(o.Round, n/10)), o.RoundWarm)
	if err != nil {
		return nil, err
	}
	return summaries(specs, samples), nil
}

// suiteThroughput measures pipelined read_file calls of 1k.txt against the
// echo, sent the very same request lines, and the floor's pipelined reads
// of the same file.
func suiteThroughput(ctx context.Context, specs [3]Spec, o Options) (_ map[string]float64, err error) {
	tpl := readCall("1k.txt", 0, 0)
	ss, err := openAll(ctx, specs[:], o, "read_file")
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeAll(ss, err != nil)) }()
	cps, err := throughputRounds(ctx, ss, builds(ss, tpl.appendLine, floorReadLine("1k.txt")), o)
	if err != nil {
		return nil, err
	}
	m := make(map[string]float64, len(ss))
	for t, s := range ss {
		m[s.spec.Label] = cps[t]
	}
	return m, nil
}

// suitePeakRSS starts each target afresh, sends it o.MemCalls calls built
// by build, o.K in flight (the echo lines as long as the first server's
// answer), and returns each one's peak RSS in MiB and that answer's size.
func suitePeakRSS(ctx context.Context, specs []Spec, o Options, build requestFunc) (_ map[string]float64, size int, err error) {
	ss, err := openAll(ctx, specs, o, "read_file")
	if err != nil {
		return nil, 0, err
	}
	defer func() { err = errors.Join(err, closeAll(ss, err != nil)) }()
	if size, err = answerSize(ss, build, o.Stall); err != nil {
		return nil, 0, err
	}
	pad := func(dst []byte, id int64) []byte { return appendPadLine(dst, id, size) }
	mib := make(map[string]float64, len(ss))
	for _, s := range ss {
		b := build
		if s.spec.Echo {
			b = pad
		}
		s.p.setDeadline(o.Stall)
		if _, err := s.pipelined(o.K, o.MemCalls, b, o.K); err != nil {
			return nil, 0, err
		}
		rss, err := s.p.peakRSS()
		if err != nil {
			return nil, 0, fmt.Errorf("%s: peak RSS: %w", s.spec.Label, err)
		}
		mib[s.spec.Label] = float64(rss) / (1 << 20)
	}
	return mib, size, nil
}

// suiteList measures list_directory of the folder many against the floor's
// listing, after checking that all of them give the same text.
func suiteList(ctx context.Context, specs []Spec, o Options) (_ map[string]Summary, err error) {
	tpl, err := newCallTemplate("list_directory", `{"path":"`+manyDir+`"}`)
	if err != nil {
		return nil, err
	}
	ss, err := openAll(ctx, specs, o, "list_directory")
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeAll(ss, err != nil)) }()
	build := builds(ss, tpl.appendLine, floorListLine(manyDir))
	if err := probe(ss, build, nil, o.Stall); err != nil {
		return nil, fmt.Errorf("the listings differ: %w", err)
	}
	return suiteRounds(ctx, ss, specs, build, o.ListN, o)
}

// suiteWrite measures write_file of n MiB against the floor's write, and
// checks afterwards that both files hold the bytes.
func suiteWrite(ctx context.Context, specs [2]Spec, p suitePlan, n int, o Options) (_ map[string]Summary, err error) {
	data := suiteText(n * p.mib)
	args, err := json.Marshal(map[string]string{"path": writeName(n), "content": string(data)})
	if err != nil {
		return nil, err
	}
	tpl, err := newCallTemplate("write_file", string(args))
	if err != nil {
		return nil, err
	}
	samples, err := suiteWriteRounds(ctx, specs, "write_file", tpl.appendLine, floorWriteLine(floorName(n), data), o)
	if err != nil {
		return nil, err
	}
	for _, name := range []string{writeName(n), floorName(n)} {
		if got, err := os.ReadFile(filepath.Join(p.root, name)); err != nil || string(got) != string(data) {
			return nil, fmt.Errorf("%s does not hold the %d bytes written (%d bytes, %v)", name, len(data), len(got), err)
		}
	}
	return samples, nil
}

// suiteEdit measures edit_file of a file of n MiB, one line changed and
// changed back call by call, against the floor's write of as many bytes,
// and checks afterwards that the file holds one of the two texts.
func suiteEdit(ctx context.Context, specs [2]Spec, p suitePlan, n int, o Options) (map[string]Summary, error) {
	edit := func(from, to string) callTemplate {
		args, err := json.Marshal(map[string]any{"path": editName(n), "edits": []map[string]string{{"old_text": from, "new_text": to}}})
		if err == nil {
			var tpl callTemplate
			if tpl, err = newCallTemplate("edit_file", string(args)); err == nil {
				return tpl
			}
		}
		panic(err) // the arguments are ours
	}
	ab, ba := edit(markerA, markerB), edit(markerB, markerA)
	// Call ids of a session start at firstCallID, odd: A to B first.
	swap := func(dst []byte, id int64) []byte {
		if (id-firstCallID)%2 == 0 {
			return ab.appendLine(dst, id)
		}
		return ba.appendLine(dst, id)
	}
	text := editText(n * p.mib)
	samples, err := suiteWriteRounds(ctx, specs, "edit_file", swap, floorWriteLine(floorName(n), text), o)
	if err != nil {
		return nil, err
	}
	got, err := os.ReadFile(filepath.Join(p.root, editName(n)))
	if err != nil {
		return nil, err
	}
	if a := string(text); string(got) != a && string(got) != strings.Replace(a, markerA, markerB, 1) {
		return nil, fmt.Errorf("%s holds %d bytes, neither of the texts the edits leave", editName(n), len(got))
	}
	return samples, nil
}

// suiteWriteRounds runs o.WriteN calls of tool on a server and as many
// writes of the floor, alternating one by one after up to two unmeasured
// ones each (-warmup, if less).
func suiteWriteRounds(ctx context.Context, specs [2]Spec, tool string, server, floor requestFunc, o Options) (_ map[string]Summary, err error) {
	ss, err := openAll(ctx, specs[:], o, tool)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeAll(ss, err != nil)) }()
	samples, err := latencyRounds(ctx, ss, []requestFunc{server, floor}, min(2, o.Warmup), o.WriteN, 1, 0)
	if err != nil {
		return nil, err
	}
	return summaries(specs[:], samples), nil
}

// checkSuiteConfig checks the command line of a suite run and sets the
// measures it runs.
func checkSuiteConfig(cfg *config, fs *flag.FlagSet) error {
	// Flags that only the peers suite uses.
	peersOnly := []string{"cold", "payload-n", "list-n", "write-n", "mem-calls"}
	switch cfg.suite {
	case suitePeers:
		peersOnly = nil
	case suiteHTTP:
	default:
		return fmt.Errorf("-suite: unknown suite %q (want %s or %s)", cfg.suite, suitePeers, suiteHTTP)
	}
	var misplaced []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains([]string{"only", "tool", "args", "payload-tool", "payload-args", "baseline", "check"}, f.Name) ||
			slices.Contains(peersOnly, f.Name) {
			misplaced = append(misplaced, "-"+f.Name)
		}
	})
	switch {
	case len(misplaced) > 0:
		return fmt.Errorf("-suite %s fixes its calls and checks every answer: %s do not apply", cfg.suite, strings.Join(misplaced, ", "))
	case cfg.root == "":
		return errors.New("-suite needs -root DIR, a folder for its files, which the servers' command lines name as their root too")
	case len(cfg.sdk) == 0:
		args := "-root DIR"
		if cfg.suite == suiteHTTP {
			args += " -http 127.0.0.1:PORT"
		}
		return fmt.Errorf("-suite needs -sdk 'cmd args', the go-sdk peer: go -C bench build -o /tmp/bench-sdk ./internal/sdkpeer at the root of the repository, then -sdk '/tmp/bench-sdk %s'", args)
	}
	if cfg.suite == suiteHTTP {
		a, err := httpAddrOf(cfg.server)
		if err != nil {
			return fmt.Errorf("-server: %w", err)
		}
		b, err := httpAddrOf(cfg.sdk)
		if err != nil {
			return fmt.Errorf("-sdk: %w", err)
		}
		if a == b {
			return fmt.Errorf("-server and -sdk both listen at %s: give each a port of its own", a)
		}
	}
	o := &cfg.opts
	for _, c := range []struct {
		name string
		v    int
	}{{"n", o.N}, {"round", o.Round}, {"cold", o.Cold}, {"calls", o.Calls}, {"k", o.K}, {"rounds", o.Rounds},
		{"payload-n", o.PayloadN}, {"list-n", o.ListN}, {"write-n", o.WriteN}, {"mem-calls", o.MemCalls}} {
		if c.v < 1 {
			return fmt.Errorf("-%s must be at least 1", c.name)
		}
	}
	if o.Warmup < 0 {
		return errors.New("-warmup must not be negative")
	}
	if o.Stall <= 0 || cfg.timeout <= 0 {
		return errors.New("-stall and -timeout must be positive")
	}
	if cfg.cpu != "" {
		if _, err := parseCPUList(cfg.cpu); err != nil {
			return fmt.Errorf("-cpu: %w", err)
		}
	}
	o.Measures = nil
	o.RoundWarm = suiteRoundWarm
	return nil
}

// suiteRoundWarm is how long each round of round trips of the suite
// starts with unmeasured calls (see latencyRounds): longer than the
// slowdown a Go server shows after sitting idle through the others'
// rounds (5 ms left a trace; 10 ms none).
const suiteRoundWarm = 10 * time.Millisecond

// suiteMain runs the suite that cfg names and prints its table (or JSON):
// the exit code of realMain.
func suiteMain(cfg config, self, cpus string, pinned bool, stdout, stderr io.Writer) int {
	rep := SuiteReport{
		Suite:   cfg.suite,
		Root:    cfg.root,
		Argv:    map[string]string{labelServer: strings.Join(cfg.server, " "), labelSDK: strings.Join(cfg.sdk, " ")},
		CPUs:    cpus,
		Pinned:  pinned,
		Options: cfg.opts,
	}
	write := writeSuiteTable
	switch cfg.suite {
	case suiteHTTP:
		figures, ok := measured(cfg, stderr, func(ctx context.Context, log io.Writer) (*HTTPFigures, error) {
			return runHTTPSuite(ctx, cfg, self, log)
		})
		if !ok {
			return 1
		}
		rep.Argv[labelFloor] = self + " httpfloor"
		rep.Rows, rep.HTTP, write = httpRows(figures, cfg.opts), figures, writeHTTPTable
	default:
		figures, ok := measured(cfg, stderr, func(ctx context.Context, log io.Writer) (*SuiteFigures, error) {
			return runSuite(ctx, cfg, self, log)
		})
		if !ok {
			return 1
		}
		rep.Rows, rep.Figures = suiteRows(figures, cfg.opts), figures
	}
	if cfg.json {
		write = func(w io.Writer, rep SuiteReport) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}
	}
	if err := write(stdout, rep); err != nil {
		fmt.Fprintln(stderr, "toolbench:", err)
		return 1
	}
	return 0
}
