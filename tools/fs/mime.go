package fs

import (
	"bytes"
)

// sniffLen is how much of a file's start decides what it is.
const sniffLen = 8 << 10

// fileKind is what a file holds, as its first bytes tell.
type fileKind int

const (
	kindText   fileKind = iota // no NUL byte in the first sniffLen bytes
	kindImage                  // PNG, JPEG, GIF or WebP
	kindAudio                  // WAV, MP3, Ogg or FLAC
	kindBinary                 // anything else with a NUL byte
)

// String returns the kind's name as results report it.
func (k fileKind) String() string {
	switch k {
	case kindImage:
		return "image"
	case kindAudio:
		return "audio"
	case kindBinary:
		return "binary"
	}
	return "text"
}

// textMIME is the media type reported for text files.
const textMIME = "text/plain; charset=utf-8"

// sniff returns what a file holds from its first bytes (up to sniffLen of
// them), with the media type of images and audio. Images and audio are
// recognized by their magic numbers only, whatever the file's name.
func sniff(head []byte) (fileKind, string) {
	riff := len(head) >= 12 && string(head[:4]) == "RIFF"
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return kindImage, "image/png"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return kindImage, "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return kindImage, "image/gif"
	case riff && string(head[8:12]) == "WEBP":
		return kindImage, "image/webp"
	case riff && string(head[8:12]) == "WAVE":
		return kindAudio, "audio/wav"
	case bytes.HasPrefix(head, []byte("ID3")), isMP3Frame(head):
		return kindAudio, "audio/mpeg"
	case bytes.HasPrefix(head, []byte("OggS")):
		return kindAudio, "audio/ogg"
	case bytes.HasPrefix(head, []byte("fLaC")):
		return kindAudio, "audio/flac"
	case bytes.IndexByte(head, 0) >= 0:
		return kindBinary, "application/octet-stream"
	}
	return kindText, textMIME
}

// isMP3Frame reports whether head starts with the header of an MPEG audio
// layer III frame: eleven set sync bits, a version that is not reserved,
// layer III, and a bitrate and sample rate that are not reserved.
func isMP3Frame(head []byte) bool {
	if len(head) < 4 || head[0] != 0xFF || head[1]&0xE0 != 0xE0 {
		return false
	}
	version, layer := head[1]>>3&3, head[1]>>1&3
	bitrate, rate := head[2]>>4, head[2]>>2&3
	return version != 1 && layer == 1 && bitrate != 15 && rate != 3
}
