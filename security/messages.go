package security

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/stdiotools/toolserver/i18n"
)

// msgID names one sentence of the catalog.
type msgID int

// The sentences. Several may share a Reason.
const (
	msgOther msgID = iota
	msgEmpty
	msgControl
	msgInvalidUTF8
	msgBackslash
	msgDrive
	msgUNC
	msgTilde
	msgDotDot
	msgAbsolute
	msgTooLong
	msgNameTooLong
	msgNotAllowed
	msgNoRoots
	msgLinkOutside
	msgLinkAbsolute
	msgLinkTarget
	msgLoop
	msgSpecialRead
	msgSpecialWrite
	msgSpecialUse
	msgNotExist
	msgExists
	msgNotDir
	msgIsDir
	msgNotEmpty
	msgPermission
	msgReadOnly
	msgNoSpace
	msgQuota
	msgFileTooBig
	msgTooManyOpen
	msgFsTooLong
	msgRootItself
	msgBadEscape
	msgNameInvisible
	msgNameNotNFC
	msgNameConfusable
	msgAmbiguous
	msgAbsoluteRoots
	msgUnknownRoot
	msgNoRootsIn
	msgReadOnlyRoot
	msgReadOnlyNested
	msgReadOnlyHolds
	msgReadOnlyAll
	msgLocked
	msgLockFailed
	msgUnwatchable
	msgNoWatching
	msgUnwatchableFs
	msgWatchFailed

	// Phrases the sentences are built from: kinds of special file, what
	// a character refused in new names is, and the "or" of a list.
	msgKindPipe
	msgKindSocket
	msgKindDevice
	msgKindSpecial
	msgRuneTag
	msgRuneVariationSelector
	msgRuneFiller
	msgRuneDefaultIgnorable
	msgRuneFormat
	msgRuneNoncharacter
	msgRunePrivateUse
	msgOr

	numMsgs
)

