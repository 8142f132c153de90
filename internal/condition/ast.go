package condition

import "strconv"

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

type (
	// relNode is <, <=, > or >=.
	relNode struct {
		x, y node
		op   tokenKind
	}
	// includesNode is of.includes(arg).
	includesNode struct{ of, arg node }
)

// isIndex reports whether s is the canonical decimal form of a non-negative integer (no sign,
// no fraction, no leading zeros), the only numbers that name an array element.
func isIndex(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && strconv.Itoa(n) == s
}
