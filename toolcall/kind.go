package toolcall

import "strconv"

// Kind says what [Extract] found in a model's output.
type Kind int

// The kinds of [Result].
const (
	// Final means the output holds no tool call: it is the final answer,
	// in Result.Text.
	Final Kind = iota
	// Calls means the output holds one or more tool calls, in
	// Result.Calls, to run before asking the model again.
	Calls
	// Incomplete means a tool call was started but is cut off or
	// unusable (Result.Reason says which). It is worth one fresh request;
	// the calls in Result.Calls came before it.
	Incomplete
)

// String returns "final", "calls" or "incomplete".
func (k Kind) String() string {
	switch k {
	case Final:
		return "final"
	case Calls:
		return "calls"
	case Incomplete:
		return "incomplete"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}
