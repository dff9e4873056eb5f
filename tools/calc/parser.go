package calc

import (
	"strconv"
	"strings"
)

// parser builds a syntax tree from tokens by recursive descent, one method
// per precedence level:
//
//	expr    = term { ("+" | "-") term }
//	term    = unary { ("*" | "/" | "%") unary }
//	unary   = ("+" | "-") unary | power
//	power   = primary [ ("^" | "**") unary ]
//	primary = number | constant | function "(" [ expr { "," expr } ] ")" | "(" expr ")"
//
// Because the exponent of power is a unary, powers associate to the right
// and may have a signed exponent, while -2^2 parses as -(2^2).
type parser struct {
	expr   string
	toks   []token
	pos    int
	depth  int
	lim    Limits
	digits digitLimit
}

// parse turns expr into a syntax tree or explains the first syntax error.
func parse(expr string, lim Limits) (*node, *Error) {
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{expr: expr, toks: toks, lim: lim, digits: digitLimit{max: lim.MaxDigits}}
	n, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEnd {
		return nil, p.unexpectedAfterOperand(t)
	}
	return n, nil
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEnd {
		p.pos++
	}
	return t
}

// previous returns the token before the current one, if any.
func (p *parser) previous() (token, bool) {
	if p.pos == 0 {
		return token{}, false
	}
	return p.toks[p.pos-1], true
}

func (p *parser) isOp(ops ...string) bool {
	t := p.peek()
	if t.kind != tokOp {
		return false
	}
	for _, op := range ops {
		if t.text == op {
			return true
		}
	}
	return false
}

func (p *parser) fail(col int, msg, hint message) *Error {
	return newError(col, p.expr, msg, hint)
}

