package condition

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"unicode/utf16"
)

// node is a node of the syntax tree; eval computes its JavaScript value for the given claims.
type node interface {
	eval(claims map[string]any) value
}

type (
	litNode struct{ v value }
	// refNode reads visitor.claims followed by path.
	refNode struct{ path []string }
	notNode struct{ x node }
	eqNode  struct {
		x, y   node
		negate bool // !==
	}
	andNode struct{ x, y node }
	orNode  struct{ x, y node }
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

type kind uint8

const (
	kUndefined kind = iota // a missing property
	kNull
	kBool
	kNumber
	kString
	kObject // map[string]any
	kArray  // []any
	kOther  // any other Go value found in the claims: truthy, equal to nothing
)

// value is a JavaScript value. Numbers are float64, as in JavaScript and encoding/json.
type value struct {
	kind kind
	b    bool
	n    float64
	s    string
	raw  any // kObject, kArray, kOther: the Go value
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
	case int:
		return value{kind: kNumber, n: float64(x)}
	case int8:
		return value{kind: kNumber, n: float64(x)}
	case int16:
		return value{kind: kNumber, n: float64(x)}
	case int32:
		return value{kind: kNumber, n: float64(x)}
	case int64:
		return value{kind: kNumber, n: float64(x)}
	case uint:
		return value{kind: kNumber, n: float64(x)}
	case uint8:
		return value{kind: kNumber, n: float64(x)}
	case uint16:
		return value{kind: kNumber, n: float64(x)}
	case uint32:
		return value{kind: kNumber, n: float64(x)}
	case uint64:
		return value{kind: kNumber, n: float64(x)}
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
