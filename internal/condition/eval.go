package condition

import (
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

func (n *litNode) eval(map[string]any) value { return n.v }

func (n *refNode) eval(claims map[string]any) value {
	v := value{kind: kObject, raw: claims}
	for _, name := range n.path {
		v = v.get(name)
		if v.kind == kUndefined {
			break
		}
	}
	return v
}

func (n *notNode) eval(claims map[string]any) value {
	return value{kind: kBool, b: !n.x.eval(claims).truthy()}
}

func (n *eqNode) eval(claims map[string]any) value {
	return value{kind: kBool, b: strictEqual(n.x.eval(claims), n.y.eval(claims)) != n.negate}
}

// && and || short-circuit and, as in JavaScript, yield the operand that decided the result,
// so (visitor.claims.plan || "free") === "free" means what it does in JavaScript.
func (n *andNode) eval(claims map[string]any) value {
	if x := n.x.eval(claims); !x.truthy() {
		return x
	}
	return n.y.eval(claims)
}

func (n *orNode) eval(claims map[string]any) value {
	if x := n.x.eval(claims); x.truthy() {
		return x
	}
	return n.y.eval(claims)
}

// fromGo converts a claim value. Besides the JSON types it accepts Go's other numeric types
// and json.Number (from a decoder with UseNumber), so callers building claims by hand get the
// numbers they expect.
func fromGo(x any) value {
	switch x := x.(type) {
	case nil:
		return value{kind: kNull}
	case bool:
		return value{kind: kBool, b: x}
	case string:
		return value{kind: kString, s: x}
	case float64:
		return value{kind: kNumber, n: x}
	case map[string]any:
		return value{kind: kObject, raw: x}
	case []any:
		return value{kind: kArray, raw: x}
	case float32:
		return value{kind: kNumber, n: float64(x)}
	case int, int8, int16, int32, int64:
		return value{kind: kNumber, n: float64(reflect.ValueOf(x).Int())}
	case uint, uint8, uint16, uint32, uint64:
		return value{kind: kNumber, n: float64(reflect.ValueOf(x).Uint())}
	case json.Number:
		if n, err := strconv.ParseFloat(string(x), 64); err == nil {
			return value{kind: kNumber, n: n}
		}
	}
	return value{kind: kOther, raw: x}
}

// get reads property name of v. Objects are looked up by key, arrays by canonical integer
// index, and arrays and strings have a length (in UTF-16 code units for strings, as in
// JavaScript). Anything else, and any missing property, gives undefined rather than an error,
// so a condition about claims a visitor lacks is simply false.
func (v value) get(name string) value {
	switch v.kind {
	case kObject:
		if x, ok := v.raw.(map[string]any)[name]; ok {
			return fromGo(x)
		}
	case kArray:
		a := v.raw.([]any)
		if name == "length" {
			return value{kind: kNumber, n: float64(len(a))}
		}
		if isIndex(name) {
			if i, err := strconv.Atoi(name); err == nil && i < len(a) {
				return fromGo(a[i])
			}
		}
	case kString:
		if name == "length" {
			n := 0
			for _, r := range v.s {
				n += utf16.RuneLen(r)
			}
			return value{kind: kNumber, n: float64(n)}
		}
	}
	return value{kind: kUndefined}
}

// truthy applies JavaScript's rules: false, 0, NaN, "", null and undefined are falsy.
func (v value) truthy() bool {
	switch v.kind {
	case kUndefined, kNull:
		return false
	case kBool:
		return v.b
	case kNumber:
		return v.n != 0 && !math.IsNaN(v.n)
	case kString:
		return v.s != ""
	}
	return true
}

// strictEqual is JavaScript's ===: values of different types are never equal; undefined equals
// only undefined and null only null; objects and arrays are equal only to themselves (compared
// by identity: the same map, or the same slice storage and length, so two empty arrays may
// compare equal). Go values of unknown types are never equal to anything: comparing them with
// == could panic.
func strictEqual(x, y value) bool {
	if x.kind != y.kind {
		return false
	}
	switch x.kind {
	case kUndefined, kNull:
		return true
	case kBool:
		return x.b == y.b
	case kNumber:
		return x.n == y.n // NaN !== NaN and 0 === -0, as in JavaScript
	case kString:
		return x.s == y.s
	case kObject, kArray:
		a, b := reflect.ValueOf(x.raw), reflect.ValueOf(y.raw)
		return a.UnsafePointer() == b.UnsafePointer() && a.Len() == b.Len()
	}
	return false
}

// eval compares as JavaScript does: two strings by UTF-16 code units, anything else as numbers,
// and a comparison involving NaN is false.
func (n *relNode) eval(claims map[string]any) value {
	x, y := n.x.eval(claims).toPrimitive(), n.y.eval(claims).toPrimitive()
	var c int
	if x.kind == kString && y.kind == kString {
		c = compareUTF16(x.s, y.s)
	} else {
		a, b := x.toNumber(), y.toNumber()
		if math.IsNaN(a) || math.IsNaN(b) {
			return value{kind: kBool, b: false}
		}
		switch {
		case a < b:
			c = -1
		case a > b:
			c = 1
		}
	}
	var r bool
	switch n.op {
	case tLess:
		r = c < 0
	case tLessEq:
		r = c <= 0
	case tGreater:
		r = c > 0
	case tGreaterEq:
		r = c >= 0
	}
	return value{kind: kBool, b: r}
}

// eval is Array.prototype.includes (SameValueZero: NaN includes NaN) on arrays and
// String.prototype.includes on strings. On anything else it is undefined, as
// of?.includes(arg) would be, rather than JavaScript's TypeError.
func (n *includesNode) eval(claims map[string]any) value {
	of := n.of.eval(claims)
	arg := n.arg.eval(claims)
	switch of.kind {
	case kArray:
		for _, e := range of.raw.([]any) {
			v := fromGo(e)
			if strictEqual(v, arg) || v.kind == kNumber && arg.kind == kNumber && math.IsNaN(v.n) && math.IsNaN(arg.n) {
				return value{kind: kBool, b: true}
			}
		}
		return value{kind: kBool, b: false}
	case kString:
		return value{kind: kBool, b: strings.Contains(of.s, arg.toPrimitive().toString())}
	}
	return value{kind: kUndefined}
}

// toPrimitive turns an array into its join(",") and an object into "[object Object]", as
// JavaScript's ToPrimitive does for them; other values are primitive already.
func (v value) toPrimitive() value {
	switch v.kind {
	case kArray:
		a := v.raw.([]any)
		parts := make([]string, len(a))
		for i, e := range a {
			if ev := fromGo(e); ev.kind != kUndefined && ev.kind != kNull {
				parts[i] = ev.toPrimitive().toString()
			}
		}
		return value{kind: kString, s: strings.Join(parts, ",")}
	case kObject, kOther:
		return value{kind: kString, s: "[object Object]"}
	}
	return v
}

// toString is JavaScript's ToString of a primitive.
func (v value) toString() string {
	switch v.kind {
	case kUndefined:
		return "undefined"
	case kNull:
		return "null"
	case kBool:
		return strconv.FormatBool(v.b)
	case kNumber:
		return numberToString(v.n)
	case kString:
		return v.s
	}
	return v.toPrimitive().toString()
}

// numberToString formats a number as JavaScript's Number.prototype.toString does.
func numberToString(n float64) string {
	switch {
	case math.IsNaN(n):
		return "NaN"
	case math.IsInf(n, 1):
		return "Infinity"
	case math.IsInf(n, -1):
		return "-Infinity"
	case n == 0:
		return "0"
	}
	if a := math.Abs(n); a >= 1e21 || a < 1e-6 {
		s := strconv.FormatFloat(n, 'e', -1, 64) // 1e+21, 1.5e-07
		mant, exp, _ := strings.Cut(s, "e")
		sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
		return mant + "e" + sign + digits
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

// toNumber is JavaScript's ToNumber of a primitive.
func (v value) toNumber() float64 {
	switch v.kind {
	case kNull:
		return 0
	case kBool:
		if v.b {
			return 1
		}
		return 0
	case kNumber:
		return v.n
	case kString:
		return stringToNumber(v.s)
	}
	return math.NaN()
}

// stringToNumber reads a string as JavaScript's Number(s) does: surrounding whitespace
// ignored, "" is 0, decimal literals with an optional sign and exponent, Infinity, and
// unsigned 0x/0o/0b integers; anything else is NaN.
func stringToNumber(s string) float64 {
	s = strings.TrimFunc(s, isSpace)
	if s == "" {
		return 0
	}
	switch s {
	case "Infinity", "+Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			n := 0.0
			for _, r := range s[2:] {
				d, err := strconv.ParseUint(string(r), base, 8)
				if err != nil {
					return math.NaN()
				}
				n = n*float64(base) + float64(d)
			}
			return n
		}
	}
	if !decimalLiteral.MatchString(s) {
		return math.NaN()
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return math.NaN()
	}
	return n
}

var decimalLiteral = regexp.MustCompile(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// compareUTF16 orders strings by UTF-16 code units, as JavaScript's < does.
func compareUTF16(a, b string) int {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			if ua[i] < ub[i] {
				return -1
			}
			return 1
		}
	}
	return len(ua) - len(ub)
}
