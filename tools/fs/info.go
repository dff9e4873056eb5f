package fs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// GetFileInfoArgs are the arguments of get_file_info.
type GetFileInfoArgs struct {
	Path string `json:"path" chars:"path" minLength:"1" description:"Relative to the root."`
}

// FileInfo is the result of get_file_info.
type FileInfo struct {
	Path        string     `json:"path" description:"The entry, relative to the root."`
	Type        string     `json:"type" description:"file, dir, symlink or other."`
	Kind        string     `json:"kind,omitempty" description:"For type other: named pipe, socket, device or special file. For a file: text, image, audio or binary."`
	MIMEType    string     `json:"mime_type,omitempty" description:"The media type of a file, from its first bytes."`
	Size        int64      `json:"size" description:"The size in bytes."`
	Mode        string     `json:"mode" description:"The permission bits in octal, such as 0644."`
	Modified    time.Time  `json:"modified" description:"When it was last modified."`
	Accessed    *time.Time `json:"accessed,omitempty" description:"When it was last read, where the file system records it."`
	Created     *time.Time `json:"created,omitempty" description:"When it was created, where the file system records it."`
	LinkTarget  string     `json:"link_target,omitempty" description:"For a symbolic link pointing inside the root: its target, relative to the root."`
	LinkOutside bool       `json:"link_outside,omitempty" description:"True for a symbolic link that points outside the root (where is not shown); it cannot be followed."`
	Entries     *int       `json:"entries,omitempty" description:"For a directory: how many entries it holds."`
	Bytes       *int64     `json:"bytes,omitempty" description:"For a text file: its size in bytes."`
	Chars       *int       `json:"chars,omitempty" description:"For a text file: its length in characters (Unicode code points)."`
	Lines       *int       `json:"lines,omitempty" description:"For a text file: its number of lines."`
	InvalidUTF8 bool       `json:"invalid_utf8,omitempty" description:"For a text file: true when it is not valid UTF-8."`
	Version     string     `json:"version,omitempty" description:"For a file: its version, to pass as expected_version to a write."`
	Note        string     `json:"note,omitempty" description:"Why some facts are missing."`
	Escaped     bool       `json:"escaped,omitempty" description:"True when path or link_target hold characters that the text shows as escapes (\\u{X}, \\x{XX}); structured content has them exact."`

	inLang
}

func (t *toolset) addFileInfo(s *server.Server) error {
	return server.AddTool(s, server.ToolSpec{
		Name:    "get_file_info",
		Schemas: savedSchemas("get_file_info"),
		Title:   "Describe a file",
		Description: "Describes a file, directory or symbolic link without reading it: type, size, permissions, times, a link's target, a directory's entry count, " +
			"a file's media type and, for text up to " + descSize(t.lim.MaxReadBytes) + ", lines and characters. Use it before reading a large or binary file.",
		Level: security.Read,
	}, speak(t.fileInfo))
}

func (t *toolset) fileInfo(ctx context.Context, call *server.Call, in GetFileInfoArgs) (FileInfo, error) {
	lang := call.Lang()
	rel, err := t.sb.Resolve(in.Path)
	if err != nil {
		return FileInfo{}, err
	}
	fi, err := lstat(t.sb.Fs(), rel)
	if err != nil {
		return FileInfo{}, t.sb.Explain("inspect", rel, err)
	}
	mode := fi.Mode()
	info := FileInfo{
		Path:     rel,
		Type:     entryType(mode),
		Size:     fi.Size(),
		Mode:     fmt.Sprintf("%04o", unixPerm(mode)),
		Modified: fi.ModTime().UTC(),
	}
	info.Accessed, info.Created = fileTimes(fi)
	switch info.Type {
	case typeSymlink:
		target, inside, err := linkTarget(t.sb, rel)
		switch {
		case err != nil:
			info.Note = say(msgInfoNoTarget).In(lang)
		case inside:
			info.LinkTarget = target
		default:
			info.LinkOutside = true
		}
	case typeDir:
		n, err := t.countEntries(ctx, rel)
		if err != nil {
			return FileInfo{}, err
		}
		info.Entries = &n
	case typeOther:
		info.Kind = specialName(mode)
	case typeFile:
		if err := t.describeFile(&info, lang); err != nil {
			return FileInfo{}, err
		}
	}
	info.Escaped = needsEscape(info.Path) || needsEscape(info.LinkTarget)
	return info, nil
}

// describeFile adds what the content of the file tells: its kind and, for
// text within the read limit, its lines and characters; its note is in
// lang.
func (t *toolset) describeFile(info *FileInfo, lang i18n.Lang) error {
	f, fi, err := t.sb.OpenRead(pathArg(info.Path), false)
	if err != nil {
		var pe *security.PathError
		if errors.As(err, &pe) && pe.Reason == security.Permission {
			info.Note = say(msgInfoUnreadable).In(lang)
			return nil
		}
		return err
	}
	defer f.Close()
	limit := t.lim.MaxReadBytes
	data, err := readUpTo(f, nil, min(info.Size, limit))
	if err != nil {
		return t.sb.Explain("read", info.Path, err)
	}
	// From the stat of the open file and the bytes read, as read_file
	// and the writes take it.
	if info.Version, err = readVersion(f, fi, data); err != nil {
		return t.sb.Explain("read", info.Path, err)
	}
	kind, mime := sniff(data[:min(len(data), sniffLen)])
	info.Kind, info.MIMEType = kind.String(), mime
	if kind != kindText {
		return nil
	}
	if info.Size > limit || int64(len(data)) > limit {
		info.Note = say(msgInfoNotCounted, size(limit)).In(lang)
		return nil
	}
	size, chars, lines := int64(len(data)), utf8.RuneCount(data), countLines(data)
	info.Bytes, info.Chars, info.Lines = &size, &chars, &lines
	info.InvalidUTF8 = !utf8.Valid(data)
	return nil
}

// unixPerm returns the permission bits of mode with setuid, setgid and
// sticky in their Unix places.
func unixPerm(mode fs.FileMode) uint32 {
	p := uint32(mode.Perm())
	if mode&fs.ModeSetuid != 0 {
		p |= 0o4000
	}
	if mode&fs.ModeSetgid != 0 {
		p |= 0o2000
	}
	if mode&fs.ModeSticky != 0 {
		p |= 0o1000
	}
	return p
}