// enter counts one level of nesting at token t, refusing to go deeper than
// the limit so that recursion stays bounded whatever the input.
func (p *parser) enter(t token) *Error {
	p.depth++
	if p.depth > p.lim.MaxDepth {
		return p.fail(t.col, say(msgTooDeep, num(p.lim.MaxDepth)), say(msgHintSimplify))
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) parseExpr() (*node, *Error) {
	left, err := p.parseTerm()
	if err != nil {
		return nil, err
	}
	for p.isOp("+", "-") {
		op := p.next()
		right, err := p.parseTerm()
		if err != nil {
			return nil, err
		}
		left = &node{kind: nodeBinary, col: op.col, op: op.text, args: []*node{left, right}}
	}
	return left, nil
}

func (p *parser) parseTerm() (*node, *Error) {
	left, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for p.isOp("*", "/", "%") {
		op := p.next()
		rcol := p.peek().col
		right, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		left = &node{kind: nodeBinary, col: op.col, rcol: rcol, op: op.text, args: []*node{left, right}}
	}
	return left, nil
}

func (p *parser) parseUnary() (*node, *Error) {
	if !p.isOp("+", "-") {
		return p.parsePower()
	}
	op := p.next()
	if err := p.enter(op); err != nil {
		return nil, err
	}
	defer p.leave()
	operand, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	if op.text == "+" {
		return operand, nil
	}
	return &node{kind: nodeNeg, col: op.col, args: []*node{operand}}, nil
}

func (p *parser) parsePower() (*node, *Error) {
	base, err := p.parsePrimary()
	if err != nil {
		return nil, err
	}
	if !p.isOp("^", "**") {
		return base, nil
	}
	op := p.next()
	if err := p.enter(op); err != nil {
		return nil, err
	}
	defer p.leave()
	exp, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	return &node{kind: nodeBinary, col: op.col, op: "^", args: []*node{base, exp}}, nil
}

func (p *parser) parsePrimary() (*node, *Error) {
	t := p.peek()
	switch t.kind {
	case tokNumber:
		p.next()
		return p.number(t)
	case tokName:
		p.next()
		return p.name(t)
	case tokLParen:
		p.next()
		if err := p.enter(t); err != nil {
			return nil, err
		}
		defer p.leave()
		inner, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		if err := p.closeParen(t); err != nil {
			return nil, err
		}
		return inner, nil
	}
	return nil, p.missingOperand(t)
}

// number converts a literal token, enforcing the digit limit.
func (p *parser) number(t token) (*node, *Error) {
	v, ok := literalValue(t.text, p.lim.MaxDigits)
	if !ok || p.digits.ratExceeds(v) {
		return nil, p.fail(t.col, say(msgLiteralTooManyDigits, lit(shorten(t.text, nameRunes)), num(p.lim.MaxDigits)), message{})
	}
	return &node{kind: nodeNumber, col: t.col, val: v}, nil
}

// name resolves a constant or parses a function call.
func (p *parser) name(t token) (*node, *Error) {
	if isConstant(t.text) {
		if p.peek().kind == tokLParen {
			return nil, p.fail(t.col, say(msgConstantCalled, lit(t.text)), say(msgHintConstantTimes, lit(t.text)))
		}
		return &node{kind: nodeConst, col: t.col, op: t.text}, nil
	}
	minArgs, maxArgs, ok := arity(t.text)
	if !ok {
		return nil, p.fail(t.col, say(msgUnknownName, lit(strconv.Quote(shorten(t.text, nameRunes)))), nameHint(t.text))
	}
	open := p.peek()
	if open.kind != tokLParen {
		return nil, p.fail(open.col, say(msgExpectedParen, lit(t.text), open.describe()), say(msgHintWrite, lit(t.text+"(x)")))
	}
	p.next()
	if err := p.enter(open); err != nil {
		return nil, err
	}
	defer p.leave()
	var args []*node
	if p.peek().kind == tokRParen {
		p.next()
	} else {
		for {
			arg, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			args = append(args, arg)
			if p.peek().kind == tokComma {
				p.next()
				continue
			}
			if err := p.closeParen(open); err != nil {
				return nil, err
			}
			break
		}
	}
	if len(args) < minArgs || maxArgs >= 0 && len(args) > maxArgs {
		return nil, p.fail(t.col, arityMessage(t.text, minArgs, maxArgs, len(args)), message{})
	}
	return &node{kind: nodeCall, col: t.col, op: t.text, args: args}, nil
}

// closeParen consumes the ')' matching open or explains why it is missing.
func (p *parser) closeParen(open token) *Error {
	t := p.peek()
	switch t.kind {
	case tokRParen:
		p.next()
		return nil
	case tokEnd:
		return p.fail(open.col, say(msgUnclosedParen), say(msgHintAddParen))
	}
	return p.unexpectedAfterOperand(t)
}

// missingOperand reports token t standing where an operand must be.
func (p *parser) missingOperand(t token) *Error {
	prev, ok := p.previous()
	switch {
	case ok:
		return p.fail(t.col, say(msgExpectedNumberAfter, prev.describe(), t.describe()), message{})
	case t.kind == tokRParen:
		return p.fail(t.col, say(msgUnmatchedClose), message{})
	}
	return p.fail(t.col, say(msgExpectedNumber, t.describe()), message{})
}

// unexpectedAfterOperand reports token t following a complete operand where
// only an operator, a closing parenthesis or the end may follow.
func (p *parser) unexpectedAfterOperand(t token) *Error {
	switch t.kind {
	case tokRParen:
		return p.fail(t.col, say(msgUnmatchedClose), message{})
	case tokComma:
		return p.fail(t.col, say(msgUnexpectedComma), say(msgHintCommas))
	}
	prev, _ := p.previous()
	var hint message
	if t.kind == tokNumber || t.kind == tokName || t.kind == tokLParen {
		hint = say(msgHintMultiply)
	}
	return p.fail(t.col, say(msgExpectedOperator, prev.describe(), t.describe()), hint)
}

// nameHint suggests the intended name for an unknown one.
func nameHint(name string) message {
	lower := strings.ToLower(name)
	if _, _, ok := arity(lower); ok || isConstant(lower) {
		return say(msgHintCaseSensitive, lit(strconv.Quote(lower)))
	}
	return say(msgHintKnownNames)
}

// arityMessage says that the function name, which takes minArgs to
// maxArgs arguments, got got. A function with a range of counts takes at
// least one, so the range is always plural.
func arityMessage(name string, minArgs, maxArgs, got int) message {
	switch {
	case maxArgs < 0 && minArgs == 1:
		return say(msgArityAtLeastOne, lit(name), num(got))
	case maxArgs < 0:
		return say(msgArityAtLeast, lit(name), num(minArgs), num(got))
	case minArgs == maxArgs && minArgs == 1:
		return say(msgArityExactlyOne, lit(name), num(got))
	case minArgs == maxArgs:
		return say(msgArityExactly, lit(name), num(minArgs), num(got))
	}
	return say(msgArityEither, lit(name), num(minArgs), num(maxArgs), num(got))
}
