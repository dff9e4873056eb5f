package fs

import (
	"github.com/spf13/afero"
	"github.com/stdiotools/toolserver/server"
)

// progressBytes is how many bytes a copy writes between progress reports,
// at most.
const progressBytes = 16 << 20

// copyMeter reports the progress of a copy through its call, as
// notifications the client asked for with a progress token. A copy of one
// file reports the bytes written of its size, every progressBytes; a copy
// of a directory reports the files copied of all of them, every
// progressEvery files or sooner, once a file ends progressBytes after the
// last report. A nil *copyMeter reports nothing.
type copyMeter struct {
	call   *server.Call
	single bool  // one file: report bytes
	files  int   // the files to copy
	bytes  int64 // their sizes, holes included

	doneFiles int
	doneBytes int64 // data written, holes left out
	reported  int64 // doneBytes at the last report
}

// newCopyMeter returns the meter of a copy that carries out plan.
func newCopyMeter(call *server.Call, plan copyPlan) *copyMeter {
	return &copyMeter{call: call, single: len(plan.dirs) == 0, files: len(plan.files), bytes: plan.bytes}
}

// wrote counts n bytes written.
func (m *copyMeter) wrote(n int64) {
	if m == nil {
		return
	}
	m.doneBytes += n
	if m.single && m.doneBytes-m.reported >= progressBytes {
		m.reported = m.doneBytes
		m.report(float64(m.doneBytes), float64(m.bytes), say(msgCopiedBytes, size(m.doneBytes), size(m.bytes)))
	}
}

// fileDone counts one more file copied.
func (m *copyMeter) fileDone() {
	if m == nil || m.single {
		return
	}
	m.doneFiles++
	if m.doneFiles%progressEvery == 0 || m.doneBytes-m.reported >= progressBytes {
		m.reported = m.doneBytes
		m.report(float64(m.doneFiles), float64(m.files), say(msgCopiedFiles, num(m.doneFiles), num(m.files)))
	}
}

func (m *copyMeter) report(done, total float64, msg message) {
	if m.call != nil {
		m.call.Progress(done, total, msg.In(m.call.Lang()))
	}
}

// meteredFile is a file being written that tells a meter how many bytes
// each write wrote.
type meteredFile struct {
	afero.File
	meter *copyMeter
}

func (f meteredFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.meter.wrote(int64(n))
	return n, err
}

func (f meteredFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	f.meter.wrote(int64(n))
	return n, err
}
