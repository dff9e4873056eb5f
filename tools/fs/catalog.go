package fs

import "github.com/stdiotools/toolserver/i18n"

// msgID names one text of the catalog: a sentence, or a phrase that
// sentences are built from.
type msgID uint16

// The catalog entries, grouped by the file that uses them.
const (
	msgNone msgID = iota // no message

	// Phrases of every file: sizes, counts, kinds of file.
	msgByte
	msgBytes
	msgParen
	msgKindPipe
	msgKindSocket
	msgKindDevice
	msgKindSpecial
	msgLine
	msgLines
	msgEdit
	msgEdits
	msgReplacement
	msgReplacements
	msgEditReplaced
	msgReplaceAllTooLarge
	msgFile
	msgFiles
	msgLineAt
	msgLineSpan
	msgLinesList
	msgLinesListMore
	msgListSep
	msgAnd
	msgNothingWritten
	msgNothingCopied

	// write.go, space.go, atomic.go, tempfiles.go.
	msgWriteDryCreate
	msgWriteDryReplace
	msgWriteCreated
	msgWriteReplaced
	msgConfirmCreate
	msgConfirmOverwrite
	msgTheContentFor
	msgRootOfSeveral
	msgRootDot
	msgWriteIsDir
	msgWriteIsLink
	msgWriteLinkHint
	msgWriteLinkHintInside
	msgWriteIsSpecial
	msgNoParentDir
	msgFileInTheWay
	msgOverCap
	msgNoSpace
	msgNotSynced
	msgSourceChanged
	msgTempName
	msgNotDir

	// version.go and the checks of expected_version.
	msgVersionTag
	msgChangedWhileAsked
	msgVersionStale
	msgVersionGone
	msgBadVersion

	// append.go.
	msgAppendDryCreate
	msgAppendDryAppend
	msgAppended
	msgConfirmAppend
	msgAppendOverCap
	msgAppendNotCutBack

	// edit.go.
	msgEditUnchanged
	msgEditDryRun
	msgEditApplied
	msgEditFuzzy
	msgEditFuzzyReindented
	msgEditFuzzyEnd
	msgEditNotExist
	msgTheEditedTextOf
	msgConfirmEdit
	msgDiffCut
	msgDiffCutDryRun
	msgDiffCutApplied
	msgTooLargeToChange
	msgGrewWhileRead
	msgNotText
	msgKindImage
	msgKindAudio
	msgKindBinary
	msgKindText
	msgMatchMany
	msgMatchManyAllOn
	msgMatchManyOn
	msgMatchFuzzyMany
	msgMatchNone
	msgMatchNoneFirstLine
	msgMatchAfterEarlier
	msgMatchUnchanged

	// mkdir.go.
	msgMkdirExists
	msgMkdirDryRun
	msgMkdirCreated
	msgMkdirIsFile
	msgMkdirUnderFile
	msgConfirmMkdir
	msgConfirmMkdirParents
	msgMissingParent
	msgMissingParents
	msgMkdirNotSynced

	// copy.go, move.go, moveacross.go, delete.go.
	msgSubdir
	msgSubdirs
	msgLink
	msgLinks
	msgSkippedOne
	msgSkippedMany
	msgOtherSpecial
	msgOtherSpecials
	msgTheFile
	msgTheDir
	msgTheLink
	msgTheOther
	msgAFile
	msgADir
	msgALink
	msgDirContents
	msgMoveContents
	msgCopyAction
	msgCopyActionTree
	msgReplacing
	msgLeavingOut
	msgCopyDryRun
	msgConfirmCopy
	msgCopied
	msgCopyLinkToDir
	msgCopyIsSpecial
	msgTreeTooMany
	msgTreeTooBig
	msgTreeTooDeep
	msgTreeTooManyDirs
	msgVerbCopy
	msgVerbMove
	msgVerbCopies
	msgVerbMoves
	msgNothingCopiedAfter
	msgPartialCopy
	msgCopySourceChanged
	msgMoveAction
	msgAcrossFs
	msgAcrossRoots
	msgMoveDryRun
	msgMoveDryRunAcross
	msgConfirmMove
	msgConfirmMoveAcross
	msgMoved
	msgMovedAcross
	msgMoveNotSynced
	msgSourceIsRoot
	msgDestIsRoot
	msgSameSourceDest
	msgIntoItself
	msgDestIsDir
	msgDestExists
	msgSameFileTwoRoots
	msgDestNotRegular
	msgDestFileSrcDir
	msgNothingMoved
	msgAcrossCopying
	msgLinkCannotMove
	msgAcrossPlanFailed
	msgLinkInsideCannotMove
	msgAcrossSpecialKind
	msgSpecialsInside
	msgSpecialInsideNamed
	msgSpecialInsideMore
	msgAnySpecial
	msgNotMovedAcross
	msgNotMovedStage
	msgStageStopped
	msgStagePlaced
	msgAppeared
	msgCopyLeftIn
	msgCopyDeleted
	msgWithCause
	msgMoveCopyNotSynced
	msgMoveOriginalKept
	msgMoveSourceChanged
	msgMoveTreeRemains
	msgMoveTreeKept
	msgAndMore
	msgWhySep
	msgAndClauses
	msgDeleteRoot
	msgDeleteNotEmpty
	msgDeleteShowing
	msgEverythingIn
	msgDeleteDryRun
	msgConfirmDelete
	msgDeleted

	// names.go.
	msgEscapeRule
	msgEscapedNote
	msgPathEscaped
	msgInfoNotJSON

	// info.go.
	msgInfoNoTarget
	msgInfoUnreadable
	msgInfoNotCounted

	// read.go, readmany.go.
	msgHeadAndTail
	msgHeadWithRange
	msgBinary
	msgMediaRange
	msgMediaTooLarge
	msgResourceTooLarge
	msgAnImage
	msgASound
	msgMediaNote
	msgOffsetPastEmpty
	msgOffsetPastEnd
	msgReplacedByte
	msgReplacedBytes
	msgNumbersUnknown
	msgReadEmpty
	msgLastLineLong
	msgLineLong
	msgLastLines
	msgLastLinesCut
	msgSpanOf
	msgSpan
	msgLineOf
	msgLineSpanOf
	msgReadStopped
	msgReadOn
	msgReadOnSize
	msgManyUsedUp
	msgManyNoRoom
	msgManyOnlyLines
	msgManyFileCut
	msgManyFilesCut
	msgManyFileSkipped
	msgManyFilesSkipped
	msgManyNote
	msgManyError

	// grep.go, search.go, walk.go, ignore.go, glob.go.
	msgQueryLineBreak
	msgRegexpWhere
	msgBadRegexp
	msgGrepNone
	msgGrepSummary
	msgGrepFilesSummary
	msgGrepMore
	msgBadGrepCursor
	msgMatchingLine
	msgMatchingLines
	msgGrepStoppedVisit
	msgGrepStoppedRead
	msgGrepProgress
	msgSkippedList
	msgBinaryFile
	msgBinaryFiles
	msgLargerThan
	msgGrepNotRegular
	msgSkippedUnreadableOne
	msgSkippedUnreadableMany
	msgNotSearched
	msgIgnoredOne
	msgIgnoredMany
	msgUnusedOne
	msgUnusedMany
	msgIgnoreTooLarge
	msgIgnoreTooMany
	msgIgnoreReadLimit
	msgSearchNone
	msgSearchCountOne
	msgSearchCount
	msgWildcards
	msgSearchProgress
	msgSearchStopped
	msgSearchShowing
	msgGlobMalformed
	msgGlobEndsBackslash
	msgGlobOpenBracket
	msgGlobBadClass
	msgGlobStrayBrace
	msgGlobUnclosedBrace
	msgGlobTooMany
	msgAtChar // {1} of the msgGlob messages: where, or nothing
	msgArgPrefix

	// tree.go, list.go.
	msgTreeDepth
	msgTreeStops
	msgTreeIgnoredOne
	msgTreeIgnoredMany
	msgTreeNote
	msgOutsideRoot
	msgCannotRead
	msgMoreEntry
	msgMoreEntries
	msgDirEmpty
	msgDirectory
	msgDirectories
	msgSymlinkAt
	msgSymlinksAt
	msgSpecialAt
	msgSpecialsAt
	msgListSummary
	msgListSummaryBytes
	msgCursorAndOffset
	msgBadCursor
	msgListMore
	msgListPastEnd
	msgListLast

	// allowed.go, copymeter.go.
	msgReadWrite
	msgReadOnly
	msgRootLine
	msgRootLineFirst
	msgRootNone
	msgRootOnly
	msgPathRules
	msgMultiRules
	msgNoDirs
	msgWholeRoot
	msgOnlyThese
	msgRootsNarrowed
	msgNoDirsAny
	msgCopiedBytes
	msgCopiedFiles

	// walk.go: why an entry was skipped, a security.Reason or a reason of
	// the walk, as words.
	msgReasonOther
	msgReasonEmptyPath
	msgReasonControlCharacter
	msgReasonBackslash
	msgReasonWindowsPath
	msgReasonTilde
	msgReasonEscapesRoot
	msgReasonPathTooLong
	msgReasonNameTooLong
	msgReasonNotAllowed
	msgReasonLinkOutsideRoot
	msgReasonSpecialFile
	msgReasonNotExist
	msgReasonExists
	msgReasonNotDirectory
	msgReasonNotEmpty
	msgReasonIsDirectory
	msgReasonPermissionDenied
	msgReasonTooManyLinks
	msgReasonReadOnly
	msgReasonNoSpace
	msgReasonRootItself
	msgReasonInvisibleCharacterInName
	msgReasonNameNotNfc
	msgReasonConfusableName
	msgReasonAmbiguousPath
	msgReasonReadOnlyRoot
	msgReasonFileTooLarge
	msgReasonTooManyOpenFiles
	msgReasonLocked
	msgReasonUnwatchable
	msgReasonTooDeep
	msgReasonTooManyDirectories

	// grep.go: the kinds of error in a regular expression, as
	// regexp/syntax names them.
	msgReInvalidCharClass
	msgReInvalidCharRange
	msgReInvalidEscape
	msgReInvalidNamedCapture
	msgReInvalidPerlOp
	msgReInvalidRepeatOp
	msgReInvalidRepeatSize
	msgReInvalidUTF8
	msgReMissingBracket
	msgReMissingParen
	msgReMissingRepeatArgument
	msgReTrailingBackslash
	msgReUnexpectedParen
	msgReNestingDepth
	msgReLarge

	numMsgs
)

