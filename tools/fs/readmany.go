package fs

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// readManyWorkers is how many files read_multiple_files reads at once.
const readManyWorkers = 8

// ReadMultipleArgs are the arguments of read_multiple_files.
type ReadMultipleArgs struct {
	Paths []string `json:"paths" chars:"path" minLength:"1" minItems:"1" maxItems:"50" description:"Relative to the root; returned in this order."`
}

// ReadMultipleResult is the result of read_multiple_files. The texts are
// sent as content, one block per file; the other fields as structured
// content.
type ReadMultipleResult struct {
	Files []FileRead `json:"files" description:"One entry per path, in the order given."`
	Bytes int64      `json:"bytes" description:"The bytes of text, images and audio returned in all."`
	Note  string     `json:"note,omitempty" description:"Set when the total read limit cut or skipped files."`

	inLang
}

// FileRead is one file of a read_multiple_files result.
type FileRead struct {
	Path        string `json:"path" description:"The file, relative to the root (or as given, if it could not be used)."`
	Kind        string `json:"kind" description:"text, image, audio, or error when the file could not be read."`
	Size        int64  `json:"size,omitempty" description:"The size of the file in bytes."`
	TotalLines  *int   `json:"total_lines,omitempty" description:"The number of lines, for text read to its end."`
	Truncated   bool   `json:"truncated,omitempty" description:"True when only the start of the text was returned."`
	InvalidUTF8 bool   `json:"invalid_utf8,omitempty" description:"True when invalid UTF-8 was replaced with U+FFFD."`
	Error       string `json:"error,omitempty" description:"Why the file could not be read."`
	Note        string `json:"note,omitempty" description:"What the text is when it is not the whole file."`
	Version     string `json:"version,omitempty" description:"The file's version, to pass as expected_version to a write."`

	text  string
	data  []byte
	mime  string
	bytes int64
}

// Content returns, for each file in order, a block that starts with a
// "==> path <==" line followed by its text or its error, and the image or
// audio of media files.
func (r ReadMultipleResult) Content() []server.Content {
	c := make([]server.Content, 0, len(r.Files)+1)
	for _, f := range r.Files {
		var sb strings.Builder
		if name, escaped := displayName(f.Path); escaped {
			sb.WriteString("==> " + name + " <==" + escapedMark + "\n" + escapedNote(r.lang) + "\n")
		} else {
			sb.WriteString("==> " + f.Path + " <==\n")
		}
		switch {
		case f.Error != "":
			sb.WriteString(say(msgManyError, lit(f.Error)).In(r.lang) + "\n")
		case f.data != nil:
			sb.WriteString(f.Note + "\n")
		default:
			sb.WriteString(f.text)
			if f.text != "" && !strings.HasSuffix(f.text, "\n") {
				sb.WriteString("\n")
			}
			if f.Note != "" {
				sb.WriteString("[" + f.Note + "]\n")
			}
		}
		if f.Version != "" {
			sb.WriteString(versionTag(f.Version).In(r.lang) + "\n")
		}
		c = append(c, server.TextContent(sb.String()))
		switch f.Kind {
		case kindImage.String():
			c = append(c, server.ImageContent(f.data, f.mime))
		case kindAudio.String():
			c = append(c, server.AudioContent(f.data, f.mime))
		}
	}
	if r.Note != "" {
		c = append(c, server.TextContent(r.Note))
	}
	return c
}

func (t *toolset) addReadMultiple(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "read_multiple_files",
		Schemas: savedSchemas("read_multiple_files"),
		Title:   "Read several files",
		Description: "Reads several known files in one call" + mention(s, "read_file", ", rather than one read_file each") + ". " +
			"Returns each under a \"==> path <==\" line, in order; a file that fails gets its error and the others still come. " +
			"At most " + descSize(t.lim.MaxReadBytes) + " in all.",
		Level: security.Read,
	}, speak(t.readMultiple))
}

// readMultiple reads the files, sharing the read limit among them in the
// order given: each file may use what the files before it left.
func (t *toolset) readMultiple(ctx context.Context, call *server.Call, in ReadMultipleArgs) (ReadMultipleResult, error) {
	lang := call.Lang()
	files := make([]FileRead, len(in.Paths))
	budgets := make([]int64, len(in.Paths))
	remaining := t.lim.MaxReadBytes
	skipped, cut := 0, 0
	for i, p := range in.Paths {
		f := &files[i]
		f.Path = p
		rel, err := t.sb.Resolve(p)
		if err != nil {
			f.Kind, f.Error = "error", err.Error()
			continue
		}
		f.Path = rel
		fi, err := t.sb.Fs().Stat(rel)
		if err != nil {
			f.Kind, f.Error = "error", t.sb.Explain("read", rel, err).Error()
			continue
		}
		if !fi.Mode().IsRegular() {
			continue // readOne reports what it is, and it uses no budget
		}
		f.Size = fi.Size()
		budgets[i] = min(f.Size, remaining)
		remaining -= budgets[i]
		switch {
		case budgets[i] == f.Size:
		case budgets[i] == 0:
			skipped++
			f.Kind, f.Error = "error", say(msgManyUsedUp, size(t.lim.MaxReadBytes)).In(lang)
		default:
			cut++
		}
	}

	var wg sync.WaitGroup
	sem := make(chan struct{}, readManyWorkers)
	for i := range files {
		if files[i].Error != "" {
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			files[i] = t.readOne(ctx, call, files[i], budgets[i])
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return ReadMultipleResult{}, err
	}

	res := ReadMultipleResult{Files: files}
	for _, f := range files {
		res.Bytes += f.bytes
	}
	if skipped+cut > 0 {
		var parts arg
		if cut > 0 {
			parts = counted(cut, msgManyFileCut, msgManyFilesCut)
		}
		if skipped > 0 {
			parts = counted(skipped, msgManyFileSkipped, msgManyFilesSkipped)
			if cut > 0 {
				parts = say(msgAndClauses, counted(cut, msgManyFileCut, msgManyFilesCut), parts)
			}
		}
		res.Note = say(msgManyNote, size(t.lim.MaxReadBytes), parts).In(lang)
	}
	return res, nil
}

// readOne reads the file of fr with budget bytes, less than its size when
// the files before it used up the rest of the limit.
func (t *toolset) readOne(ctx context.Context, call *server.Call, fr FileRead, budget int64) FileRead {
	r, err := t.readFile(ctx, call, fr.Path, lineRange{from: 1}, budget)
	if err != nil {
		lang := call.Lang()
		fr.Kind, fr.Error = "error", errorText(err, lang)
		if _, ok := errors.AsType[*tooLargeError](err); ok && budget < fr.Size {
			fr.Error = say(msgManyNoRoom, size(t.lim.MaxReadBytes)).In(lang)
		}
		return fr
	}
	fr.Kind, fr.Size, fr.TotalLines, fr.Truncated, fr.InvalidUTF8 = r.Kind, r.Size, r.TotalLines, r.Truncated, r.InvalidUTF8
	fr.text, fr.data, fr.mime, fr.Note, fr.Version = r.Text, r.Data, r.MIMEType, r.Note, r.Version
	fr.bytes = int64(len(r.Text)) + int64(len(r.Data))
	if r.Truncated && r.ToLine > 0 {
		fr.Note = say(msgManyOnlyLines, num(r.ToLine), size(t.lim.MaxReadBytes), num(r.ToLine+1)).In(call.Lang())
	}
	return fr
}
