package condition

import (
	"encoding/json"
	"math"
	"testing"
)

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
