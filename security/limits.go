package security

// The default limits, used for every zero (or negative) field of Limits.
const (
	// DefaultMaxReadBytes is the default of Limits.MaxReadBytes, 4 MiB.
	DefaultMaxReadBytes = 4 << 20
	// DefaultMaxListEntries is the default of Limits.MaxListEntries.
	DefaultMaxListEntries = 1000
	// DefaultMaxDepth is the default of Limits.MaxDepth.
	DefaultMaxDepth = 10
	// DefaultMaxResults is the default of Limits.MaxResults.
	DefaultMaxResults = 1000
	// DefaultMaxPathBytes is the default of Limits.MaxPathBytes, Linux's
	// PATH_MAX.
	DefaultMaxPathBytes = 4096
	// DefaultMaxNameBytes is the default of Limits.MaxNameBytes, Linux's
	// NAME_MAX.
	DefaultMaxNameBytes = 255
	// DefaultMaxWriteBytes is the default of Limits.MaxWriteBytes, 256 MiB.
	DefaultMaxWriteBytes = 256 << 20
	// DefaultMaxWalkEntries is the default of Limits.MaxWalkEntries.
	DefaultMaxWalkEntries = 200_000
	// DefaultMaxEditBytes is the default of Limits.MaxEditBytes, 16 MiB:
	// as large as the largest message a server reads by default, so that
	// a file the model could write whole with one call it can also edit.
	DefaultMaxEditBytes = 16 << 20
)

// Limits bound what one call may cost. Zero fields mean the defaults.
type Limits struct {
	MaxReadBytes   int64 // bytes one read returns; default 4 MiB
	MaxListEntries int   // entries in one listing; default 1000
	MaxDepth       int   // levels of a tree walk; default 10
	MaxResults     int   // search and grep results; default 1000
	MaxPathBytes   int   // bytes in a path; default 4096
	MaxNameBytes   int   // bytes in one path element; default 255
	// MaxWriteBytes bounds the bytes one call writes: a file written or
	// edited, one file copied or moved across file systems (its logical
	// size, holes included), a directory copied (all its files together).
	// Default 256 MiB.
	MaxWriteBytes int64
	// MaxWalkEntries bounds the entries one search (grep, search_files)
	// visits; past it the search stops and says where.
	MaxWalkEntries int
	// MaxEditBytes bounds the size of a file edit_file changes. It is
	// apart from MaxReadBytes because an edit never returns the file, only
	// a diff cut to the read limit: what bounds it is the memory it holds
	// (the text, the edited text and the diff), which the edit reserves
	// from the server's memory budget. Default 16 MiB.
	MaxEditBytes int64
}

// WithDefaults returns l with every zero or negative field replaced by its
// default.
func (l Limits) WithDefaults() Limits {
	if l.MaxReadBytes <= 0 {
		l.MaxReadBytes = DefaultMaxReadBytes
	}
	if l.MaxListEntries <= 0 {
		l.MaxListEntries = DefaultMaxListEntries
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxResults <= 0 {
		l.MaxResults = DefaultMaxResults
	}
	if l.MaxPathBytes <= 0 {
		l.MaxPathBytes = DefaultMaxPathBytes
	}
	if l.MaxNameBytes <= 0 {
		l.MaxNameBytes = DefaultMaxNameBytes
	}
	if l.MaxWalkEntries <= 0 {
		l.MaxWalkEntries = DefaultMaxWalkEntries
	}
	if l.MaxWriteBytes <= 0 {
		l.MaxWriteBytes = DefaultMaxWriteBytes
	}
	if l.MaxEditBytes <= 0 {
		l.MaxEditBytes = DefaultMaxEditBytes
	}
	return l
}
