package calc

import "math/big"

// nodeKind classifies a syntax tree node.
type nodeKind uint8

const (
	nodeNumber nodeKind = iota // literal; val holds its exact value
	nodeConst                  // pi or e; op holds the name
	nodeNeg                    // unary minus of args[0]
	nodeBinary                 // args[0] op args[1], op one of + - * / % ^
	nodeCall                   // function op applied to args
)

// node is one element of the syntax tree Eval walks.
type node struct {
	kind nodeKind
	col  int // column of the token that names the operation, for errors
	rcol int // for * / %: column where the right operand starts
	op   string
	val  *big.Rat
	args []*node

	// exact caches the node's value once it is known exactly, so that
	// evaluating again at a higher precision skips the exact parts.
	exact *big.Rat
}

// arity returns how many arguments a function takes, with max < 0 meaning
// no upper bound, and whether name is a function at all.
func arity(name string) (minArgs, maxArgs int, ok bool) {
	switch name {
	case "sqrt", "abs", "floor", "ceil":
		return 1, 1, true
	case "round":
		return 1, 2, true
	case "min", "max":
		return 1, -1, true
	}
	return 0, 0, false
}

// isConstant reports whether name is one of the built-in constants.
func isConstant(name string) bool {
	return name == "pi" || name == "e"
}
