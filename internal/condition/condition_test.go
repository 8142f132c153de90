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

func TestEval(t *testing.T) {
	const (
		beta    = `visitor.claims.unsigned.beta === true`
		plan    = `visitor.claims.plan === "pro" || visitor.claims.plan === 'enterprise'`
		notFR   = `!(visitor.claims.country === "FR")`
		prec    = `visitor.claims.a || visitor.claims.b && visitor.claims.c`
		grouped = `(visitor.claims.a || visitor.claims.b) && visitor.claims.c`
	)
	tests := []struct {
		src    string
		claims string // JSON; "" for nil claims
		want   bool
	}{
		// the examples of the brief
		{beta, `{"unsigned":{"beta":true}}`, true},
		{beta, `{}`, false},
		{beta, ``, false},
		{beta, `{"unsigned":{"beta":"true"}}`, false}, // strict: a string is not a boolean
		{beta, `{"unsigned":{"beta":1}}`, false},
		{beta, `{"unsigned":true}`, false}, // property of a boolean
		{beta, `{"unsigned":null}`, false}, // property of null: undefined, not an error
		{beta, `{"unsigned":"beta"}`, false},
		{plan, `{"plan":"pro"}`, true},
		{plan, `{"plan":"enterprise"}`, true},
		{plan, `{"plan":"free"}`, false},
		{plan, `{"plan":"Pro"}`, false},
		{plan, `{}`, false},
		{notFR, `{"country":"FR"}`, false},
		{notFR, `{"country":"DE"}`, true},
		{notFR, `{}`, true},

		// strings
		{`visitor.claims.name === ""`, `{"name":""}`, true},
		{`visitor.claims.q === 'it\'s'`, `{"q":"it's"}`, true},
		{`visitor.claims.q === "say \"hi\""`, `{"q":"say \"hi\""}`, true},
		{`visitor.claims.p === "C:\\dir"`, `{"p":"C:\\dir"}`, true},
		{`visitor.claims.p === 'a"b'`, `{"p":"a\"b"}`, true},
		{`visitor.claims.p !== "x"`, `{"p":"x"}`, false},
		{`visitor.claims.p !== "x"`, `{"p":"y"}`, true},
		{`visitor.claims.país === "España"`, `{"país":"España"}`, true},
		{`"a" === "a"`, ``, true},

		// numbers
		{`visitor.claims.age === 42`, `{"age":42}`, true},
		{`visitor.claims.age === 42`, `{"age":42.0}`, true},
		{`visitor.claims.age === 42.0`, `{"age":42}`, true},
		{`visitor.claims.age === 42`, `{"age":"42"}`, false},
		{`visitor.claims.age !== 42`, `{"age":"42"}`, true},
		{`visitor.claims.score === 1.5`, `{"score":1.5}`, true},
		{`visitor.claims.delta === -3`, `{"delta":-3}`, true},
		{`visitor.claims.delta === - 3`, `{"delta":-3}`, true},
		{`visitor.claims.delta === 3`, `{"delta":-3}`, false},
		{`visitor.claims.z === 0`, `{"z":-0}`, true}, // 0 === -0
		{`visitor.claims.big === 12345678901234567890`, `{"big":12345678901234567890}`, true},
		{`0.1 === 0.10`, ``, true},

		// ordering: numbers, strings by code units, JavaScript's conversions, NaN never ordered
		{`visitor.claims.seats > 0`, `{"seats":3}`, true},
		{`visitor.claims.seats > 0`, `{"seats":0}`, false},
		{`visitor.claims.seats > 0`, `{}`, false}, // undefined is NaN
		{`visitor.claims.seats >= 10`, `{"seats":10}`, true},
		{`visitor.claims.seats < 10`, `{"seats":9.5}`, true},
		{`visitor.claims.seats <= -1`, `{"seats":-1}`, true},
		{`visitor.claims.seats > 5`, `{"seats":"6"}`, true},    // "6" is 6
		{`visitor.claims.seats > 5`, `{"seats":"six"}`, false}, // NaN
		{`visitor.claims.seats < 1`, `{"seats":null}`, true},   // null is 0
		{`visitor.claims.seats < 1`, `{"seats":""}`, true},     // "" is 0
		{`visitor.claims.seats > 1`, `{"seats":" 0x10 "}`, true},
		{`visitor.claims.flag > 0`, `{"flag":true}`, true},
		{`visitor.claims.v < "b"`, `{"v":"a"}`, true},
		{`visitor.claims.v < "B"`, `{"v":"a"}`, false},  // code units: "a" (97) > "B" (66)
		{`visitor.claims.v < "10"`, `{"v":"9"}`, false}, // two strings: not numbers
		{`visitor.claims.v < 10`, `{"v":"9"}`, true},    // one number: both numbers
		{`visitor.claims.v > "￿"`, `{"v":"😀"}`, false},
		{`visitor.claims.list > 2`, `{"list":[3]}`, true},                       // [3] is "3"
		{`visitor.claims.a < visitor.claims.b === true`, `{"a":1,"b":2}`, true}, // < binds tighter than ===
		{`1 < 2 < 3`, ``, true},
		{`3 > 2 > 1`, ``, false}, // (3 > 2) > 1 is true > 1, 1 > 1

		// includes: arrays by SameValueZero, strings by substring, anything else undefined
		{`visitor.claims.roles.includes("admin")`, `{"roles":["editor","admin"]}`, true},
		{`visitor.claims.roles.includes("admin")`, `{"roles":["editor"]}`, false},
		{`visitor.claims.roles.includes("admin")`, `{"roles":[]}`, false},
		{`visitor.claims.roles.includes("admin")`, `{}`, false},
		{`visitor.claims.roles.includes("admin")`, `{"roles":{"admin":true}}`, false},
		{`!visitor.claims.roles.includes("admin")`, `{"roles":["x"]}`, true},
		{`visitor.claims.roles.includes("admin") === undefined`, `{}`, true},
		{`visitor.claims.ids.includes(3)`, `{"ids":[1,3]}`, true},
		{`visitor.claims.ids.includes(3)`, `{"ids":["3"]}`, false},
		{`visitor.claims.flags.includes(true)`, `{"flags":[false,true]}`, true},
		{`visitor.claims.n.includes(null)`, `{"n":[null]}`, true},
		{`visitor.claims.email.includes("@acme.")`, `{"email":"jo@acme.com"}`, true},
		{`visitor.claims.email.includes("@acme.")`, `{"email":"jo@other.com"}`, false},
		{`visitor.claims.v.includes(1)`, `{"v":"a1"}`, true},
		{`visitor.claims.v.includes(0.0000001)`, `{"v":"x1e-7"}`, true}, // numbers as JavaScript writes them
		{`visitor.claims.v.includes(1000000000000000000000)`, `{"v":"1e+21"}`, true},
		{`visitor.claims.v.includes(1.5)`, `{"v":"1.5"}`, true},
		{`visitor.claims.v.includes(visitor.claims.w)`, `{"v":"xy","w":"y"}`, true},
		{`visitor.claims.company.tags.includes("b") && visitor.claims.company.size >= 10`, `{"company":{"tags":["a","b"],"size":12}}`, true},
		{`visitor.claims.company.tags.includes("b") && visitor.claims.company.size >= 10`, `{"company":{"tags":["a","b"],"size":9}}`, false},

		// undefined
		{`visitor.claims.name !== undefined`, `{"name":""}`, true},
		{`visitor.claims.name !== undefined`, `{}`, false},
		{`visitor.claims.name === undefined`, `{"name":null}`, false},

		// booleans
		{`visitor.claims.admin === false`, `{"admin":false}`, true},
		{`visitor.claims.admin === false`, `{}`, false}, // undefined !== false
		{`visitor.claims.admin !== false`, `{}`, true},
		{`visitor.claims.admin === true`, `{"admin":"yes"}`, false},
		{`true === true`, ``, true},
		{`true !== false`, ``, true},

		// null and undefined
		{`visitor.claims.x === null`, `{"x":null}`, true},
		{`visitor.claims.x === null`, `{}`, false}, // undefined !== null
		{`visitor.claims.x !== null`, `{}`, true},
		{`visitor.claims.x === null`, `{"x":false}`, false},
		{`null === null`, ``, true},
		{`visitor.claims.a === visitor.claims.b`, `{}`, true}, // undefined === undefined
		{`visitor.claims.a === visitor.claims.b`, `{"a":null}`, false},
		{`visitor.claims.a === visitor.claims.b`, `{"a":1,"b":1}`, true},
		{`visitor.claims.a === visitor.claims.b`, `{"a":1,"b":"1"}`, false},
		{`visitor.claims.a.b === visitor.claims.c.d.e`, ``, true},

		// nested objects, bracket access, arrays
		{`visitor.claims.org.team.name === "core"`, `{"org":{"team":{"name":"core"}}}`, true},
		{`visitor.claims.org.team.name === "core"`, `{"org":{"team":{}}}`, false},
		{`visitor.claims.org.team.name === "core"`, `{"org":{"team":["core"]}}`, false},
		{`visitor.claims["plan"] === "pro"`, `{"plan":"pro"}`, true},
		{`visitor.claims['x-tenant'] === "acme"`, `{"x-tenant":"acme"}`, true},
		{`visitor.claims["a"]['b'].c === 1`, `{"a":{"b":{"c":1}}}`, true},
		{`visitor.claims["with space"]["and.dot"] === true`, `{"with space":{"and.dot":true}}`, true},
		{`visitor.claims[""] === 1`, `{"":1}`, true},
		{`visitor["claims"].plan === "pro"`, `{"plan":"pro"}`, true},
		{`visitor.claims.roles[0] === "admin"`, `{"roles":["admin","editor"]}`, true},
		{`visitor.claims.roles["1"] === "editor"`, `{"roles":["admin","editor"]}`, true},
		{`visitor.claims.roles[2] === null`, `{"roles":["admin","editor"]}`, false}, // out of range: undefined
		{`visitor.claims.roles[1].name === "x"`, `{"roles":[{},{"name":"x"}]}`, true},
		{`visitor.claims.roles.length === 2`, `{"roles":["admin","editor"]}`, true},
		{`visitor.claims.roles.length === 0`, `{"roles":[]}`, true},
		{`visitor.claims.name.length === 3`, `{"name":"Ada"}`, true},
		{`visitor.claims.name.length === 2`, `{"name":"😀"}`, true}, // UTF-16 code units, as in JavaScript
		{`visitor.claims.o.length === 1`, `{"o":{"length":1}}`, true},
		{`visitor.claims.o.length`, `{"o":{}}`, false},
		{`visitor.claims.m[0] === 1`, `{"m":{"0":1}}`, true}, // keys are strings
		{`visitor.claims.name[0] === "A"`, `{"name":"Ada"}`, false},
		{`visitor.claims.true === 1`, `{"true":1}`, true}, // keywords are property names after a dot
		{`visitor.claims.null.$x_1 === 2`, `{"null":{"$x_1":2}}`, true},

		// objects and arrays compare by identity
		{`visitor.claims.o === visitor.claims.o`, `{"o":{"a":1}}`, true},
		{`visitor.claims.o === visitor.claims.p`, `{"o":{"a":1},"p":{"a":1}}`, false},
		{`visitor.claims.r === visitor.claims.r`, `{"r":[1]}`, true},
		{`visitor.claims.r === visitor.claims.s`, `{"r":[1],"s":[1]}`, false},
		{`visitor.claims === visitor.claims`, `{}`, true},

		// !
		{`!visitor.claims.beta`, `{}`, true},
		{`!visitor.claims.beta`, `{"beta":true}`, false},
		{`!!visitor.claims.beta`, `{"beta":"yes"}`, true},
		{`!visitor.claims.a === false`, `{}`, false}, // (!a) === false, not !(a === false)
		{`!(visitor.claims.a === false)`, `{}`, true},
		{`! true`, ``, false},

		// precedence: || binds loosest, then &&, then === and !==, then !
		{prec, `{"a":true}`, true}, // a || (b && c); (a || b) && c would be false
		{prec, `{"b":true}`, false},
		{prec, `{"b":true,"c":true}`, true},
		{grouped, `{"a":true}`, false},
		{grouped, `{"a":true,"c":1}`, true},
		{`visitor.claims.a === 1 && visitor.claims.b === 2 || visitor.claims.c === 3`, `{"c":3}`, true},
		{`visitor.claims.a === 1 && (visitor.claims.b === 2 || visitor.claims.c === 3)`, `{"c":3}`, false},
		{`visitor.claims.a === 1 === true`, `{"a":1}`, true}, // left-associative
		{`true === visitor.claims.a === 1`, `{"a":1}`, false},
		{`((((visitor.claims.a))))`, `{"a":1}`, true},

		// short-circuit: nothing after a decided operand is read, and reading would not fail
		{`false && visitor.claims.x.y.z`, ``, false},
		{`true || visitor.claims.x.y.z`, ``, true},
		{`visitor.claims.x && visitor.claims.x.y.z === 1`, `{"x":5}`, false},
		{`visitor.claims.x.y.z`, `{"x":5}`, false},
		// && and || yield the deciding operand, as in JavaScript
		{`(visitor.claims.plan || "free") === "free"`, `{}`, true},
		{`(visitor.claims.plan || "free") === "free"`, `{"plan":"pro"}`, false},
		{`(visitor.claims.a && visitor.claims.a.b) === visitor.claims.missing`, `{}`, true}, // undefined
		{`(0 && true) === 0`, ``, true},
		{`("" || 0) === 0`, ``, true},
		{`(visitor.claims.a && visitor.claims.b) === visitor.claims.a`, `{"a":0,"b":1}`, true},

		// truthiness
		{`visitor.claims.x`, `{"x":0}`, false},
		{`visitor.claims.x`, `{"x":1}`, true},
		{`visitor.claims.x`, `{"x":-1.5}`, true},
		{`visitor.claims.x`, `{"x":""}`, false},
		{`visitor.claims.x`, `{"x":"0"}`, true},
		{`visitor.claims.x`, `{"x":"false"}`, true},
		{`visitor.claims.x`, `{"x":null}`, false},
		{`visitor.claims.x`, `{"x":[]}`, true},
		{`visitor.claims.x`, `{"x":{}}`, true},
		{`visitor.claims.x`, `{"x":false}`, false},
		{`visitor.claims.x`, `{}`, false},
		{`visitor.claims`, ``, true}, // an empty object is truthy
		{`0`, ``, false},
		{`-0`, ``, false},
		{`0.5`, ``, true},
		{`""`, ``, false},
		{`''`, ``, false},
		{`"a"`, ``, true},
		{`null`, ``, false},
		{`true`, ``, true},
		{`false`, ``, false},

		// whitespace anywhere between tokens
		{"  visitor . claims [ \"a\" ] . b\n===\t1  ", `{"a":{"b":1}}`, true},
		{"visitor.claims.a===1&&!visitor.claims.b", `{"a":1}`, true},
		{"\ufeffvisitor.claims.a\u00a0===\r\n1", `{"a":1}`, true},
	}
	for _, tt := range tests {
		e, err := Parse(tt.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		var claims map[string]any
		if tt.claims != "" {
			if err := json.Unmarshal([]byte(tt.claims), &claims); err != nil {
				t.Fatalf("claims %s: %v", tt.claims, err)
			}
		}
		if got := e.Eval(claims); got != tt.want {
			t.Errorf("%s with claims %s = %v, want %v", tt.src, tt.claims, got, tt.want)
		}
		if e.String() != tt.src {
			t.Errorf("String() = %q, want %q", e.String(), tt.src)
		}
	}
}

// TestEvalGoValues covers claims built in Go rather than decoded from JSON: other numeric types
// count as numbers, and values of unknown types neither panic nor equal anything.
func TestEvalGoValues(t *testing.T) {
	type opaque struct{ M map[string]any } // == on two of these would panic at run time
	claims := map[string]any{
		"int":     42,
		"int8":    int8(-8),
		"int16":   int16(16),
		"int32":   int32(32),
		"int64":   int64(-7),
		"uint":    uint(1),
		"uint16":  uint16(16),
		"uint32":  uint32(32),
		"uint64":  uint64(1 << 53),
		"uint8":   uint8(3),
		"float32": float32(1.5),
		"number":  json.Number("2.5"),
		"badnum":  json.Number("x"),
		"nan":     math.NaN(),
		"strmap":  map[string]string{"a": "b"},
		"strs":    []string{"a"},
		"opaque":  opaque{M: map[string]any{}},
		"nilmap":  map[string]any(nil),
		"nilarr":  []any(nil),
		"fn":      func() {},
	}
	tests := []struct {
		src  string
		want bool
	}{
		{`visitor.claims.int === 42`, true},
		{`visitor.claims.int64 === -7`, true},
		{`visitor.claims.int8 === -8 && visitor.claims.int16 === 16 && visitor.claims.int32 === 32`, true},
		{`visitor.claims.uint === 1 && visitor.claims.uint16 === 16 && visitor.claims.uint32 === 32`, true},
		{`visitor.claims.uint64 === 9007199254740992`, true},
		{`visitor.claims.uint8 === 3`, true},
		{`visitor.claims.float32 === 1.5`, true},
		{`visitor.claims.number === 2.5`, true},
		{`visitor.claims.badnum === "x"`, false},
		{`visitor.claims.badnum`, true},
		{`visitor.claims.nan`, false}, // NaN is falsy
		{`visitor.claims.nan === visitor.claims.nan`, false},
		{`visitor.claims.nan !== visitor.claims.nan`, true},
		{`visitor.claims.strmap.a === "b"`, false}, // only map[string]any is an object
		{`visitor.claims.strmap`, true},
		{`visitor.claims.strs[0] === "a"`, false},
		{`visitor.claims.opaque === visitor.claims.opaque`, false},
		{`visitor.claims.opaque.M`, false},
		{`visitor.claims.fn === visitor.claims.fn`, false},
		{`visitor.claims.nilmap.a === visitor.claims.nope`, true},
		{`visitor.claims.nilmap`, true},
		{`visitor.claims.nilarr.length === 0`, true},
		{`visitor.claims.nilarr[0]`, false},
	}
	for _, tt := range tests {
		e, err := Parse(tt.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		if got := e.Eval(claims); got != tt.want {
			t.Errorf("%s = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestNilExpr(t *testing.T) {
	var e *Expr
	if e.Eval(map[string]any{"a": true}) {
		t.Errorf("nil Expr evaluated true")
	}
	if e.String() != "" {
		t.Errorf("nil Expr String() = %q", e.String())
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
