package condition

import (
	"fmt"
	"slices"
	"strings"
)

// parser is a recursive-descent parser over the scanned tokens, one function per precedence
// level (see the grammar in the package documentation).
type parser struct {
	toks  []token
	i     int // index of the current token
	depth int // current nesting of parentheses and "!"
}

func parse(toks []token) (node, error) {
	p := &parser{toks: toks}
	if p.tok().kind == tEOF {
		return nil, &SyntaxError{Pos: 1, Msg: "empty condition"}
	}
	x, err := p.or()
	if err != nil {
		return nil, err
	}
	switch t := p.tok(); t.kind {
	case tEOF:
		return x, nil
	case tRParen:
		return nil, p.errorf(t, "unexpected \")\" without a matching \"(\"")
	default:
		return nil, p.errorf(t, "unexpected %s after a complete condition; combine conditions with && or ||", t.describe())
	}
}

// tok returns the current token. The token list always ends with tEOF or tError, which the
// parser never consumes, so the index stays in range.
func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) advance() { p.i++ }

// errorf reports a problem found at token t. If t is a lexical error, that error is what the
// author needs to see: the parser only ran into it because everything before it was fine.
func (p *parser) errorf(t token, format string, args ...any) error {
	if t.kind == tError {
		return t.err
	}
	return &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf(format, args...)}
}