// catalog holds every sentence in English and Chinese. In the templates,
// {path} is the quoted, shortened path, {op} the operation, and {1} and
// {2} the PathError's arguments.
var catalog = i18n.Catalog[msgID]{
	msgOther: {
		`cannot {op} {path}; the file system reported an unexpected error`,
		`无法对 {path} 执行 {op}：文件系统报告了意外错误`},
	msgEmpty: {
		`the path is empty; use "." for the root or a path relative to it`,
		`路径为空；用 "." 表示根目录，或使用相对于根目录的路径`},
	msgControl: {
		`path {path} contains the control or invisible character {1}; remove it`,
		`路径 {path} 含有控制字符或不可见字符 {1}；请删除它`},
	msgInvalidUTF8: {
		`path {path} is not valid UTF-8; send the path as UTF-8 text`,
		`路径 {path} 不是有效的 UTF-8；请以 UTF-8 文本发送路径`},
	msgBackslash: {
		`path {path} contains a backslash; use / as the separator, such as {1}`,
		`路径 {path} 含有反斜杠；请用 / 作分隔符，例如 {1}`},
	msgDrive: {
		`path {path} is a Windows path; use a path relative to the root with / separators`,
		`路径 {path} 是 Windows 路径；请使用相对于根目录、以 / 分隔的路径`},
	msgUNC: {
		`path {path} is a network (UNC) path; use a path relative to the root`,
		`路径 {path} 是网络（UNC）路径；请使用相对于根目录的路径`},
	msgTilde: {
		`path {path} starts with ~; paths are relative to the root; ~ is not expanded`,
		`路径 {path} 以 ~ 开头；路径相对于根目录，~ 不会被展开`},
	msgDotDot: {
		`path {path} leaves the root; use a path inside it, such as {1}`,
		`路径 {path} 超出了根目录；请使用根目录内的路径，例如 {1}`},
	msgAbsolute: {
		`path {path} is outside the root; use a path relative to the root`,
		`路径 {path} 在根目录之外；请使用相对于根目录的路径`},
	msgTooLong: {
		`path {path} is {1} bytes long; use at most {2} bytes`,
		`路径 {path} 长 {1} 字节；最多允许 {2} 字节`},
	msgNameTooLong: {
		`path {path} has a name of {1} bytes; names may have at most {2} bytes`,
		`路径 {path} 中有一个名字长 {1} 字节；名字最多 {2} 字节`},
	msgNotAllowed: {
		`path {path} is outside the folders the client allowed; use a path under {1}`,
		`路径 {path} 不在客户端允许的文件夹内；请使用 {1} 下的路径`},
	msgNoRoots: {
		`path {path} cannot be used: the client's roots include no part of the root`,
		`路径 {path} 不可用：客户端的根目录不包含本根目录的任何部分，因此任何路径都不可用`},
	msgLinkOutside: {
		`{1} is a symbolic link that points outside the root; it cannot be followed`,
		`{1} 是指向根目录之外的符号链接；无法跟随`},
	msgLinkAbsolute: {
		`{1} is an absolute symbolic link; only relative links inside the root can be followed`,
		`{1} 是绝对路径的符号链接；只能跟随根目录内的相对链接`},
	msgLinkTarget: {
		`cannot link {path} to {1}; the target must be a relative path inside the root`,
		`无法将 {path} 链接到 {1}；目标必须是根目录内的相对路径`},
	msgLoop: {
		`{path} has too many levels of symbolic links (a loop?); it cannot be followed`,
		`{path} 的符号链接层数过多（可能是循环）；无法跟随`},
	msgSpecialRead: {
		`{path} is {1}, not a regular file; only regular files can be read`,
		`{path} 是{1}，不是普通文件；只能读取普通文件`},
	msgSpecialWrite: {
		`{path} is {1}, not a regular file; only regular files can be written`,
		`{path} 是{1}，不是普通文件；只能写入普通文件`},
	msgSpecialUse: {
		`{path} is {1}, not a regular file; only regular files can be used`,
		`{path} 是{1}，不是普通文件；只能使用普通文件`},
	msgNotExist: {
		`{path} does not exist; list_directory shows what does`,
		`{path} 不存在；list_directory 可列出已有的内容`},
	msgExists: {
		`{path} already exists; choose another name`,
		`{path} 已存在；请换一个名字`},
	msgNotDir: {
		`{path} is not a directory, or lies under a file; check the path`,
		`{path} 不是目录，或位于某个文件之下；请检查路径`},
	msgIsDir: {
		`{path} is a directory, not a file; list_directory shows what it contains`,
		`{path} 是目录，不是文件；list_directory 可列出其中的内容`},
	msgNotEmpty: {
		`{path} is a directory that is not empty; remove what it contains first`,
		`{path} 是非空目录；请先删除其中的内容`},
	msgPermission: {
		`permission denied for {path}; the server may not access it`,
		`没有权限访问 {path}；服务器无法访问它`},
	msgReadOnly: {
		`{path} is on a read-only file system, so it cannot be changed; write somewhere else`,
		`{path} 位于只读文件系统上，无法修改；请写到别处`},
	msgNoSpace: {
		`no space is left on the disk to write {path}; free some space or write less`,
		`磁盘上没有空间写入 {path}；请释放空间或少写一些`},
	msgQuota: {
		`cannot write {path}: the server's disk quota is used up; free some of its space or write less`,
		`无法写入 {path}：服务器的磁盘配额已用完；请释放一些空间或少写一些`},
	msgFileTooBig: {
		`{path} would exceed the largest file size the server may write (a ulimit); write less`,
		`{path} 将超过服务器可写入的最大文件大小（ulimit 限制）；请少写一些`},
	msgTooManyOpen: {
		`cannot {op} {path}: the server has too many files open; try again once other calls finish`,
		`无法对 {path} 执行 {op}：服务器打开的文件过多；请等其他调用结束后重试`},
	msgFsTooLong: {
		`{path}, or a name in it, is longer than the file system allows; use shorter names`,
		`{path} 或其中某个名字超过了文件系统允许的长度；请使用更短的名字`},
	msgRootItself: {
		`the root itself cannot be changed this way; name a path inside it`,
		`不能这样修改根目录本身；请指定根目录内的路径`},
	msgBadEscape: {
		`path {path} has the bad escape {1}; write a name as listings show it`,
		`路径 {path} 含有无效的转义 {1}；请按列表中显示的样子书写名字`},
	msgNameInvisible: {
		`cannot create {path}: its name has {1} at position {2}, not allowed in new names; remove it`,
		`无法创建 {path}：其名字的第 {2} 个字符是{1}，新名字中不允许使用；请删除它`},
	msgNameNotNFC: {
		`cannot create {path}: its name is not Unicode NFC and may look like another; use {1}`,
		`无法创建 {path}：其名字不是 Unicode NFC 形式，可能与别的名字看起来相同；请使用 {1}`},
	msgNameConfusable: {
		`cannot create {path}: the existing {1} differs only in case or Unicode form; use {1}`,
		`无法创建 {path}：已有的 {1} 与它只在大小写或 Unicode 形式上不同；请使用 {1}`},
	msgAmbiguous: {
		`path {path} could mean {1} or {2}; write the one you mean`,
		`路径 {path} 既可指 {1} 也可指 {2}；请写出你要的那一个`},
	msgAbsoluteRoots: {
		`path {path} is outside every root; use a path inside {1}`,
		`路径 {path} 不在任何根目录内；请使用 {1} 中的路径`},
	msgUnknownRoot: {
		`path {path} names the root {1}, which does not exist; use one of the roots {2}`,
		`路径 {path} 指定的根目录 {1} 不存在；请使用根目录 {2} 之一`},
	msgNoRootsIn: {
		`path {path} cannot be used: the client's roots include no part of the root {1}`,
		`路径 {path} 不可用：客户端的根目录不包含根目录 {1} 的任何部分`},
	msgReadOnlyRoot: {
		`{path} is in the read-only root {1}, where nothing can be changed; write in {2} instead`,
		`{path} 位于只读根目录 {1} 中，其中的内容都不能修改；请改为写入 {2}`},
	msgLocked: {
		`another writer held {path} for all of {1}; nothing was changed: try again shortly`,
		`另一个写入者在全部 {1} 内一直占用 {path}；没有做任何修改：请稍后重试`},
	msgLockFailed: {
		`cannot change {path}: the server's lock folder is broken; nothing was changed: tell the user`,
		`无法修改 {path}：服务器的锁目录已损坏；没有做任何修改：请告知用户`},
	msgUnwatchable: {
		`cannot watch {path}: the system reports no changes on its file system ({1}); read it again`,
		`无法监视 {path}：系统不报告其文件系统（{1}）上的变化；请重新读取`},
	msgNoWatching: {
		`cannot watch {path}: this server's system does not report changes to files; read it again`,
		`无法监视 {path}：此服务器的系统不报告文件的变化；请重新读取`},
	msgUnwatchableFs: {
		`cannot watch {path}: its root's file system does not report changes; read it again`,
		`无法监视 {path}：其根目录的文件系统不报告变化；请重新读取`},
	msgWatchFailed: {
		`cannot watch {path} now ({1}); read it again`,
		`现在无法监视 {path}（{1}）；请重新读取`},
	msgReadOnlyAll: {
		`{path} is in the read-only root {1}; nothing can be changed there`,
		`{path} 位于只读根目录 {1} 中；那里的内容都不能修改`},
	msgReadOnlyNested: {
		`{path} lies inside the read-only root {1}; it cannot be changed through {2} either`,
		`{path} 位于只读根目录 {1} 内；经由 {2} 也不能修改它`},
	msgReadOnlyHolds: {
		`{path} holds the read-only root {1}; it cannot be removed, moved or replaced`,
		`{path} 包含只读根目录 {1}；不能删除、移动或替换它`},

	// The phrases.
	msgKindPipe:              {`a named pipe`, `命名管道`},
	msgKindSocket:            {`a socket`, `套接字`},
	msgKindDevice:            {`a device`, `设备文件`},
	msgKindSpecial:           {`a special file`, `特殊文件`},
	msgRuneTag:               {`{1}, a tag character,`, ` {1}（标签字符）`},
	msgRuneVariationSelector: {`{1}, a variation selector,`, ` {1}（变体选择符）`},
	msgRuneFiller:            {`{1}, a filler character,`, ` {1}（填充字符）`},
	msgRuneDefaultIgnorable:  {`{1}, a default-ignorable (invisible) character,`, ` {1}（默认可忽略（不可见）字符）`},
	msgRuneFormat:            {`{1}, a format character (Cf),`, ` {1}（格式字符（Cf））`},
	msgRuneNoncharacter:      {`{1}, a noncharacter,`, ` {1}（非字符）`},
	msgRunePrivateUse:        {`{1}, a private-use character,`, ` {1}（私用字符）`},
	msgOr:                    {` or `, ` 或 `},
}

