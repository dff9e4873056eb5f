package fs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// bigFolderEntries is how many entries the folder of the listing
// benchmarks has: a folder of photos or logs that a model pages through.
const bigFolderEntries = 200_000

// makeBigFolder creates n files in dir with names of 12 to 40 bytes, as
// a folder of downloads, photos and logs has, sizes up to 1 MiB (sparse:
// they take no disk) and modification times over five years to the
// nanosecond, all drawn from a fixed seed.
func makeBigFolder(tb testing.TB, dir string, n int) {
	tb.Helper()
	r := rand.New(rand.NewPCG(14, 200_000))
	stems := []string{"IMG_", "invoice-2024-", "report_final_v", "build-log-", "screenshot 2025-03-", "notes-", "backup.tar.part"}
	exts := []string{".jpg", ".pdf", ".txt", ".log", ".png", ".gz", ".md"}
	base := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		name := fmt.Sprintf("%s%d-%x%s", stems[r.IntN(len(stems))], r.IntN(1_000_000), i, exts[r.IntN(len(exts))])
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			tb.Fatal(err)
		}
		err = f.Truncate(r.Int64N(1 << 20))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			tb.Fatal(err)
		}
		mt := base.Add(time.Duration(r.Int64N(int64(5 * 365 * 24 * time.Hour))))
		if err := os.Chtimes(p, mt, mt); err != nil {
			tb.Fatal(err)
		}
	}
}

// bigFolder returns a folder of bigFolderEntries files made by
// makeBigFolder: the one TOOLSERVER_BIGFOLDER names, made by an earlier
// run (it takes a minute), or a new one.
func bigFolder(b *testing.B) string {
	if dir := os.Getenv("TOOLSERVER_BIGFOLDER"); dir != "" {
		return dir
	}
	dir := b.TempDir()
	makeBigFolder(b, dir, bigFolderEntries)
	return dir
}

// listPeakEnv hands the child process of BenchmarkListPeakRSS its
// folder, sort and offsets: "dir|sort|offset,offset,...".
const listPeakEnv = "TOOLSERVER_LISTPEAK"

// BenchmarkListPeakRSS measures the peak resident memory (VmHWM) of a
// process serving 64 list_directory calls at once, the default
// MaxInFlight, on a folder of 200,000 files: at offsets spread from 0 to
// 199,000, all at 199,000, and all at 0, for each sort. Each run is a
// child process (the test binary again, see TestListPeakChild) with the
// binary's defaults: a soft memory limit of 192 MiB and the default
// memory budget, and a call timeout of ten minutes. Run it with -benchtime=1x; it reports peak-RSS-MiB.
func BenchmarkListPeakRSS(b *testing.B) {
	dir := bigFolder(b)
	var spread, last, first []string
	for i := range 64 {
		spread = append(spread, strconv.Itoa(i*(bigFolderEntries-1000)/63))
		last = append(last, strconv.Itoa(bigFolderEntries-1000))
		first = append(first, "0")
	}
	for _, sort := range []string{"name", "size", "modified"} {
		for _, at := range []struct {
			name    string
			offsets []string
		}{{"spread", spread}, {"at199000", last}, {"at0", first}} {
			b.Run(sort+"/"+at.name, func(b *testing.B) {
				peak := 0.0
				for b.Loop() {
					cmd := exec.Command(os.Args[0], "-test.run=^TestListPeakChild$", "-test.count=1")
					cmd.Env = append(os.Environ(), listPeakEnv+"="+dir+"|"+sort+"|"+strings.Join(at.offsets, ","))
					out, err := cmd.CombinedOutput()
					if err != nil {
						b.Fatalf("child: %v\n%s", err, out)
					}
					_, after, ok := bytes.Cut(out, []byte("peak-kB="))
					kb, err := strconv.Atoi(string(bytes.Fields(after)[0]))
					if !ok || err != nil {
						b.Fatalf("no peak in the child's output:\n%s", out)
					}
					peak = max(peak, float64(kb)/1024)
				}
				b.ReportMetric(peak, "peak-RSS-MiB")
			})
		}
	}
}

// TestListPeakChild is the child process of BenchmarkListPeakRSS; run
// otherwise, it does nothing. It serves list_directory over a pipe as the
// binary does, sends every call at once, waits for every answer, and
// prints its peak resident memory.
func TestListPeakChild(t *testing.T) {
	spec := os.Getenv(listPeakEnv)
	if spec == "" {
		t.Skip("run by BenchmarkListPeakRSS")
	}
	parts := strings.Split(spec, "|")
	dir, sort, offsets := parts[0], parts[1], strings.Split(parts[2], ",")
	debug.SetMemoryLimit(192 << 20) // as cmd/toolserver's default
	root, err := security.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	// 64 listings of 200,000 entries on two cores take more than the
	// default 30 s a call.
	srv := server.New(server.Options{MaxRepeats: -1, ToolTimeout: 10 * time.Minute})
	if err := Register(srv, security.NewSandbox(root, security.SandboxOptions{HostRoot: dir})); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), inR, outW) }()
	answers := bufio.NewReaderSize(outR, 1<<20)
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	if _, err := answers.ReadSlice('\n'); err != nil {
		t.Fatal(err)
	}
	go func() {
		for i, off := range offsets {
			send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"list_directory","arguments":{"sort":%q,"offset":%s}}}`, i+1, sort, off))
		}
	}()
	for range offsets {
		line, err := answers.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(line, []byte(`"isError":true`)) || !bytes.Contains(line, []byte(`"entries":[{`)) {
			t.Fatalf("an answer without entries: %.300s", line)
		}
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for l := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			fmt.Printf("peak-kB=%s\n", strings.Fields(rest)[0])
			return
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
}