// enter records one more level of nesting at token t, refusing to go beyond MaxDepth; every
// successful enter is paired with a leave.
func (p *parser) enter(t token) error {
	p.depth++
	if p.depth > MaxDepth {
		return p.errorf(t, "condition nests deeper than %d levels of parentheses and \"!\"", MaxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// or = and { "||" and }
func (p *parser) or() (node, error) {
	return p.binary(p.and, func(_ tokenKind, x, y node) node { return &orNode{x: x, y: y} }, tOr)
}

// and = equality { "&&" equality }
func (p *parser) and() (node, error) {
	return p.binary(p.equality, func(_ tokenKind, x, y node) node { return &andNode{x: x, y: y} }, tAnd)
}

// equality = relational { ( "===" | "!==" ) relational }, left-associative as in JavaScript.
func (p *parser) equality() (node, error) {
	return p.binary(p.relational, func(op tokenKind, x, y node) node { return &eqNode{x: x, y: y, negate: op == tStrictNe} },
		tStrictEq, tStrictNe)
}

// relational = unary { ( "<" | "<=" | ">" | ">=" ) unary }, binding tighter than equality and
// left-associative, as in JavaScript.
func (p *parser) relational() (node, error) {
	return p.binary(p.unary, func(op tokenKind, x, y node) node { return &relNode{x: x, y: y, op: op} },
		tLess, tLessEq, tGreater, tGreaterEq)
}

// binary parses operand { op operand } for the operators ops, left-associatively: join makes
// the node of each step.
func (p *parser) binary(operand func() (node, error), join func(op tokenKind, x, y node) node, ops ...tokenKind) (node, error) {
	x, err := operand()
	if err != nil {
		return nil, err
	}
	for slices.Contains(ops, p.tok().kind) {
		op := p.tok().kind
		p.advance()
		y, err := operand()
		if err != nil {
			return nil, err
		}
		x = join(op, x, y)
	}
	return x, nil
}

// unary = "!" unary | primary
func (p *parser) unary() (node, error) {
	t := p.tok()
	if t.kind != tNot {
		return p.primary()
	}
	x, err := p.nested(t, p.unary)
	if err != nil {
		return nil, err
	}
	return &notNode{x: x}, nil
}

// nested parses what follows t (a "!" or a "(") one level of nesting deeper.
func (p *parser) nested(t token, parse func() (node, error)) (node, error) {
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	p.advance()
	return parse()
}

// primary = literal | reference | "(" or ")"
func (p *parser) primary() (node, error) {
	t := p.tok()
	switch t.kind {
	case tString:
		p.advance()
		return &litNode{v: value{kind: kString, s: t.val}}, nil
	case tNumber:
		p.advance()
		return &litNode{v: value{kind: kNumber, n: t.num}}, nil
	case tMinus:
		// Minus exists only to write negative numbers; conditions have no arithmetic.
		p.advance()
		n := p.tok()
		if n.kind != tNumber {
			return nil, p.errorf(n, "expected a number after \"-\", found %s", n.describe())
		}
		p.advance()
		return &litNode{v: value{kind: kNumber, n: -n.num}}, nil
	case tIdent:
		switch t.text {
		case "true", "false":
			p.advance()
			return &litNode{v: value{kind: kBool, b: t.text == "true"}}, nil
		case "null":
			p.advance()
			return &litNode{v: value{kind: kNull}}, nil
		case "undefined":
			p.advance()
			return &litNode{v: value{kind: kUndefined}}, nil
		}
		return p.reference()
	case tLParen:
		x, err := p.nested(t, p.or)
		if err != nil {
			return nil, err
		}
		if c := p.tok(); c.kind != tRParen {
			return nil, p.errorf(c, "expected \")\" to close the \"(\" at column %d, found %s", t.pos, c.describe())
		}
		p.advance()
		return x, nil
	}
	return nil, p.errorf(t, "expected a value, found %s", t.describe())
}

// reference = "visitor" accessor { accessor }, where the first accessor names "claims": the
// claims are the only thing a condition can read.
func (p *parser) reference() (node, error) {
	root := p.tok()
	if root.text != "visitor" {
		return nil, p.errorf(root, "unknown name %s; conditions read visitor.claims", root.text)
	}
	p.advance()
	if k := p.tok().kind; k != tDot && k != tLBracket {
		return nil, p.errorf(root, "incomplete reference visitor; conditions read visitor.claims")
	}
	first, err := p.accessor()
	if err != nil {
		return nil, err
	}
	if first != "claims" {
		return nil, p.errorf(root, "unknown name visitor%s; conditions read visitor.claims", displayAccess(first))
	}
	var path []string
	for k := p.tok().kind; k == tDot || k == tLBracket; k = p.tok().kind {
		name, err := p.accessor()
		if err != nil {
			return nil, err
		}
		path = append(path, name)
	}
	ref := &refNode{path: path}
	t := p.tok()
	if t.kind != tLParen {
		return ref, nil
	}
	// A call: only includes(value), on what the path before it reads.
	if len(path) == 0 || path[len(path)-1] != "includes" || p.toks[p.i-1].kind != tIdent {
		return nil, p.errorf(t, "function and method calls are not supported, except .includes(value)")
	}
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	p.advance()
	arg, err := p.or()
	if err != nil {
		return nil, err
	}
	switch c := p.tok(); c.kind {
	case tRParen:
		p.advance()
	case tComma:
		return nil, p.errorf(c, "includes takes one argument")
	default:
		return nil, p.errorf(c, "expected \")\" to close the call at column %d, found %s", t.pos, c.describe())
	}
	if k := p.tok().kind; k == tDot || k == tLBracket || k == tLParen {
		return nil, p.errorf(p.tok(), "nothing can follow an includes(...) call but an operator")
	}
	return &includesNode{of: &refNode{path: path[:len(path)-1]}, arg: arg}, nil
}

// accessor = "." name | "[" ( string | integer ) "]"; it returns the property name. An integer
// index is kept as its decimal string, as JavaScript converts property keys to strings.
func (p *parser) accessor() (string, error) {
	if p.tok().kind == tDot {
		p.advance()
		t := p.tok()
		if t.kind != tIdent {
			return "", p.errorf(t, "expected a property name after \".\", found %s", t.describe())
		}
		p.advance()
		return t.text, nil
	}
	p.advance() // "["
	t := p.tok()
	var name string
	switch {
	case t.kind == tString:
		name = t.val
	case t.kind == tNumber && isIndex(t.text):
		name = t.text
	default:
		return "", p.errorf(t, "expected a quoted property name or an integer index inside [ ], found %s", t.describe())
	}
	p.advance()
	if c := p.tok(); c.kind != tRBracket {
		return "", p.errorf(c, "expected \"]\", found %s", c.describe())
	}
	p.advance()
	return name, nil
}

// displayAccess renders a property access in condition syntax: .name when name is an
// identifier, ["name"] otherwise.
func displayAccess(name string) string {
	if isIdentifier(name) {
		return "." + name
	}
	return "[" + quote(name) + "]"
}

// quote writes s as a double-quoted condition string. It escapes only what the language can
// escape (strconv.Quote would produce escapes such as \x7f that conditions do not have).
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func isIdentifier(s string) bool {
	for i, r := range []rune(s) {
		if !(isIdentStart(r) || i > 0 && isIdentPart(r)) {
			return false
		}
	}
	return s != ""
}