// Kinds of special file, the first argument of msgSpecialRead and
// msgSpecialWrite.
const (
	kindPipe    = "pipe"
	kindSocket  = "socket"
	kindDevice  = "device"
	kindSpecial = "special"
)

// kindName returns the noun phrase for a kind of special file.
func kindName(lang i18n.Lang, kind string) string {
	id := msgKindSpecial
	switch kind {
	case kindPipe:
		id = msgKindPipe
	case kindSocket:
		id = msgKindSocket
	case kindDevice:
		id = msgKindDevice
	}
	return catalog.Text(lang, id)
}

// nameRunePhrase turns the argument of msgNameInvisible, "U+XXXX", listSep
// and a key of nameClassKeys, into words: "U+200D, a default-ignorable
// character,".
func nameRunePhrase(lang i18n.Lang, arg string) string {
	cp, key, _ := strings.Cut(arg, listSep)
	var id msgID
	switch key {
	case "tag":
		id = msgRuneTag
	case "variation_selector":
		id = msgRuneVariationSelector
	case "filler":
		id = msgRuneFiller
	case "default_ignorable":
		id = msgRuneDefaultIgnorable
	case "format":
		id = msgRuneFormat
	case "noncharacter":
		id = msgRuneNoncharacter
	case "private_use":
		id = msgRunePrivateUse
	default:
		return cp
	}
	return catalog.Say(lang, id, cp)
}

