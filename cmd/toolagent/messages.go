package main

import "github.com/stdiotools/toolserver/i18n"

// msgID names one text the model reads from the agent itself (the tool
// results it reads come from the server).
type msgID int

// The catalog entries.
const (
	msgErrorPrefix    msgID = iota // before the text of a tool's error result
	msgRepeat                      // a call that repeats an earlier one: its id
	msgBadArguments                // a call not run for its arguments: the tool, the mismatches
	msgTextResult                  // a result in text mode: the tool
	msgCut                         // a cut-off call: its number, tool, where it stopped
	msgCutNothing                  // a call cut off before any argument: its number, tool
	msgBadJSON                     // a call whose arguments are not JSON: its number, tool, the byte
	msgNoName                      // a call without a name: its number
	msgSendAgain                   // after a call that did not run
	msgSendAgainLast               // after the call the reply was cut in
	msgSoFar                       // what arrived of a cut-off call's arguments
	msgOthersAnswered              // after the notices, when other calls of the reply were answered
	msgTopLevel                    // the path of the arguments object itself
	msgCutUnnamed                  // a call in the text cut off before its name: its number, where it stopped
	msgSoFarText                   // what arrived of a call written in the text
	msgTextBadJSON                 // a call in the text that is not JSON: its number, the byte
	msgTextNotACall                // JSON in the text that is not a whole call: its number

	numMsgs
)

// catalog holds each text in English and Chinese. {1}, {2}, … stand for
// the arguments, in the order the code passes them.
var catalog = i18n.Catalog[msgID]{
	msgErrorPrefix:    {"Error: ", "错误："},
	msgRepeat:         {"Same call as {1}, run once; its result:", "与 {1} 的调用相同，只执行了一次；其结果："},
	msgBadArguments:   {"Not run: the arguments do not match the schema of {1}. {2} Fix them and call again.", "未执行：参数不符合 {1} 的模式。{2}请修正后再调用。"},
	msgTextResult:     {"Result of {1}:", "{1} 的结果："},
	msgCut:            {"Your call {1} ({2}) did not run: it was cut off at {3}.", "你的第 {1} 个调用（{2}）未执行：它在 {3} 处被截断。"},
	msgCutNothing:     {"Your call {1} ({2}) did not run: it was cut off before its arguments.", "你的第 {1} 个调用（{2}）未执行：它在参数之前被截断。"},
	msgBadJSON:        {"Your call {1} ({2}) did not run: its arguments are not valid JSON (at byte {3}).", "你的第 {1} 个调用（{2}）未执行：参数不是有效的 JSON（第 {3} 字节处）。"},
	msgNoName:         {"Your call {1} did not run: it has no tool name.", "你的第 {1} 个调用未执行：它没有工具名称。"},
	msgSendAgain:      {" Send it again, whole.", "请重新发送完整的该调用。"},
	msgSendAgainLast:  {" Send it again, whole, with any calls meant to follow it.", "请重新发送完整的该调用，以及之后原本要发送的调用。"},
	msgSoFar:          {" Its arguments so far were: {1}", "已收到的参数为：{1}"},
	msgOthersAnswered: {"Your other calls were answered above.", "你的其他调用已在上方答复。"},
	msgTopLevel:       {"the top level", "顶层"},
	msgCutUnnamed:     {"Your call {1} did not run: it was cut off at {2}.", "你的第 {1} 个调用未执行：它在 {2} 处被截断。"},
	msgSoFarText:      {" What arrived of it: {1}", "已收到的内容为：{1}"},
	msgTextBadJSON:    {"Your call {1} did not run: it is not valid JSON (at byte {2}).", "你的第 {1} 个调用未执行：它不是有效的 JSON（第 {2} 字节处）。"},
	msgTextNotACall:   {"Your call {1} did not run: it is not a whole tool call.", "你的第 {1} 个调用未执行：它不是完整的工具调用。"},
}

// msg returns a catalog text in the agent's language, with its {1}, {2},
// … replaced by args.
func (a *agent) msg(id msgID, args ...string) string { return catalog.Say(a.lang, id, args...) }