// catalog holds every text the file tools write for a model (or, in a
// confirmation, for its user), in English and in Chinese. {1}, {2}, …
// stand for the arguments of the message, in the order the code passes
// them. Paths, names, patterns, tool and argument names and numbers are
// arguments or stay as they are in both languages: they are code.
var catalog = i18n.Catalog[msgID]{
	msgByte:         {"1 byte", "1 字节"},
	msgBytes:        {"{1} bytes", "{1} 字节"},
	msgParen:        {"{1} ({2})", "{1}（{2}）"},
	msgKindPipe:     {"a named pipe", "命名管道"},
	msgKindSocket:   {"a socket", "套接字"},
	msgKindDevice:   {"a device", "设备文件"},
	msgKindSpecial:  {"a special file", "特殊文件"},
	msgLine:         {"1 line", "1 行"},
	msgLines:        {"{1} lines", "{1} 行"},
	msgEdit:         {"1 edit", "1 处编辑"},
	msgEdits:        {"{1} edits", "{1} 处编辑"},
	msgReplacement:  {"1 replacement", "1 处替换"},
	msgReplacements: {"{1} replacements", "{1} 处替换"},
	msgEditReplaced: {" They made {1}.", "共{1}。"},
	msgReplaceAllTooLarge: {
		"edits[{1}] with replace_all would make {2} and grow the text of {3} to {4}, more than the {5} edit_file changes; nothing was written",
		"edits[{1}] 使用 replace_all 会进行{2}，使 {3} 的文本增长到 {4}，超过 edit_file 可修改的上限 {5}；未写入任何内容"},
	msgFile:           {"1 file", "1 个文件"},
	msgFiles:          {"{1} files", "{1} 个文件"},
	msgLineAt:         {"line {1}", "第 {1} 行"},
	msgLineSpan:       {"lines {1}-{2}", "第 {1}-{2} 行"},
	msgLinesList:      {"lines {1} and {2}", "第 {1} 和 {2} 行"},
	msgLinesListMore:  {"lines {1} and {2} more", "第 {1} 行及另外 {2} 行"},
	msgListSep:        {", ", "、"},
	msgAnd:            {"{1} and {2}", "{1} 和 {2}"},
	msgNothingWritten: {"nothing was written", "未写入任何内容"},
	msgNothingCopied:  {"nothing was copied", "未复制任何内容"},

	msgWriteDryCreate: {
		"Dry run: write_file would create {1} with {2}. Nothing was written.",
		"试运行：write_file 将创建 {1}，内容 {2}。未写入任何内容。"},
	msgWriteDryReplace: {
		"Dry run: write_file would replace {1} ({2}) with {3}. Nothing was written.",
		"试运行：write_file 将用 {3} 的内容替换 {1}（现为 {2}）。未写入任何内容。"},
	msgWriteCreated: {
		"Created {1} with {2}.",
		"已创建 {1}，内容 {2}。"},
	msgWriteReplaced: {
		"Replaced {1} ({2} before) with {3}.",
		"已替换 {1}（原为 {2}），现为 {3}。"},
	msgConfirmCreate: {
		"Create {1} with {2}.",
		"创建 {1}，内容 {2}。"},
	msgConfirmOverwrite: {
		"Overwrite {1} ({2} now) with {3}.",
		"覆盖 {1}（现为 {2}），新内容 {3}。"},
	msgTheContentFor: {
		"the content for {1}",
		"{1} 的新内容"},
	msgRootOfSeveral: {
		"{1} is a root directory; give the path of a file inside it, such as {2}",
		"{1} 是根目录；请给出其中某个文件的路径，例如 {2}"},
	msgRootDot: {
		`"." is the root directory; give the path of a file inside it, such as "notes.txt"`,
		`"." 是根目录；请给出其中某个文件的路径，例如 "notes.txt"`},
	msgWriteIsDir: {
		"{1} is a directory, and only files can be written; give a path inside it, such as {2}",
		"{1} 是目录，只能写入文件；请给出其中的路径，例如 {2}"},
	msgWriteIsLink: {
		"{1} is a symbolic link, and writing here would replace the link itself with a file; {2}",
		"{1} 是符号链接，在此写入会把链接本身替换成文件；{2}"},
	msgWriteLinkHint: {
		"change the file it points to instead",
		"请改为修改它指向的文件"},
	msgWriteLinkHintInside: {
		"write to {1}, the file it points to, instead",
		"请改为写入它指向的文件 {1}"},
	msgWriteIsSpecial: {
		"{1} is {2}, not a regular file; only regular files can be written",
		"{1} 是{2}，不是普通文件；只能写入普通文件"},
	msgNoParentDir: {
		"the directory {1} does not exist; create it with create_directory first",
		"目录 {1} 不存在；请先用 create_directory 创建"},
	msgFileInTheWay: {
		"{1} is a file, so it cannot hold {2}; choose another path",
		"{1} 是文件，不能包含 {2}；请换一个路径"},
	msgOverCap: {
		"{1} is {2}, more than the {3} one call may write (the server's --max-write-bytes limit); {4}",
		"{1}共 {2}，超过了单次调用可写入的 {3}（服务器的 --max-write-bytes 上限）；{4}"},
	msgNoSpace: {
		"writing {1} to {2} would leave its disk with less than the {3} every write keeps free (1% of the disk, at most 64 MiB): it has {4} available; {5}. Free some space first",
		"向 {2} 写入 {1} 后，磁盘剩余空间将少于每次写入须保留的 {3}（磁盘的 1%，最多 64 MiB）：当前可用 {4}；{5}。请先释放一些空间"},
	msgNotSynced: {
		"{1} was written, but its directory could not be synced to disk ({2}), so a power loss may still undo the write; check the disk, then write it again",
		"{1} 已写入，但其所在目录未能同步到磁盘（{2}），断电仍可能使这次写入丢失；请检查磁盘后重新写入"},
	msgSourceChanged: {
		"the source changed while it was being copied; try again",
		"复制过程中源文件发生了变化；请重试"},
	msgTempName: {
		"{1} is a name the server keeps for its own temporary files, which listings hide and which are deleted once stale; choose another name",
		"{1} 是服务器留给自身临时文件的名字，这类文件在列表中隐藏，过期后会被删除；请换一个名字"},
	msgNotDir: {
		"{1} is a file, not a directory; read_file reads it, and get_file_info describes it",
		"{1} 是文件，不是目录；可用 read_file 读取，用 get_file_info 查看其信息"},

	msgVersionTag: {"[version {1}]", "[版本 {1}]"},
	msgChangedWhileAsked: {
		"{1} changed while the user was being asked, so the change approved is not the one it would make now; nothing was changed: make the call again",
		"在询问用户期间 {1} 被修改了，所以用户批准的修改已不是现在将要做的修改；未做任何修改：请重新调用"},
	msgVersionStale: {
		"{1} changed since it was read: its version is {2} now, not {3}; nothing was written. Read it again, then make the change on what it holds now",
		"{1} 在读取之后已被修改：当前版本为 {2}，而不是 {3}；未写入任何内容。请重新读取，再基于其当前内容修改"},
	msgVersionGone: {
		"{1} no longer exists, so it is not at version {2}; nothing was written. Look for where it went (list_directory), or leave out expected_version to create it",
		"{1} 已不存在，因此不是版本 {2}；未写入任何内容。请查明它的去向（list_directory），或去掉 expected_version 来新建它"},
	msgBadVersion: {
		"expected_version {1} is not a version: give the 16 hexadecimal digits that read_file, get_file_info or the last write returned, as they are",
		"expected_version {1} 不是版本号：请原样给出 read_file、get_file_info 或上一次写入返回的 16 位十六进制数字"},

	msgAppendDryCreate: {
		"Dry run: append_file would create {1} with {2}. Nothing was written.",
		"试运行：append_file 将创建 {1}，内容 {2}。未写入任何内容。"},
	msgAppendDryAppend: {
		"Dry run: append_file would add {2} to the end of {1} ({3} now, {4} after). Nothing was written.",
		"试运行：append_file 将在 {1}（现为 {3}）末尾追加 {2}，追加后为 {4}。未写入任何内容。"},
	msgAppended: {
		"Appended {2} to {1} (now {3}).",
		"已在 {1} 末尾追加 {2}（现为 {3}）。"},
	msgConfirmAppend: {
		"Append {2} to {1} ({3} now).",
		"在 {1}（现为 {3}）末尾追加 {2}。"},
	msgAppendOverCap: {
		"appending {1} to {2} ({3} now) would make it {4}, more than the {5} one call may write (the server's --max-write-bytes limit); nothing was written",
		"向 {2}（现为 {3}）追加 {1} 后将达到 {4}，超过了单次调用可写入的 {5}（服务器的 --max-write-bytes 上限）；未写入任何内容"},
	msgAppendNotCutBack: {
		"the append to {1} failed ({2}), and the file could not be cut back to its former {3}, so it may end with part of the text; read its end (read_file with tail) before you append again",
		"向 {1} 追加失败（{2}），且未能把文件截回原来的 {3}，因此其末尾可能留有部分文本；再次追加前请先读取其末尾（read_file 加 tail）"},

	msgEditUnchanged: {
		"The {1} leave {2} unchanged; nothing was written.",
		"这 {1}没有改变 {2}；未写入任何内容。"},
	msgEditDryRun: {
		"Dry run: {1} would change {2} as shown below. Nothing was written.",
		"试运行：{1}将按下方所示修改 {2}。未写入任何内容。"},
	msgEditApplied: {
		"Applied {1} to {2} (now {3}).",
		"已对 {2} 应用 {1}（现为 {3}）。"},
	msgEditFuzzy: {
		"\nNote: edits[{1}].old_text did not occur exactly; it matched {2} when whitespace at the start and end of each line is ignored",
		"\n注意：edits[{1}].old_text 没有精确出现；忽略每行首尾空白后，它匹配了{2}"},
	msgEditFuzzyReindented: {
		", and new_text was re-indented to the file's indentation",
		"，并已按文件的缩进重新缩进 new_text"},
	msgEditFuzzyEnd: {
		"; check that part of the diff.",
		"；请检查 diff 中的这一部分。"},
	msgEditNotExist: {
		"{1} does not exist; edit_file changes existing files, and write_file creates new ones",
		"{1} 不存在；edit_file 只修改已有文件，新文件请用 write_file 创建"},
	msgTheEditedTextOf: {
		"the edited text of {1}",
		"{1} 编辑后的内容"},
	msgConfirmEdit: {
		"Edit {1}: {2}, {3} added and {4} removed ({5}, then {6}).",
		"编辑 {1}：{2}，新增 {3}，删除 {4}（{5}，编辑后 {6}）。"},
	msgDiffCut: {
		"The diff is {1}, with {2} added and {3} removed in all; only its first {4} are shown",
		"diff 共 {1}，总计新增 {2}、删除 {3}；只显示了前 {4}"},
	msgDiffCutDryRun: {
		"{1}, which stop before line {2} of the file as it is (line {3} once edited). Nothing was written: to see every change, make fewer or smaller edits per dry run; read_file with offset={2} reads the file as it is from there.",
		"{1}，止于当前文件的第 {2} 行之前（编辑后为第 {3} 行）。未写入任何内容：要看到全部改动，请每次试运行做更少或更小的编辑；read_file 加 offset={2} 可从那里读取当前文件。"},
	msgDiffCutApplied: {
		"{1}, which stop before line {2} of the edited file. Every edit was applied: read_file with offset={2} reads the edited file from there.",
		"{1}，止于编辑后文件的第 {2} 行之前。所有编辑均已应用：read_file 加 offset={2} 可从那里读取编辑后的文件。"},
	msgTooLargeToChange: {
		"{1} is {2}, more than the {3} {4} works on; change it with smaller tools, or replace it whole with write_file",
		"{1} 有 {2}，超过了 {4} 能处理的 {3}；请用其他工具分块修改，或用 write_file 整体替换"},
	msgGrewWhileRead: {
		"{1} grew past {2} while it was being read; try again",
		"{1} 在读取过程中增长到超过 {2}；请重试"},
	msgNotText: {
		"{1} is not a text file (it is {2}); {3} changes text files only",
		"{1} 不是文本文件（而是{2}）；{3} 只修改文本文件"},
	msgKindImage:  {"an image", "图片"},
	msgKindAudio:  {"audio", "音频"},
	msgKindBinary: {"binary", "二进制文件"},
	msgKindText:   {"text", "文本"},
	msgMatchMany: {
		"edits[{1}].old_text occurs {2} times in {3} ({4}), and must occur once; add surrounding lines to it to make it unique, or set replace_all to replace every one",
		"edits[{1}].old_text 在 {3} 中出现了 {2} 次（{4}），但必须只出现一次；请加上前后的行使其唯一，或设置 replace_all 以替换每一处"},
	msgMatchManyAllOn: {"all on {1}", "都在{1}"},
	msgMatchManyOn:    {"on {1}", "在{1}"},
	msgMatchFuzzyMany: {
		"edits[{1}].old_text does not occur exactly in {2}, and ignoring whitespace at the start and end of lines it matches {3} places ({4}); copy it exactly from the file, with enough surrounding lines to make it unique",
		"edits[{1}].old_text 没有在 {2} 中精确出现，忽略行首尾空白后匹配了 {3} 处（{4}）；请从文件中精确复制，并带上足够的前后行使其唯一"},
	msgMatchNone: {
		"edits[{1}].old_text was not found in {2}; read the file again with read_file and copy the text exactly, with its whitespace and line breaks",
		"在 {2} 中找不到 edits[{1}].old_text；请用 read_file 重新读取文件，连同空白和换行精确复制文本"},
	msgMatchNoneFirstLine: {
		"edits[{1}].old_text was not found in {2} (its first line matches {3}, but the lines after it differ); read the file again with read_file and copy the text exactly, with its whitespace and line breaks",
		"在 {2} 中找不到 edits[{1}].old_text（其第一行与{3}匹配，但后面的行不同）；请用 read_file 重新读取文件，连同空白和换行精确复制文本"},
	msgMatchAfterEarlier: {
		"{1} (each edit applies to the text the edits before it left)",
		"{1}（每处编辑都作用于前面的编辑完成后的文本）"},
	msgMatchUnchanged: {
		"{1}; the file was not changed",
		"{1}；文件未被修改"},

	msgMkdirExists: {
		"The directory {1} already exists; nothing was changed.",
		"目录 {1} 已存在；未做任何修改。"},
	msgMkdirDryRun: {
		"Dry run: create_directory would create {1}. Nothing was created.",
		"试运行：create_directory 将创建 {1}。未创建任何内容。"},
	msgMkdirCreated: {"Created {1}.", "已创建 {1}。"},
	msgMkdirIsFile: {
		"{1} already exists and is a file, not a directory; choose another name",
		"{1} 已存在，且是文件而不是目录；请换一个名字"},
	msgMkdirUnderFile: {
		"{1} is a file, so no directory can be created under it; choose another path",
		"{1} 是文件，不能在其下创建目录；请换一个路径"},
	msgConfirmMkdir: {"Create the directory {1}.", "创建目录 {1}。"},
	msgConfirmMkdirParents: {
		"Create the directory {1} and {2}.",
		"创建目录 {1}，以及 {2}。"},
	msgMissingParent:  {"1 missing parent", "1 个缺失的上级目录"},
	msgMissingParents: {"{1} missing parents", "{1} 个缺失的上级目录"},
	msgMkdirNotSynced: {
		"{1} was created, but {2} could not be synced to disk ({3}), so a power loss may still undo it; check the disk",
		"{1} 已创建，但 {2} 未能同步到磁盘（{3}），断电仍可能使其丢失；请检查磁盘"},

	msgSubdir:         {"1 subdirectory", "1 个子目录"},
	msgSubdirs:        {"{1} subdirectories", "{1} 个子目录"},
	msgLink:           {"1 symbolic link", "1 个符号链接"},
	msgLinks:          {"{1} symbolic links", "{1} 个符号链接"},
	msgSkippedOne:     {"1 symbolic link or special file", "1 个符号链接或特殊文件"},
	msgSkippedMany:    {"{1} symbolic links and special files", "{1} 个符号链接和特殊文件"},
	msgOtherSpecial:   {"1 other special file", "另外 1 个特殊文件"},
	msgOtherSpecials:  {"{1} other special files", "另外 {1} 个特殊文件"},
	msgTheFile:        {"the file {1} ({2})", "文件 {1}（{2}）"},
	msgTheDir:         {"the directory {1}", "目录 {1}"},
	msgTheLink:        {"the symbolic link {1}", "符号链接 {1}"},
	msgTheOther:       {"{1} {2}", "{1} {2}"},
	msgAFile:          {"a file", "文件"},
	msgADir:           {"a directory", "目录"},
	msgALink:          {"a symbolic link", "符号链接"},
	msgDirContents:    {"{1} and {2}, {3}", "{1}和 {2}，共 {3}"},
	msgMoveContents:   {"{1} ({2} and {3}, {4})", "{1}（{2}和 {3}，共 {4}）"},
	msgCopyAction:     {"{1} to {2}", "把{1} 复制到 {2}"},
	msgCopyActionTree: {"{1} ({2} and {3}, {4}) to {5}", "把{1}（{2}和 {3}，共 {4}）复制到 {5}"},
	msgReplacing:      {"{1}, replacing {2}", "{1}，替换{2}"},
	msgLeavingOut:     {"{1}, leaving out {2}", "{1}，不含 {2}"},
	msgCopyDryRun: {
		"Dry run: copy_file would copy {1}. Nothing was copied.",
		"试运行：copy_file 将{1}。未复制任何内容。"},
	msgConfirmCopy: {"Copy {1}.", "即将{1}。"},
	msgCopied:      {"Copied {1}.", "已{1}。"},
	msgCopyLinkToDir: {
		"{1} is a symbolic link to a directory; copy the directory it points to instead",
		"{1} 是指向目录的符号链接；请改为复制它指向的目录"},
	msgCopyIsSpecial: {
		"{1} is {2}; only files and directories can be copied",
		"{1} 是{2}；只能复制文件和目录"},
	msgTreeTooMany: {
		"{1} holds more than {2} entries, the most {3} {4} at once; {5} its subdirectories one at a time",
		"{1} 包含超过 {2} 个条目，超出了 {3} 一次能{4}的上限；请逐个{5}其子目录"},
	msgTreeTooBig: {
		"{1} holds more than {2}, the most one call may write (the server's --max-write-bytes limit); {3} its subdirectories one at a time",
		"{1} 的内容超过 {2}，即单次调用可写入的上限（服务器的 --max-write-bytes 上限）；请逐个{3}其子目录"},
	msgTreeTooDeep: {
		"{1} lies more than {2} levels below {3}, deeper than {4} goes; {5} its subdirectories one at a time",
		"{1} 位于 {3} 之下超过 {2} 层，超出了 {4} 能到达的深度；请逐个{5}其子目录"},
	msgTreeTooManyDirs: {
		"{1} holds too many directories for {2} to {3} at once; {4} its subdirectories one at a time",
		"{1} 包含的目录太多，{2} 无法一次{3}；请逐个{4}其子目录"},
	msgVerbCopy:           {"copy", "复制"},
	msgVerbMove:           {"move", "移动"},
	msgVerbCopies:         {"copies", "复制"},
	msgVerbMoves:          {"moves", "移动"},
	msgNothingCopiedAfter: {"{1}; nothing was copied", "{1}；未复制任何内容"},
	msgPartialCopy: {
		"the copy stopped after {1} of {2} files: {3}; what was copied is in {4}, which delete_file removes",
		"复制在完成 {2} 个文件中的 {1} 个后停止：{3}；已复制的内容在 {4} 中，可用 delete_file 删除"},
	msgCopySourceChanged: {
		"{1} changed while it was being copied, and nothing was written to {2}; try again",
		"{1} 在复制过程中发生了变化，未向 {2} 写入任何内容；请重试"},
	msgMoveAction: {"{1} to {2}", "把{1} 移动到 {2}"},
	msgAcrossFs: {
		"They are on different file systems, so ",
		"二者位于不同的文件系统，因此"},
	msgAcrossRoots: {
		"They are in different roots, so ",
		"二者位于不同的根目录，因此"},
	msgMoveDryRun: {
		"Dry run: move_file would move {1}. Nothing was moved.",
		"试运行：move_file 将{1}。未移动任何内容。"},
	msgMoveDryRunAcross: {
		"Dry run: move_file would move {1}. {2}it would be copied, then the original deleted. Nothing was moved.",
		"试运行：move_file 将{1}。{2}会先复制，再删除原件。未移动任何内容。"},
	msgConfirmMove: {"Move {1}.", "即将{1}。"},
	msgConfirmMoveAcross: {
		"Move {1}. {2}it will be copied, then the original deleted.",
		"即将{1}。{2}将先复制，再删除原件。"},
	msgMoved: {"Moved {1}.", "已{1}。"},
	msgMovedAcross: {
		"Moved {1}. {2}it was copied, then the original deleted.",
		"已{1}。{2}先复制，再删除了原件。"},
	msgMoveNotSynced: {
		"{1} was moved to {2}, but {3} could not be synced to disk ({4}), so a power loss may still undo the move; check the disk",
		"{1} 已移动到 {2}，但 {3} 未能同步到磁盘（{4}），断电仍可能使这次移动丢失；请检查磁盘"},
	msgSourceIsRoot: {
		"source is the root directory, which {1} cannot take; name a file or directory inside it",
		"source 是根目录，{1} 不能处理它；请指定其中的文件或目录"},
	msgDestIsRoot: {
		"destination is the root directory; give the full new path, such as {1}",
		"destination 是根目录；请给出完整的新路径，例如 {1}"},
	msgSameSourceDest: {
		"source and destination are both {1}; give a different destination",
		"source 和 destination 都是 {1}；请给出不同的 destination"},
	msgIntoItself: {
		"{1} is inside {2}; a directory cannot go inside itself",
		"{1} 位于 {2} 之内；目录不能放进它自身"},
	msgDestIsDir: {
		"destination {1} is an existing directory, which {2} never replaces; to put {3} inside it, give destination {4}",
		"destination {1} 是已存在的目录，{2} 从不替换目录；要把 {3} 放进其中，请将 destination 设为 {4}"},
	msgDestExists: {
		"destination {1} already exists ({2}); pass overwrite: true to replace it, or choose another destination",
		"destination {1} 已存在，是{2}；传入 overwrite: true 以替换它，或换一个 destination"},
	msgSameFileTwoRoots: {
		"source {1} and destination {2} are the same file, reached through two roots; nothing was moved",
		"source {1} 和 destination {2} 是经由两个根目录到达的同一个文件；未移动任何内容"},
	msgDestNotRegular: {
		"destination {1} is {2}; only regular files are replaced, so delete it first with delete_file or choose another destination",
		"destination {1} 是{2}；只能替换普通文件，请先用 delete_file 删除它，或换一个 destination"},
	msgDestFileSrcDir: {
		"destination {1} is a file and source {2} a directory; a file is only replaced by a file, so delete it first with delete_file or choose another destination",
		"destination {1} 是文件，而 source {2} 是目录；文件只能被文件替换，请先用 delete_file 删除它，或换一个 destination"},
	msgNothingMoved: {"nothing was moved", "未移动任何内容"},
	msgAcrossCopying: {
		"moving it to another file system means copying it, so {1}",
		"移动到另一个文件系统意味着复制，因此{1}"},
	msgLinkCannotMove: {
		"{1} is a symbolic link whose target is absolute or leads out of the root from {2}, and the sandbox makes only links that stay inside it; it cannot be moved to another file system, and {3}",
		"{1} 是符号链接，其目标是绝对路径，或从 {2} 出发会指向根目录之外，而沙箱只创建留在根目录内的链接；它不能移动到另一个文件系统，{3}"},
	msgAcrossPlanFailed: {
		"{1} is on another file system than {2}, so moving it means copying it, and {3}; {4}",
		"{1} 与 {2} 不在同一个文件系统上，移动意味着复制，而{3}；{4}"},
	msgLinkInsideCannotMove: {
		"{1} holds the symbolic link {2}, whose target is absolute or would lead out of the root from {3}, and the sandbox makes only links that stay inside it; the directory cannot be moved to another file system, and {4}",
		"{1} 包含符号链接 {2}，其目标是绝对路径，或从 {3} 出发会指向根目录之外，而沙箱只创建留在根目录内的链接；该目录不能移动到另一个文件系统，{4}"},
	msgAcrossSpecialKind: {
		"{1} is {2}; between file systems move_file moves only files, directories and symbolic links, and {3}",
		"{1} 是{2}；跨文件系统时 move_file 只移动文件、目录和符号链接，{3}"},
	msgSpecialsInside: {
		"{1} holds {2}, which cannot be made again on another file system; move or delete it first, or copy the directory with copy_file, which leaves such files out; {3}",
		"{1} 包含{2}，它无法在另一个文件系统上重建；请先移动或删除它，或用 copy_file 复制该目录（会略过这类文件）；{3}"},
	msgSpecialInsideNamed: {"{1}, {2}", "{1} {2}"},
	msgSpecialInsideMore:  {"{1}, and {2}", "{1}，以及{2}"},
	msgAnySpecial:         {"a named pipe, socket or device", "命名管道、套接字或设备文件"},
	msgNotMovedAcross: {
		"{1} was not moved to {2}, which is on another file system, and is as it was: {3}",
		"{1} 未移动到位于另一个文件系统上的 {2}，保持原样：{3}"},
	msgNotMovedStage: {
		"{1} was not moved to {2}, which is on another file system, and is as it was: {3}",
		"{1} 未移动到位于另一个文件系统上的 {2}，保持原样：{3}"},
	msgStageStopped: {
		"the copy stopped after {1} of {2} files",
		"复制在完成 {2} 个文件中的 {1} 个后停止"},
	msgStagePlaced: {
		"the copy was made, but could not be put in place",
		"副本已做好，但无法放到目标位置"},
	msgAppeared:    {"{1} appeared meanwhile", "{1} 在此期间出现了"},
	msgCopyLeftIn:  {"{1}. What was copied is left in {2}, which delete_file removes", "{1}。已复制的内容留在 {2} 中，可用 delete_file 删除"},
	msgCopyDeleted: {"{1}. What was copied was deleted", "{1}。已复制的内容已删除"},
	msgWithCause:   {"{1}: {2}", "{1}：{2}"},
	msgMoveCopyNotSynced: {
		"{1} was copied to {2}, which is on another file system, but the copy could not be synced to disk ({3}), so the original was kept: both exist now; check the copy, then delete one of them with delete_file",
		"{1} 已复制到位于另一个文件系统上的 {2}，但副本未能同步到磁盘（{3}），因此保留了原件：现在两者都存在；请检查副本，再用 delete_file 删除其中一个"},
	msgMoveOriginalKept: {
		"{1} was copied to {2}, which is on another file system, and the copy is complete, but the original could not be deleted: {3}. Both exist now; compare them, then delete the one you do not want with delete_file",
		"{1} 已完整复制到位于另一个文件系统上的 {2}，但原件无法删除：{3}。现在两者都存在；请比较后用 delete_file 删除不需要的那个"},
	msgMoveSourceChanged: {
		"{1} changed after it was copied, so it was kept",
		"{1} 在复制后发生了变化，因此被保留"},
	msgMoveTreeRemains: {
		"{1} was copied to {2}, which is on another file system, and the copy is complete, but the original could not be deleted entirely: {3}. What remains of it is still at {1}; check it against the copy, then delete it with delete_file",
		"{1} 已完整复制到位于另一个文件系统上的 {2}，但原件未能全部删除：{3}。剩余部分仍在 {1}；请与副本核对后用 delete_file 删除"},
	msgMoveTreeKept: {
		"these changed or gained entries while they were being moved, so they were kept with the directories holding them: {1}",
		"以下条目在移动过程中发生了变化或新增了内容，因此连同所在目录一起保留：{1}"},
	msgAndMore: {"{1} and {2} more", "{1} 及另外 {2} 个"},
	msgWhySep:  {"; ", "；"},
	msgDeleteRoot: {
		"{1} is the root directory, which delete_file never deletes; name a path inside it",
		"{1} 是根目录，delete_file 从不删除根目录；请指定其中的路径"},
	msgDeleteNotEmpty: {
		"{1} is a directory that is not empty ({2}); pass recursive: true to delete it with everything in it (with dry_run: true as well to first see what that would delete)",
		"{1} 是非空目录（{2}）；传入 recursive: true 可连同其中所有内容一起删除（同时传入 dry_run: true 可先查看将删除什么）"},
	msgDeleteShowing: {"Showing {1} of the {2} paths.", "显示了 {2} 个路径中的 {1} 个。"},
	msgEverythingIn:  {"{1} and everything in it: {2}", "{1} 及其中的所有内容：{2}"},
	msgDeleteDryRun: {
		"Dry run: delete_file would delete {1}. Nothing was deleted.",
		"试运行：delete_file 将删除{1}。未删除任何内容。"},
	msgConfirmDelete: {"Delete {1}. This cannot be undone.", "即将删除{1}。此操作无法撤销。"},
	msgDeleted:       {"Deleted {1}.", "已删除{1}。"},

	msgEscapeRule: {
		`\u{X} is the character with code point X (hexadecimal), \x{XX} a byte that is not UTF-8, \u{5C} a backslash. Give such a path exactly as shown: the path tools decode the escapes.`,
		`\u{X} 表示码位为 X（十六进制）的字符，\x{XX} 表示不是 UTF-8 的字节，\u{5C} 表示反斜杠。请按显示的原样给出这样的路径：路径类工具会解码这些转义。`},
	msgEscapedNote: {
		"[escaped] marks a line whose name or text shows characters as escapes: {1}",
		"[escaped] 标记的行中，名字或文本里的某些字符以转义形式显示：{1}"},
	msgPathEscaped: {
		"The path is shown with escapes: {1}",
		"路径以转义形式显示：{1}"},
	msgInfoNotJSON: {
		"The description could not be encoded as JSON.",
		"无法将文件信息编码为 JSON。"},
	msgInfoNoTarget: {
		"Where the link points could not be read.",
		"无法读取链接指向何处。"},
	msgInfoUnreadable: {
		"The file cannot be read, so its content is not described.",
		"文件无法读取，因此未描述其内容。"},
	msgInfoNotCounted: {
		"Lines and characters are counted for text files up to {1}.",
		"只统计不超过 {1} 的文本文件的行数和字符数。"},

	msgHeadAndTail: {
		"head and tail cannot be combined; use head for the start of the file, tail for its end, or offset and limit for lines in between",
		"head 和 tail 不能同时使用；读开头用 head，读结尾用 tail，读中间的行用 offset 和 limit"},
	msgHeadWithRange: {
		"{1} cannot be combined with offset or limit; use {1} alone, or offset and limit alone",
		"{1} 不能与 offset 或 limit 同时使用；请只用 {1}，或只用 offset 和 limit"},
	msgBinary: {
		"{1} is a binary file ({2}); read_file returns text, images and audio only; get_file_info describes it",
		"{1} 是二进制文件（{2}）；read_file 只返回文本、图片和音频；可用 get_file_info 查看其信息"},
	msgMediaRange: {
		"{1} is {2} ({3}); offset, limit, head and tail apply to text only, so leave them out to get the whole file",
		"{1} 是{2}（{3}）；offset、limit、head 和 tail 只适用于文本，请去掉它们以获取整个文件"},
	msgResourceTooLarge: {
		"{1} is {2}, more than the {3} a resource read returns; read_file reads it in parts",
		"{1} 大小为 {2}，超过了资源读取的上限 {3}；可用 read_file 分段读取"},
	msgMediaTooLarge: {
		"{1} is {2} of {3}, more than the {4} read_file returns at a time; get_file_info describes it",
		"{1} 是{2}，大小 {3}，超过了 read_file 每次返回的上限 {4}；可用 get_file_info 查看其信息"},
	msgAnImage:   {"an image", "图片"},
	msgASound:    {"a sound file", "音频文件"},
	msgMediaNote: {"{1}: {2}, {3}.", "{1}：{2}，{3}。"},
	msgOffsetPastEmpty: {
		"offset {1} is past the end of {2}, which is empty; leave offset out",
		"offset {1} 超出了 {2} 的末尾，该文件为空；请去掉 offset"},
	msgOffsetPastEnd: {
		"offset {1} is past the end of {2}, which has {3}; use an offset from 1 to {4}",
		"offset {1} 超出了 {2} 的末尾，该文件共 {3}；请使用 1 到 {4} 之间的 offset"},
	msgReplacedByte: {
		"1 byte that is not valid UTF-8 became U+FFFD, so writing this text back would change the file.",
		"有 1 个字节不是有效的 UTF-8，已替换为 U+FFFD，因此把这段文本写回会改变文件。"},
	msgReplacedBytes: {
		"{1} bytes that are not valid UTF-8 became U+FFFD, so writing this text back would change the file.",
		"有 {1} 个字节不是有效的 UTF-8，已替换为 U+FFFD，因此把这段文本写回会改变文件。"},
	msgNumbersUnknown: {
		"The lines are not numbered: their numbers are unknown at the end of a file this large; read it with offset and limit for numbered lines.",
		"这些行没有编号：这么大的文件末尾的行号未知；请用 offset 和 limit 读取带编号的行。"},
	msgReadEmpty: {"{1} is empty.", "{1} 是空文件。"},
	msgLastLineLong: {
		"The last line of {1} is longer than the {2} read_file returns at a time; this is its end.",
		"{1} 的最后一行超过了 read_file 每次返回的上限 {2}；这里是它的结尾部分。"},
	msgLineLong: {
		"Line {1} of {2} is longer than the {3} read_file returns at a time; this is its start. Call read_file with offset={4} to read on after it.",
		"{2} 的第 {1} 行超过了 read_file 每次返回的上限 {3}；这里是它的开头部分。用 offset={4} 调用 read_file 可从其后继续读取。"},
	msgLastLines: {
		"The last {1} of {2} ({3} in all; lines not counted in a file this long).",
		"{2} 的最后 {1}（文件共 {3}；这么长的文件不统计行数）。"},
	msgLastLinesCut: {
		"{1} Only these fit in the {2} read_file returns at a time.",
		"{1}read_file 每次最多返回 {2}，只能容纳这些。"},
	msgSpanOf:     {"Lines {1}-{2} of {3} of {4}.", "{4} 的第 {1}-{2} 行（共 {3} 行）。"},
	msgSpan:       {"Lines {1}-{2} of {3}.", "{3} 的第 {1}-{2} 行。"},
	msgLineOf:     {"Line {1} of {2} of {3}.", "{3} 的第 {1} 行（共 {2} 行）。"},
	msgLineSpanOf: {"Line {1} of {2}.", "{2} 的第 {1} 行。"},
	msgReadStopped: {
		"{1} Stopped at line {2} because read_file returns at most {3} at a time; call read_file with offset={4} to read on.",
		"{1}read_file 每次最多返回 {3}，因此停在第 {2} 行；用 offset={4} 调用 read_file 可继续读取。"},
	msgReadOn: {
		"{1} Call read_file with offset={2} to read on.",
		"{1}用 offset={2} 调用 read_file 可继续读取。"},
	msgReadOnSize: {
		"{1} The file is {2}; call read_file with offset={3} to read on.",
		"{1}文件大小为 {2}；用 offset={3} 调用 read_file 可继续读取。"},
	msgManyUsedUp: {
		"not read: the files before it used up the {1} one call returns; read it with read_file",
		"未读取：前面的文件已用完单次调用可返回的 {1}；请用 read_file 读取它"},
	msgManyNoRoom: {
		"not read: it does not fit in what the files before it left of the {1} one call returns; read it with read_file",
		"未读取：单次调用可返回 {1}，前面的文件剩下的空间放不下它；请用 read_file 读取它"},
	msgManyOnlyLines: {
		"Only lines 1-{1} fit in what the files before it left of the {2} one call returns; call read_file with offset={3} to read on.",
		"单次调用可返回 {2}，前面的文件剩下的空间只放得下第 1-{1} 行；用 offset={3} 调用 read_file 可继续读取。"},
	msgManyFileCut:      {"1 file was cut short", "1 个文件被截断"},
	msgManyFilesCut:     {"{1} files were cut short", "{1} 个文件被截断"},
	msgManyFileSkipped:  {"1 file was not read", "1 个文件未读取"},
	msgManyFilesSkipped: {"{1} files were not read", "{1} 个文件未读取"},
	msgManyNote: {
		"All files of one call return at most {1}, so {2}; read them with read_file (offset and limit page through long files).",
		"单次调用的所有文件最多返回 {1}，因此 {2}；请用 read_file 读取它们（offset 和 limit 可分页读取长文件）。"},
	msgManyError: {"error: {1}", "错误：{1}"},

	msgGrepNone:         {"No line matches in {1} searched.", "在搜索过的 {1}中没有匹配的行。"},
	msgGrepSummary:      {"{1} in {2} ({3} searched).", "{2}中有 {1}（共搜索了 {3}）。"},
	msgGrepFilesSummary: {"{1} with a match ({2} searched).", "{1}有匹配（共搜索了 {2}）。"},
	msgGrepMore: {
		"Showing the first {1}; more may match: pass cursor {2} with the same arguments to read on, or narrow the search with path, glob or a more precise query.",
		"只显示前 {1}；可能还有更多匹配：用相同的参数并传入 cursor {2} 继续读取，或用 path、glob 或更精确的 query 缩小搜索范围。"},
	msgBadGrepCursor: {
		"cursor {1} was not given by a grep with output {2}; pass the next_cursor of the previous grep unchanged, with the same arguments",
		"cursor {1} 不是 output 为 {2} 的 grep 给出的；请原样传入上一次 grep 的 next_cursor，并使用相同的参数"},
	msgMatchingLine:  {"1 matching line", "1 行匹配"},
	msgMatchingLines: {"{1} matching lines", "{1} 行匹配"},
	msgGrepStoppedVisit: {
		"Stopped after visiting {1} entries, the most one search visits, at {2}: narrow the path or glob to search the rest.",
		"已访问 {1} 个条目（单次搜索的上限），停在 {2}：请缩小 path 或 glob 以搜索其余部分。"},
	msgGrepStoppedRead: {
		"Stopped after reading {1}, the most one search reads, at {2}: narrow the path or glob to search the rest.",
		"已读取 {1}（单次搜索的上限），停在 {2}：请缩小 path 或 glob 以搜索其余部分。"},
	msgGrepProgress: {"searched {1} files, {2} matching lines", "已搜索 {1} 个文件，{2} 行匹配"},
	msgSkippedList:  {"Skipped {1}.", "跳过了 {1}。"},
	msgBinaryFile:   {"1 binary file", "1 个二进制文件"},
	msgBinaryFiles:  {"{1} binary files", "{1} 个二进制文件"},
	msgLargerThan:   {"{1} larger than {2}", "{1}（大于 {2}）"},
	msgGrepNotRegular: {
		"{1} is {2}, not a regular file; grep searches files and directories",
		"{1} 是{2}，不是普通文件；grep 只搜索文件和目录"},
	msgSkippedUnreadableOne: {
		"Skipped 1 entry that could not be read: {1}.",
		"跳过了 1 个无法读取的条目：{1}。"},
	msgSkippedUnreadableMany: {
		"Skipped {1} entries that could not be read: {2}.",
		"跳过了 {1} 个无法读取的条目：{2}。"},
	msgNotSearched: {"{1} What they hold was not searched.", "{1}其中的内容未被搜索。"},
	msgIgnoredOne: {
		"Skipped 1 ignored entry (.git, and what .gitignore, .ignore or .git/info/exclude exclude); pass include_ignored: true to include it.",
		"跳过了 1 个被忽略的条目（.git，以及 .gitignore、.ignore 或 .git/info/exclude 排除的内容）；传入 include_ignored: true 可包含它。"},
	msgIgnoredMany: {
		"Skipped {1} ignored entries (.git, and what .gitignore, .ignore or .git/info/exclude exclude); pass include_ignored: true to include them.",
		"跳过了 {1} 个被忽略的条目（.git，以及 .gitignore、.ignore 或 .git/info/exclude 排除的内容）；传入 include_ignored: true 可包含它们。"},
	msgUnusedOne: {
		"Did not apply 1 ignore file, so what it excludes was not skipped: {1}.",
		"有 1 个忽略文件未被应用，因此它排除的内容没有被跳过：{1}。"},
	msgUnusedMany: {
		"Did not apply {1} ignore files, so what they exclude was not skipped: {2}.",
		"有 {1} 个忽略文件未被应用，因此它们排除的内容没有被跳过：{2}。"},
	msgIgnoreTooLarge:  {"larger than {1} MiB", "大于 {1} MiB"},
	msgIgnoreTooMany:   {"over {1} lines or {2} MiB of ignore files in force", "生效的忽略文件超过 {1} 行或 {2} MiB"},
	msgIgnoreReadLimit: {"found after reading {1} MiB of ignore files", "在读取了 {1} MiB 忽略文件之后才遇到"},
	msgSearchNone:      {"Nothing below {1} matches {2}.", "{1} 之下没有与 {2} 匹配的条目。"},
	msgSearchCountOne:  {"1 match.", "1 个匹配。"},
	msgSearchCount:     {"{1} matches.", "{1} 个匹配。"},
	msgWildcards:       {"{1}; wildcards are * ? [abc] {a,b} and **", "{1}；通配符有 * ? [abc] {a,b} 和 **"},
	msgSearchProgress:  {"searched {1} entries, {2} matches", "已搜索 {1} 个条目，{2} 个匹配"},
	msgSearchStopped: {
		"Stopped after visiting {1} entries, the most one search visits, at {2}: narrow the path or pattern to search the rest.",
		"已访问 {1} 个条目（单次搜索的上限），停在 {2}：请缩小 path 或 pattern 以搜索其余部分。"},
	msgSearchShowing: {
		"Showing the first {1} of {2} matches; narrow the search with a more precise pattern, exclude, or a subdirectory as path.",
		"显示了 {2} 个匹配中的前 {1} 个；请用更精确的 pattern、exclude 或以子目录作为 path 来缩小搜索范围。"},
	msgGlobMalformed:     {"the pattern {1} is malformed: {2}", "模式 {1} 格式错误：{2}"},
	msgGlobEndsBackslash: {`it ends with '\', which escapes nothing`, `它以 '\' 结尾，而这个 '\' 没有转义任何字符`},
	msgGlobOpenBracket:   {"'['{1} is never closed by ']'; write [[] for a literal '['", "'['{1}没有对应的 ']'；字面的 '[' 请写成 [[]"},
	msgGlobBadClass: {
		"the character class{1} is malformed; write it as [abc], [a-z] or [^0-9], with at least one character, and '-' only between two",
		"字符类{1}格式错误；请写成 [abc]、[a-z] 或 [^0-9]，至少包含一个字符，'-' 只能位于两个字符之间"},
	msgGlobStrayBrace:    {"'}'{1} has no '{' before it; write [}] for a literal '}'", "'}'{1}前面没有 '{'；字面的 '}' 请写成 [}]"},
	msgGlobUnclosedBrace: {"'{'{1} is never closed by '}'; write [{] for a literal '{'", "'{'{1}没有对应的 '}'；字面的 '{' 请写成 [{]"},
	msgGlobTooMany:       {"its braces stand for more than {2} patterns; use fewer alternatives", "其中的花括号展开后超过 {2} 个模式；请减少备选项"},
	msgAtChar:            {" at character {1}", "（第 {1} 个字符）"},
	msgArgPrefix:         {"{1}: {2}", "{1}：{2}"},

	msgTreeDepth: {"depth {1} is more than the limit, so {2} levels are shown", "depth {1} 超过了上限，因此只显示 {2} 层"},
	msgTreeStops: {
		`the tree stops at {1} entries ("…" marks what is left out); narrow it with a smaller depth, exclude patterns, or a subdirectory as path`,
		`目录树在 {1} 个条目处截止（"…" 标出省略的部分）；请用更小的 depth、exclude 模式或以子目录作为 path 来缩小范围`},
	msgTreeIgnoredOne: {
		"left out 1 ignored entry (.git, and what .gitignore, .ignore or .git/info/exclude exclude); include_ignored: true shows it",
		"省略了 1 个被忽略的条目（.git，以及 .gitignore、.ignore 或 .git/info/exclude 排除的内容）；include_ignored: true 可显示它"},
	msgTreeIgnoredMany: {
		"left out {1} ignored entries (.git, and what .gitignore, .ignore or .git/info/exclude exclude); include_ignored: true shows them",
		"省略了 {1} 个被忽略的条目（.git，以及 .gitignore、.ignore 或 .git/info/exclude 排除的内容）；include_ignored: true 可显示它们"},
	msgTreeNote:         {"Note: {1}.", "注意：{1}。"},
	msgOutsideRoot:      {"(outside the root)", "（在根目录之外）"},
	msgMoreEntry:        {"1 more entry", "还有 1 个条目"},
	msgMoreEntries:      {"{1} more entries", "还有 {1} 个条目"},
	msgDirEmpty:         {"{1} is empty.", "{1} 是空目录。"},
	msgDirectory:        {"1 directory", "1 个目录"},
	msgDirectories:      {"{1} directories", "{1} 个目录"},
	msgSymlinkAt:        {"1 symbolic link (@)", "1 个符号链接（@）"},
	msgSymlinksAt:       {"{1} symbolic links (@)", "{1} 个符号链接（@）"},
	msgSpecialAt:        {"1 special file (|)", "1 个特殊文件（|）"},
	msgSpecialsAt:       {"{1} special files (|)", "{1} 个特殊文件（|）"},
	msgListSummary:      {"{1} {2}.", "{1} {2}。"},
	msgListSummaryBytes: {"{1} {2}; {3} in files.", "{1} {2}；文件共 {3}。"},
	msgCursorAndOffset: {
		"give cursor or offset, not both: the cursor already says where the page starts",
		"cursor 和 offset 只能给一个：cursor 已经指明了这一页从哪里开始"},
	msgBadCursor: {
		"cursor {1} was not given by a listing sorted by {2}; pass the cursor of the previous listing's note unchanged, with the same sort",
		"cursor {1} 不是按 {2} 排序的列表给出的；请原样传入上一次列表 note 中的 cursor，并使用相同的 sort"},
	msgListMore: {
		"Showing entries {1} to {2} of {3} (sorted by {4}); {5} more: call list_directory again with cursor={6} (and the same sort), or narrow with search_files.",
		"显示了 {3} 个条目中的第 {1} 到 {2} 个（按 {4} 排序）；还有 {5} 个：请用 cursor={6}（及相同的 sort）再次调用 list_directory，或用 search_files 缩小范围。"},
	msgListPastEnd: {
		"offset {1} is past the last of the {2} entries; nothing more to show.",
		"offset {1} 超出了全部 {2} 个条目；没有更多内容可显示。"},
	msgListLast: {
		"Showing entries {1} to {2} of {3} (sorted by {4}), the last ones.",
		"显示了 {3} 个条目中的第 {1} 到 {2} 个（按 {4} 排序），即最后几个。"},

	msgReadWrite:     {"read and write", "可读写"},
	msgReadOnly:      {"read-only", "只读"},
	msgRootLine:      {"{1} ({2}): paths in it are written {1}/PATH", "{1}（{2}）：其中的路径写作 {1}/PATH"},
	msgRootLineFirst: {"{1} ({2}): paths in it are written {1}/PATH, or as a plain relative PATH", "{1}（{2}）：其中的路径写作 {1}/PATH，也可写作普通的相对路径 PATH"},
	msgRootNone:      {"{1}; none of it may be used", "{1}；其中任何部分都不可用"},
	msgRootOnly:      {"{1}; only {2} and what is below", "{1}；只有 {2} 及其下的内容可用"},
	msgPathRules: {
		`Paths are relative to the root and use "/" as the separator, such as "src/main.go"; "." is the root itself. ".." may not lead above the root, absolute paths are accepted only inside it, and "~" is not expanded. Symbolic links that lead outside the root are not followed. A name holding characters that cannot be shown is shown with escapes, \u{X} for the character with code point X and \x{XX} for a byte; give it back exactly as shown.`,
		`路径相对于根目录，以 "/" 分隔，例如 "src/main.go"；"." 表示根目录本身。".." 不能超出根目录，绝对路径只接受根目录内的，"~" 不会被展开。指向根目录之外的符号链接不会被跟随。含有无法显示的字符的名字以转义形式显示：\u{X} 表示码位为 X 的字符，\x{XX} 表示一个字节；请按显示的原样传回。`},
	msgMultiRules: {
		`Each root has a name. A path names its root and a path inside it, "NAME:/PATH" (such as "notes:/todo.md"; "notes:" is the root itself); a plain relative path lies in the first root. Paths use "/" as the separator; ".." may not lead above a root, absolute paths are accepted only inside a root, and "~" is not expanded. Symbolic links that lead outside their root are not followed. Write tools refuse every path in a read-only root; copy from it into a writable root instead. A name holding characters that cannot be shown is shown with escapes, \u{X} for the character with code point X and \x{XX} for a byte; give it back exactly as shown.`,
		`每个根目录都有名字。路径写作 "NAME:/PATH"，先指明根目录，再给出其中的路径（例如 "notes:/todo.md"；"notes:" 表示该根目录本身）；普通的相对路径位于第一个根目录中。路径以 "/" 分隔；".." 不能超出根目录，绝对路径只接受根目录内的，"~" 不会被展开。指向其根目录之外的符号链接不会被跟随。写入类工具拒绝只读根目录中的所有路径；请改为从中复制到可写的根目录。含有无法显示的字符的名字以转义形式显示：\u{X} 表示码位为 X 的字符，\x{XX} 表示一个字节；请按显示的原样传回。`},
	msgNoDirs: {
		"No directory may be used: the client's roots include no part of the root. Ask the user to open a folder inside it.",
		"没有可用的目录：客户端的根目录不包含本根目录的任何部分。请让用户打开其中的某个文件夹。"},
	msgWholeRoot: {"The whole root may be used. {1}", "整个根目录都可以使用。{1}"},
	msgOnlyThese: {"Only these directories and what is below them may be used. {1}", "只有这些目录及其下的内容可以使用。{1}"},
	msgRootsNarrowed: {
		"The client's roots narrow some of these roots; only the directories listed may be used. {1}",
		"客户端的根目录限定了其中一些根目录的范围；只有列出的目录可以使用。{1}"},
	msgNoDirsAny: {
		"No directory may be used: the client's roots include no part of any root. Ask the user to open a folder inside one. {1}",
		"没有可用的目录：客户端的根目录不包含任何根目录的任何部分。请让用户打开某个根目录中的文件夹。{1}"},
	msgCopiedBytes: {"copied {1} of {2}", "已复制 {1}，共 {2}"},
	msgCopiedFiles: {"copied {1} of {2} files", "已复制 {1} 个文件，共 {2} 个"},

	msgQueryLineBreak: {
		"query holds a line break, but grep matches within single lines; search for one line of it",
		"query 含有换行，但 grep 只在单行内匹配；请只搜索其中的一行"},
	msgRegexpWhere: {"{1} in {2}", "{2} 处出错（{1}）"},
	msgBadRegexp: {
		"query {1} is not a valid regular expression: {2}; fix it (RE2 syntax), or leave regex out to search for the text as it is",
		"query {1} 不是有效的正则表达式：{2}；请按 RE2 语法修正，或去掉 regex 按原文搜索"},
	msgCannotRead:                     {" (cannot be read)", "（无法读取）"},
	msgAndClauses:                     {"{1} and {2}", "{1}，{2}"},
	msgReasonOther:                    {"other", "其他错误"},
	msgReasonEmptyPath:                {"empty path", "路径为空"},
	msgReasonControlCharacter:         {"control character", "含控制字符"},
	msgReasonBackslash:                {"backslash", "含反斜杠"},
	msgReasonWindowsPath:              {"windows path", "Windows 路径"},
	msgReasonTilde:                    {"tilde", "以 ~ 开头"},
	msgReasonEscapesRoot:              {"escapes root", "超出根目录"},
	msgReasonPathTooLong:              {"path too long", "路径过长"},
	msgReasonNameTooLong:              {"name too long", "名字过长"},
	msgReasonNotAllowed:               {"not allowed", "不在允许的目录内"},
	msgReasonLinkOutsideRoot:          {"link outside root", "链接指向根目录之外"},
	msgReasonSpecialFile:              {"special file", "特殊文件"},
	msgReasonNotExist:                 {"not exist", "不存在"},
	msgReasonExists:                   {"exists", "已存在"},
	msgReasonNotDirectory:             {"not directory", "不是目录"},
	msgReasonNotEmpty:                 {"not empty", "目录非空"},
	msgReasonIsDirectory:              {"is directory", "是目录"},
	msgReasonPermissionDenied:         {"permission denied", "没有权限"},
	msgReasonTooManyLinks:             {"too many links", "符号链接层数过多"},
	msgReasonReadOnly:                 {"read only", "只读"},
	msgReasonNoSpace:                  {"no space", "磁盘空间不足"},
	msgReasonRootItself:               {"root itself", "根目录本身"},
	msgReasonInvisibleCharacterInName: {"invisible character in name", "名字含不可见字符"},
	msgReasonNameNotNfc:               {"name not nfc", "名字不是 NFC 形式"},
	msgReasonConfusableName:           {"confusable name", "名字易与其他名字混淆"},
	msgReasonAmbiguousPath:            {"ambiguous path", "路径有歧义"},
	msgReasonReadOnlyRoot:             {"read only root", "只读根目录"},
	msgReasonFileTooLarge:             {"file too large", "文件过大"},
	msgReasonTooManyOpenFiles:         {"too many open files", "打开的文件过多"},
	msgReasonLocked:                   {"locked", "被锁定"},
	msgReasonUnwatchable:              {"unwatchable", "无法监视"},
	msgReasonTooDeep:                  {"too deep", "层级过深"},
	msgReasonTooManyDirectories:       {"too many directories", "待搜索的目录过多"},
	msgReInvalidCharClass:             {"invalid character class", "无效的字符类"},
	msgReInvalidCharRange:             {"invalid character class range", "无效的字符类范围"},
	msgReInvalidEscape:                {"invalid escape sequence", "无效的转义序列"},
	msgReInvalidNamedCapture:          {"invalid named capture", "无效的命名捕获组"},
	msgReInvalidPerlOp:                {"invalid or unsupported Perl syntax", "无效或不支持的 Perl 语法"},
	msgReInvalidRepeatOp:              {"invalid nested repetition operator", "无效的嵌套重复运算符"},
	msgReInvalidRepeatSize:            {"invalid repeat count", "无效的重复次数"},
	msgReInvalidUTF8:                  {"invalid UTF-8", "无效的 UTF-8"},
	msgReMissingBracket:               {"missing closing ]", "缺少右方括号 ]"},
	msgReMissingParen:                 {"missing closing )", "缺少右括号 )"},
	msgReMissingRepeatArgument:        {"missing argument to repetition operator", "重复运算符缺少操作对象"},
	msgReTrailingBackslash:            {"trailing backslash at end of expression", "表达式以反斜杠结尾"},
	msgReUnexpectedParen:              {"unexpected )", "多余的 )"},
	msgReNestingDepth:                 {"expression nests too deeply", "表达式嵌套过深"},
	msgReLarge:                        {"expression too large", "表达式过大"},
}
