package condition

import (
	"fmt"
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"
)

type tokenKind uint8

const (
	tEOF       tokenKind = iota
	tError               // a lexical error; always the last token, carrying err
	tString              // 'text' or "text"; val holds the unescaped text
	tNumber              // 12 or 1.5; num holds the value
	tIdent               // visitor, claims, true, false, null, ...
	tDot                 // .
	tLBracket            // [
	tRBracket            // ]
	tLParen              // (
	tRParen              // )
	tStrictEq            // ===
	tStrictNe            // !==
	tAnd                 // &&
	tOr                  // ||
	tNot                 // !
	tMinus               // -
	tLess                // <
	tLessEq              // <=
	tGreater             // >
	tGreaterEq           // >=
	tComma               // , (only to say that includes takes one argument)
)

type token struct {
	kind tokenKind
	pos  int    // 1-based column of the first character
	text string // the source text of the token
	val  string // tString: the unescaped value
	num  float64
	err  *SyntaxError // tError only
}

// describe names a token for error messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of condition"
	case tString:
		s := []rune(t.text)
		if len(s) > 24 {
			return "string " + string(s[:20]) + "…"
		}
		return "string " + t.text
	case tNumber:
		return "number " + t.text
	}
	return strconv.Quote(t.text)
}

// scan splits src into tokens ending with a tEOF token. A lexical error does not fail the scan:
// it becomes a final tError token, so that the parser reports whichever problem comes first in
// the text (a misplaced ")" before a stray ";" is reported as such). The error return is only
// for problems with the input as a whole: its length and its encoding.
func scan(src string) ([]token, error) {
	if n := utf8.RuneCountInString(src); n > MaxLength {
		return nil, &SyntaxError{Pos: MaxLength + 1, Msg: fmt.Sprintf("condition is %d characters long; the limit is %d", n, MaxLength)}
	}
	col := 1
	for i, r := range src {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(src[i:]); size == 1 {
				return nil, &SyntaxError{Pos: col, Msg: "condition is not valid UTF-8"}
			}
		}
		col++
	}
	l := &lexer{src: []rune(src)}
	var toks []token
	for {
		t := l.next()
		toks = append(toks, t)
		if t.kind == tEOF || t.kind == tError {
			return toks, nil
		}
	}
}

type lexer struct {
	src []rune
	i   int // index of the next rune to read
}

func (l *lexer) peek(ahead int) rune {
	if l.i+ahead < len(l.src) {
		return l.src[l.i+ahead]
	}
	return -1
}

func (l *lexer) errorAt(i int, format string, args ...any) token {
	return token{kind: tError, pos: i + 1, err: &SyntaxError{Pos: i + 1, Msg: fmt.Sprintf(format, args...)}}
}

// isSpace accepts what JavaScript treats as whitespace or line terminators between tokens.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\uFEFF'
}

func isIdentStart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || unicode.IsDigit(r)
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