// listSep separates the subtrees in the argument of msgNotAllowed.
const listSep = "\x00"

// format returns the sentence m in lang.
func (m msgID) format(lang i18n.Lang, op, path, a1, a2 string) string {
	if m < 0 || m >= numMsgs {
		m = msgOther
	}
	text := catalog.Text(lang, m)
	switch m {
	case msgSpecialRead, msgSpecialWrite, msgSpecialUse:
		a1 = kindName(lang, a1)
	case msgNotAllowed:
		a1 = quoteList(lang, strings.Split(a1, listSep))
	case msgAbsoluteRoots:
		a1 = quoteList(lang, strings.Split(a1, listSep))
	case msgUnknownRoot, msgReadOnlyRoot:
		a1, a2 = quote(a1), quoteList(lang, strings.Split(a2, listSep))
	case msgAmbiguous, msgNoRootsIn, msgReadOnlyNested, msgReadOnlyHolds, msgReadOnlyAll:
		a1, a2 = quote(a1), quote(a2)
	case msgBackslash:
		a1 = quoteTyped(a1)
	case msgDotDot, msgLinkOutside, msgLinkAbsolute, msgLinkTarget:
		a1 = quote(a1)
	case msgNameNotNFC, msgNameConfusable:
		a1 = quoteName(a1)
	case msgNameInvisible:
		a1 = nameRunePhrase(lang, a1)
	case msgBadEscape:
		a1 = `"` + a1 + `"` // an escape, or a backslash: ASCII that shows
	}
	// A path refused by Resolve is shown as the model typed it, its
	// escapes as they are; a new name refused for how it looks, with what
	// makes it look so escaped; any other is a real name, escaped.
	switch {
	case op == "resolve":
		path = quoteTyped(path)
	case m == msgNameInvisible || m == msgNameNotNFC || m == msgNameConfusable:
		path = quoteName(path)
	default:
		path = quote(path)
	}
	// One pass, so that braces in the inserted names (escapes) stay.
	return i18n.Expand(text, func(name string) (string, bool) {
		switch name {
		case "path":
			return path, true
		case "op":
			return op, true
		case "1":
			return a1, true
		case "2":
			return a2, true
		}
		return "", false
	})
}

// quoteName is quote for the messages about new names, which must show
// what makes a name look like another: it also escapes, as \uXXXX or
// \UXXXXXXXX, every code point a new name may not contain (strconv.Quote
// leaves the printable ones, such as U+034F or U+FE0F, as they are) and,
// in a path that is not in NFC, every combining mark, so that "cafe\u0301"
// does not show as "café".
func quoteName(p string) string {
	q := quote(p)
	marks := !norm.NFC.IsNormalString(p)
	var b strings.Builder
	b.Grow(len(q))
	for _, r := range q {
		switch {
		case refusedIn(r) == nameOK && !(marks && unicode.In(r, unicode.Mn, unicode.Me)):
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, `\u{%X}`, r) // the escape of EscapeName, which Resolve decodes
		}
	}
	return b.String()
}

// quoteList quotes up to three names and joins them with "or".
func quoteList(lang i18n.Lang, names []string) string {
	const maxShown = 3
	more := len(names) > maxShown
	if more {
		names = names[:maxShown]
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	if more {
		q = append(q, "…")
	}
	if len(q) == 1 {
		return q[0]
	}
	or := catalog.Text(lang, msgOr)
	return strings.Join(q[:len(q)-1], ", ") + or + q[len(q)-1]
}

// Display lengths of paths in messages, in runes.
const (
	maxShownRunes = 40
	headRunes     = 20
	tailRunes     = 19
)

// quote returns the name or root-relative path p shortened to about
// maxShownRunes runes, the middle replaced by "…", escaped with
// EscapeName and put in double quotes (which are not escaped).
func quote(p string) string {
	s, _ := EscapeName(shorten(p))
	return `"` + s + `"`
}

// quoteTyped is quote for a path as the model typed it: its backslashes
// stay as they are, since they start the escapes it typed (or are what
// Resolve refuses it for); every other character is escaped as by
// EscapeName.
func quoteTyped(p string) string {
	s, _ := escape(shorten(p), escTyped)
	return `"` + s + `"`
}

// shorten returns p shortened to about maxShownRunes runes, the middle
// replaced by "…".
func shorten(p string) string {
	if n := utf8.RuneCountInString(p); n > maxShownRunes {
		head, tail := 0, len(p)
		for i := 0; i < headRunes; i++ {
			_, size := utf8.DecodeRuneInString(p[head:])
			head += size
		}
		for i := 0; i < tailRunes; i++ {
			_, size := utf8.DecodeLastRuneInString(p[:tail])
			tail -= size
		}
		p = p[:head] + "…" + p[tail:]
	}
	return p
}
