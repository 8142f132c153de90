package condition

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		pos  int
		msg  string // a fragment of the message
	}{
		// empty input
		{"empty", "", 1, "empty condition"},
		{"only whitespace", " \t\n ", 1, "empty condition"},

		// strings
		{"unterminated string", `visitor.claims.plan === "pro`, 25, "unterminated string"},
		{"unterminated after escaped quote", `visitor.claims.plan === 'pro\'`, 25, "unterminated string"},
		{"unterminated after backslash", `visitor.claims.plan === 'pro\`, 25, "unterminated string"},
		{"string across lines", "visitor.claims.a === \"x\ny\"", 22, "cannot span lines"},
		{"unsupported escape", `visitor.claims.a === "\n"`, 23, `unsupported escape "\n"`},

		// unexpected characters and unsupported operators
		{"single =", "visitor.claims.a = 1", 18, "use === to compare"},
		{"loose equality", "visitor.claims.a == 1", 18, "== is not supported; use ==="},
		{"loose inequality", "visitor.claims.a != 1", 18, "!= is not supported; use !=="},
		{"four =", "visitor.claims.a ==== 1", 21, `unexpected "="`},
		{"single &", "visitor.claims.a & visitor.claims.b", 18, `unexpected "&"; use &&`},
		{"single |", "visitor.claims.a | visitor.claims.b", 18, `unexpected "|"; use ||`},
		{"semicolon", "visitor.claims.a;", 17, `unexpected character ';'`},
		{"plus", "1 + 1", 3, `unexpected character '+'`},
		{"shift", "visitor.claims.a << 1", 19, `expected a value, found "<"`},
		{"optional chaining", "visitor.claims.a?.b", 17, `unexpected character '?'`},
		{"control character", "visitor.claims.a\x00", 17, `unexpected character '\x00'`},
		{"binary minus", "visitor.claims.a - 1", 18, `unexpected "-" after a complete condition`},
		{"minus before reference", "-visitor.claims.a", 2, `expected a number after "-", found "visitor"`},
		{"double minus", "--1", 2, `expected a number after "-", found "-"`},

		// numbers
		{"exponent", "visitor.claims.a === 1e3", 23, `unexpected character 'e' after number`},
		{"leading zeros", "visitor.claims.a === 007", 22, "leading zeros"},
		{"trailing decimal point", "visitor.claims.a === 1.", 23, "digit after the decimal point"},
		{"too large", "visitor.claims.a === 1" + strings.Repeat("0", 400), 22, "number is too large"},

		// names
		{"unknown identifier", `user.plan === "pro"`, 1, "unknown name user; conditions read visitor.claims"},
		{"unknown lone identifier", "plan", 1, "unknown name plan"},
		{"other visitor property", `visitor.plan === "pro"`, 1, "unknown name visitor.plan; conditions read visitor.claims"},
		{"other visitor bracket", `visitor["claim s"]`, 1, `unknown name visitor["claim s"]`},
		{"other visitor bracket escaped", "visitor['a\"\\\\b\x7f']", 1, "unknown name visitor[\"a\\\"\\\\b\x7f\"]"},
		{"bare visitor", "visitor === 1", 1, "incomplete reference visitor"},
		{"visitor dot", "visitor.", 9, `expected a property name after ".", found end of condition`},
		{"method call", `visitor.claims.roles.indexOf("admin")`, 29, "calls are not supported, except .includes(value)"},
		{"includes by bracket", `visitor.claims.roles["includes"]("admin")`, 33, "calls are not supported"},
		{"includes two arguments", `visitor.claims.roles.includes("a", 1)`, 34, "includes takes one argument"},
		{"includes unclosed", `visitor.claims.roles.includes("a"`, 34, `expected ")" to close the call at column 30`},
		{"includes then access", `visitor.claims.roles.includes("a").x`, 35, "nothing can follow an includes(...) call"},
		{"includes without argument", `visitor.claims.roles.includes()`, 31, `expected a value, found ")"`},

		// accessors
		{"dot at end", "visitor.claims.", 16, `expected a property name after ".", found end of condition`},
		{"dot then number", "visitor.claims.1", 16, `expected a property name after ".", found number 1`},
		{"unquoted bracket", "visitor.claims[plan]", 16, "expected a quoted property name or an integer index"},
		{"unclosed bracket", `visitor.claims["plan"`, 22, `expected "]", found end of condition`},
		{"negative index", "visitor.claims[-1]", 16, "integer index"},
		{"fractional index", "visitor.claims[1.5]", 16, "integer index"},
		{"empty brackets", "visitor.claims[]", 16, `found "]"`},

		// trailing tokens
		{"two references", "visitor.claims.a visitor.claims.b", 18, `unexpected "visitor" after a complete condition; combine conditions with && or ||`},
		{"two literals", "true false", 6, `unexpected "false" after a complete condition`},
		{"trailing string", `true "x"`, 6, `unexpected string "x" after`},
		{"trailing long string", `true 'abcdefghijklmnopqrstuvwxyz'`, 6, `unexpected string 'abcdefghijklmnopqrs… after`},

		// missing operands
		{"missing right operand", "visitor.claims.x ===", 21, "expected a value, found end of condition"},
		{"missing left operand", "=== 1", 1, `expected a value, found "==="`},
		{"missing operand of &&", "visitor.claims.x === 1 &&", 26, "expected a value, found end of condition"},
		{"missing operand of ||", "|| true", 1, `expected a value, found "||"`},
		{"missing operand of !", "!", 2, "expected a value, found end of condition"},
		{"missing right operand of ||", "true ||", 8, "expected a value, found end of condition"},
		{"operand is )", "visitor.claims.a === ) ;", 22, `expected a value, found ")"`},

		// parentheses
		{"unclosed paren", "(visitor.claims.a === 1", 24, `expected ")" to close the "(" at column 1, found end of condition`},
		{"unclosed inner paren", "visitor.claims.a === 1 && (visitor.claims.b === 2 || visitor.claims.c", 70, `"(" at column 27`},
		{"unclosed outer paren", "((visitor.claims.a)", 20, `"(" at column 1`},
		{"paren then junk", "(true false)", 7, `expected ")" to close the "(" at column 1, found "false"`},
		{"extra close paren", "visitor.claims.a === 1)", 23, `unexpected ")" without a matching "("`},
		{"empty parens", "()", 2, `expected a value, found ")"`},

		// columns count characters, not bytes
		{"column after multibyte", `visitor.claims["日本"] === "é" ;`, 30, `unexpected character ';'`},
		{"invalid UTF-8", "visitor.claims.a === \"é\xff\"", 24, "not valid UTF-8"},

		// limits
		{"too long", `"` + strings.Repeat("a", 1100) + `"`, MaxLength + 1, "condition is 1102 characters long; the limit is 1024"},
		{"too deep parens", strings.Repeat("(", MaxDepth+1) + "true" + strings.Repeat(")", MaxDepth+1), MaxDepth + 1, "deeper than 64"},
		{"too deep nots", strings.Repeat("!", MaxDepth+1) + "true", MaxDepth + 1, "deeper than 64"},
		{"too deep mixed", strings.Repeat("!(", MaxDepth/2+1) + "true" + strings.Repeat(")", MaxDepth/2+1), MaxDepth + 1, "deeper than 64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.src)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want an error", tt.src, dump(e.root))
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T %v, want *SyntaxError", tt.src, err, err)
			}
			if se.Pos != tt.pos || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("Parse(%q) = %v\nwant column %d and a message containing %q", tt.src, err, tt.pos, tt.msg)
			}
			if want := "condition: at column " + strconv.Itoa(se.Pos) + ": " + se.Msg; err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
}

func TestSyntaxErrorFormat(t *testing.T) {
	_, err := Parse("(visitor.claims.a")
	if got, want := err.Error(), `condition: at column 18: expected ")" to close the "(" at column 1, found end of condition`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestLimits(t *testing.T) {
	prefix := `visitor.claims.a === "`
	fill := MaxLength - utf8.RuneCountInString(prefix) - 1
	// The limit counts characters: 1024 two-byte characters are within it.
	atLimit := prefix + strings.Repeat("é", fill) + `"`
	if n := utf8.RuneCountInString(atLimit); n != MaxLength {
		t.Fatalf("test condition has %d characters", n)
	}
	e, err := Parse(atLimit)
	if err != nil {
		t.Fatalf("condition of exactly %d characters: %v", MaxLength, err)
	}
	if !e.Eval(map[string]any{"a": strings.Repeat("é", fill)}) {
		t.Errorf("condition at the length limit does not match its value")
	}
	if _, err := Parse(prefix + strings.Repeat("é", fill+1) + `"`); err == nil {
		t.Errorf("condition of %d characters parsed", MaxLength+1)
	}

	deep := strings.Repeat("(", MaxDepth) + "visitor.claims.a" + strings.Repeat(")", MaxDepth)
	if e, err := Parse(deep); err != nil {
		t.Errorf("%d nested parentheses: %v", MaxDepth, err)
	} else if !e.Eval(map[string]any{"a": 1.0}) {
		t.Errorf("%d nested parentheses: wrong result", MaxDepth)
	}
	nots := strings.Repeat("!", MaxDepth) + "visitor.claims.a"
	if e, err := Parse(nots); err != nil {
		t.Errorf("%d nested !: %v", MaxDepth, err)
	} else if !e.Eval(map[string]any{"a": 1.0}) { // an even number of ! is truthiness
		t.Errorf("%d nested !: wrong result", MaxDepth)
	}
	// Depth is nesting, not count: many sibling groups are fine.
	siblings := strings.TrimSuffix(strings.Repeat("(!true) || ", 80), " || ")
	if _, err := Parse(siblings); err != nil {
		t.Errorf("80 sibling groups: %v", err)
	}
}

// TestTree checks the shape of the syntax tree, fully parenthesised by dump.
func TestTree(t *testing.T) {
	tests := []struct{ src, want string }{
		{`visitor.claims.a || visitor.claims.b && visitor.claims.c`,
			`(visitor.claims.a || (visitor.claims.b && visitor.claims.c))`},
		{`visitor.claims.a && visitor.claims.b || visitor.claims.c`,
			`((visitor.claims.a && visitor.claims.b) || visitor.claims.c)`},
		{`visitor.claims.a || visitor.claims.b || visitor.claims.c`,
			`((visitor.claims.a || visitor.claims.b) || visitor.claims.c)`},
		{`!visitor.claims.a === true && 1 !== 2`,
			`((!visitor.claims.a === true) && (1 !== 2))`},
		{`visitor.claims.a === 1 === true`, `((visitor.claims.a === 1) === true)`},
		{`!(visitor.claims.a || !visitor.claims.b)`, `!(visitor.claims.a || !visitor.claims.b)`},
		{`visitor.claims['x-y'][0].z`, `visitor.claims["x-y"]["0"].z`},
		{`visitor.claims`, `visitor.claims`},
		{`'it\'s' === "a\\b\"c"`, `("it's" === "a\\b\"c")`},
		{`-1.50 === - 0`, `(-1.5 === -0)`},
		{`null !== false`, `(null !== false)`},
	}
	for _, tt := range tests {
		e, err := Parse(tt.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := dump(e.root); got != tt.want {
			t.Errorf("Parse(%q)\n got  %s\n want %s", tt.src, got, tt.want)
		}
	}
}

// dump prints a syntax tree as a condition with every binary operation in parentheses.
func dump(n node) string {
	switch n := n.(type) {
	case *litNode:
		switch n.v.kind {
		case kNull:
			return "null"
		case kBool:
			return strconv.FormatBool(n.v.b)
		case kNumber:
			if n.v.n == 0 && math.Signbit(n.v.n) {
				return "-0"
			}
			return strconv.FormatFloat(n.v.n, 'f', -1, 64)
		case kString:
			return quote(n.v.s)
		}
	case *refNode:
		s := "visitor.claims"
		for _, name := range n.path {
			s += displayAccess(name)
		}
		return s
	case *notNode:
		return "!" + dump(n.x)
	case *eqNode:
		op := " === "
		if n.negate {
			op = " !== "
		}
		return "(" + dump(n.x) + op + dump(n.y) + ")"
	case *andNode:
		return "(" + dump(n.x) + " && " + dump(n.y) + ")"
	case *orNode:
		return "(" + dump(n.x) + " || " + dump(n.y) + ")"
	}
	return "?"
}

// fuzzClaims are the claim maps every parsed condition is evaluated against in FuzzParse.
var fuzzClaims = []map[string]any{
	nil,
	{},
	{
		"a": true, "b": 0.0, "c": "", "x": map[string]any{"y": map[string]any{"z": 1.0}},
		"plan": "pro", "country": "FR", "unsigned": map[string]any{"beta": true},
		"roles": []any{"admin", map[string]any{"name": "x"}, nil}, "n": nil, "": "empty",
	},
	{
		"a": 1, "b": map[string]string{"k": "v"}, "c": []string{"x"}, "d": math.NaN(),
		"e": struct{ M map[string]any }{}, "f": func() {}, "roles": []any(nil),
		"x": map[string]any(nil), "plan": json.Number("1e400"),
	},
}

// FuzzParse checks that Parse never panics, that its errors are SyntaxErrors pointing inside
// the input (or just past it), and that a parsed condition evaluates without panicking and
// means the same after printing its tree and parsing that again.
func FuzzParse(f *testing.F) {
	seeds := []string{
		`visitor.claims.unsigned.beta === true`,
		`visitor.claims.plan === "pro" || visitor.claims.plan === 'enterprise'`,
		`!(visitor.claims.country === "FR")`,
		`visitor.claims["a"]['b'].c !== null && !visitor.claims.roles[0]`,
		`(visitor.claims.a || "x") === -1.5`,
		`visitor.claims.roles.length === 2 && visitor.claims.plan.length`,
		`'it\'s' === "a\\b\"c"`,
		`visitor.claims.x.y.z`,
		"((!visitor.claims.a))",
		"",
		"visitor.claims.a == 1",
		"visitor.claims.a = 1",
		"a b",
		"visitor.claims.x ===",
		"(visitor.claims.a",
		"visitor.claims.a)",
		`"unterminated`,
		`visitor.claims["x`,
		"visitor.claims[0",
		"visitor.claims.a & b | c; d + 1",
		"007 === 1e3",
		"-visitor.claims.a",
		"visitor.claims.f(1)",
		"\xff\xfe",
		strings.Repeat("(", 70) + "true" + strings.Repeat(")", 70),
		strings.Repeat("!", 70) + "true",
		strings.Repeat("a", 1025),
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T, want *SyntaxError", src, err)
			}
			n := utf8.RuneCountInString(src)
			if se.Pos < 1 || se.Pos > n+1 && !(n > MaxLength && se.Pos == MaxLength+1) || se.Msg == "" {
				t.Fatalf("Parse(%q) = %v: position outside the input of %d characters", src, err, n)
			}
			return
		}
		if e.String() != src {
			t.Fatalf("String() = %q, want %q", e.String(), src)
		}
		results := make([]bool, len(fuzzClaims))
		for i, claims := range fuzzClaims {
			results[i] = e.Eval(claims)
		}
		printed := dump(e.root)
		again, err := Parse(printed)
		if err != nil {
			// Printing adds parentheses and may lengthen the text, so only the limits may fail.
			var se *SyntaxError
			if errors.As(err, &se) && (strings.Contains(se.Msg, "deeper than") || strings.Contains(se.Msg, "the limit is")) {
				return
			}
			t.Fatalf("Parse(%q) succeeded but its printed tree %q does not parse: %v", src, printed, err)
		}
		if reprinted := dump(again.root); reprinted != printed {
			t.Fatalf("printed tree of %q changed on reparsing:\n %s\n %s", src, printed, reprinted)
		}
		for i, claims := range fuzzClaims {
			if got := again.Eval(claims); got != results[i] {
				t.Fatalf("%q and its printed tree %q disagree on claims #%d", src, printed, i)
			}
		}
	})
}