func (l *lexer) next() token {
	for l.i < len(l.src) && isSpace(l.src[l.i]) {
		l.i++
	}
	start := l.i
	if start >= len(l.src) {
		return token{kind: tEOF, pos: start + 1}
	}
	r := l.src[start]
	// op makes an operator token n runes long.
	op := func(kind tokenKind, n int) token {
		l.i += n
		return token{kind: kind, pos: start + 1, text: string(l.src[start:l.i])}
	}
	switch {
	case r == '"' || r == '\'':
		return l.string(r)
	case isDigit(r):
		return l.number()
	case isIdentStart(r):
		for l.i < len(l.src) && isIdentPart(l.src[l.i]) {
			l.i++
		}
		return token{kind: tIdent, pos: start + 1, text: string(l.src[start:l.i])}
	case r == '.':
		return op(tDot, 1)
	case r == '[':
		return op(tLBracket, 1)
	case r == ']':
		return op(tRBracket, 1)
	case r == '(':
		return op(tLParen, 1)
	case r == ')':
		return op(tRParen, 1)
	case r == '-':
		return op(tMinus, 1)
	case r == '<':
		if l.peek(1) == '=' {
			return op(tLessEq, 2)
		}
		return op(tLess, 1)
	case r == '>':
		if l.peek(1) == '=' {
			return op(tGreaterEq, 2)
		}
		return op(tGreater, 1)
	case r == ',':
		return op(tComma, 1)
	case r == '=':
		// Only strict equality exists: == coerces types in JavaScript, which makes conditions
		// surprising, and a lone = would be an assignment.
		if l.peek(1) == '=' && l.peek(2) == '=' {
			return op(tStrictEq, 3)
		}
		if l.peek(1) == '=' {
			return l.errorAt(start, "== is not supported; use === (strict equality)")
		}
		return l.errorAt(start, "unexpected \"=\"; use === to compare values")
	case r == '!':
		if l.peek(1) == '=' && l.peek(2) == '=' {
			return op(tStrictNe, 3)
		}
		if l.peek(1) == '=' {
			return l.errorAt(start, "!= is not supported; use !== (strict inequality)")
		}
		return op(tNot, 1)
	case r == '&':
		if l.peek(1) == '&' {
			return op(tAnd, 2)
		}
		return l.errorAt(start, "unexpected \"&\"; use && for \"and\"")
	case r == '|':
		if l.peek(1) == '|' {
			return op(tOr, 2)
		}
		return l.errorAt(start, "unexpected \"|\"; use || for \"or\"")
	}
	return l.errorAt(start, "unexpected character %q", r)
}

// string scans a quoted string starting at the opening quote q.
func (l *lexer) string(q rune) token {
	start := l.i
	l.i++ // opening quote
	var val []rune
	for {
		if l.i >= len(l.src) {
			return l.errorAt(start, "unterminated string")
		}
		r := l.src[l.i]
		switch {
		case r == q:
			l.i++
			return token{kind: tString, pos: start + 1, text: string(l.src[start:l.i]), val: string(val)}
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			// As in JavaScript, a string literal cannot span lines.
			return l.errorAt(start, "unterminated string (strings cannot span lines)")
		case r == '\\':
			e := l.peek(1)
			switch e {
			case '\\', '\'', '"':
				val = append(val, e)
				l.i += 2
			case -1:
				return l.errorAt(start, "unterminated string")
			default:
				return l.errorAt(l.i, "unsupported escape \"\\%c\" in string; only \\\\, \\' and \\\" are allowed", e)
			}
		default:
			val = append(val, r)
			l.i++
		}
	}
}

// number scans digits with an optional fraction. Leading zeros are refused because JavaScript
// reads 010 as octal (8) in sloppy mode and rejects it in strict mode; neither is what an author
// writing 010 means.
func (l *lexer) number() token {
	start := l.i
	for l.i < len(l.src) && isDigit(l.src[l.i]) {
		l.i++
	}
	if l.i-start > 1 && l.src[start] == '0' {
		return l.errorAt(start, "numbers cannot have leading zeros")
	}
	if l.peek(0) == '.' {
		l.i++
		if !isDigit(l.peek(0)) {
			return l.errorAt(l.i-1, "expected a digit after the decimal point")
		}
		for l.i < len(l.src) && isDigit(l.src[l.i]) {
			l.i++
		}
	}
	if r := l.peek(0); isIdentPart(r) {
		// 1e3, 0x10, 12px: none are numbers here.
		return l.errorAt(l.i, "unexpected character %q after number", r)
	}
	text := string(l.src[start:l.i])
	n, err := strconv.ParseFloat(text, 64)
	if err != nil && !isRangeErr(err) {
		return l.errorAt(start, "invalid number %s", text) // unreachable: the syntax was checked above
	}
	// ParseFloat reports underflow as a range error too, returning 0 (as JavaScript does); only
	// overflow to infinity is refused.
	if math.IsInf(n, 0) {
		return l.errorAt(start, "number is too large")
	}
	return token{kind: tNumber, pos: start + 1, text: text, num: n}
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
