package server

import "github.com/stdiotools/toolserver/i18n"

// msgID names one sentence the server itself writes for a model (or, in
// a log message, for the client): a refusal of a policy, a timeout, an
// internal error. The messages of JSON-RPC errors are for the client
// program and stay in English, as the protocol's own texts do.
type msgID uint8

// The sentences, grouped by the file that writes them.
const (
	// answer.go, addtool.go, worker.go.
	msgNotEncoded msgID = iota
	msgNotEncodedLog
	msgNoResult
	msgTimeout
	msgInternal
	msgInternalLog
	msgPanicked
	msgPanickedLog
	msgCancelled
	msgRanOut

	// The policies: budget.go, queue.go, policy_*.go, mrtr.go, resolve.go.
	msgMemoryWait
	msgBusy
	msgCallsUsed
	msgRate
	msgLoop
	msgShuttingDown
	msgCannotAsk
	msgNoSession
	msgConfirmTimeout
	msgConfirmCancelled
	msgConfirmFailed
	msgDeclined
	msgDismissed

	numMsgs
)

// catalog holds every sentence in English and in Chinese. {1}, {2}, …
// stand for the arguments, in the order the code passes them: tool
// names, counts and durations, shown as they are in both languages.
var catalog = i18n.Catalog[msgID]{
	msgNotEncoded: {
		"The result of {1} could not be encoded as JSON ({2}); this is a bug in the tool.",
		"{1} 的结果无法编码为 JSON（{2}）；这是工具的缺陷。"},
	msgNotEncodedLog: {
		"The result of {1} could not be encoded as JSON; this is a bug in the tool, and the details are in the server log.",
		"{1} 的结果无法编码为 JSON；这是工具的缺陷，详情见服务器日志。"},
	msgNoResult: {
		"The tool {1} returned no result; this is a bug in the tool.",
		"工具 {1} 没有返回结果；这是工具的缺陷。"},
	msgTimeout: {
		"The call to {1} did not finish within {2} and was stopped; nothing more will come of it. Try a smaller request, such as a narrower path or fewer files.",
		"对 {1} 的调用未能在 {2} 内完成，已被停止，不会再有结果。请缩小请求，例如用更具体的路径或更少的文件。"},
	msgInternal: {
		"The tool {1} failed with an internal error; the details are in the server log.",
		"工具 {1} 因内部错误而失败；详情见服务器日志。"},
	msgInternalLog: {
		"the tool failed with an internal error; the details are in the server log",
		"工具因内部错误而失败；详情见服务器日志"},
	msgPanicked: {
		"The tool {1} failed with an internal error; the details are in the server log. Try again, or use another way.",
		"工具 {1} 因内部错误而失败；详情见服务器日志。请重试，或换一种方式。"},
	msgPanickedLog: {
		"the tool panicked; the stack is in the server log",
		"工具发生了 panic；调用栈见服务器日志"},
	msgCancelled: {
		"The call to {1} was cancelled before it finished.",
		"对 {1} 的调用在完成前被取消。"},
	msgRanOut: {
		"The call to {1} ran out of time before it finished.",
		"对 {1} 的调用在完成前超时。"},

	msgMemoryWait: {
		"The call to {1} was stopped while it waited for memory, which other calls were using.",
		"对 {1} 的调用在等待内存时被停止，内存正被其他调用占用。"},
	msgBusy: {
		"The server is busy: every one of its slots is running a call and {1} more are waiting. Wait for some of your calls to finish, then try this one again.",
		"服务器繁忙：所有槽位都在执行调用，另有 {1} 个在排队。请等你的部分调用完成后，再重试这一个。"},
	msgCallsUsed: {
		"This session has used all {1} tool calls it is allowed; no more calls will run. Finish with what you have.",
		"本会话已用完允许的全部 {1} 次工具调用，不会再执行任何调用。请用已有的结果完成任务。"},
	msgRate: {
		"Too many calls: this server runs at most {1} calls per second. Wait {2} and try again.",
		"调用过于频繁：本服务器每秒最多执行 {1} 次调用。请等待 {2} 后重试。"},
	msgLoop: {
		"You have called {1} with the same arguments {2} times in a row; the result will not change. Use the answer you have, or change the arguments.",
		"你已连续 {2} 次用相同的参数调用 {1}，结果不会改变。请使用已有的结果，或修改参数。"},
	msgShuttingDown: {
		"The call to {1} was stopped before it started: the server is shutting down.",
		"对 {1} 的调用在开始前被停止：服务器正在关闭。"},
	msgCannotAsk: {
		"This server asks the user to confirm every change, but the client cannot ask the user (it did not declare elicitation); nothing was changed.",
		"本服务器要求用户确认每项修改，但客户端无法询问用户（它没有声明 elicitation）；未做任何修改。"},
	msgNoSession: {
		"This server asks the user to confirm every change, and outside a session there is nobody to ask; nothing was changed.",
		"本服务器要求用户确认每项修改，而在会话之外无人可问；未做任何修改。"},
	msgConfirmTimeout: {
		"The user did not answer the confirmation within {1}; nothing was changed.",
		"用户未在 {1} 内回复确认请求；未做任何修改。"},
	msgConfirmCancelled: {
		"The call was cancelled while waiting for the user's confirmation; nothing was changed.",
		"调用在等待用户确认时被取消；未做任何修改。"},
	msgConfirmFailed: {
		"The client could not ask the user for confirmation; nothing was changed.",
		"客户端无法向用户请求确认；未做任何修改。"},
	msgDeclined: {
		"The user declined this change; nothing was changed. Ask the user before trying it again.",
		"用户拒绝了这项修改；未做任何修改。再次尝试前请先询问用户。"},
	msgDismissed: {
		"The user dismissed the confirmation without accepting; nothing was changed.",
		"用户关闭了确认请求而没有同意；未做任何修改。"},
}

// say returns the sentence id in lang with its {1}, {2}, … replaced by
// args (see [i18n.Catalog.Say]).
func say(lang i18n.Lang, id msgID, args ...string) string { return catalog.Say(lang, id, args...) }
