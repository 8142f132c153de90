// Package condition parses and evaluates the conditions of adaptive content: the expressions
// that site sections and site spaces carry to decide, from a visitor's claims, whether that
// visitor sees them.
//
// GitBook writes conditions as JavaScript expressions; this package implements the small,
// side-effect-free subset that conditions need, with JavaScript's semantics for it:
//
//	condition  = or EOF
//	or         = and { "||" and }
//	and        = equality { "&&" equality }
//	equality   = relational { ( "===" | "!==" ) relational }
//	relational = unary { ( "<" | "<=" | ">" | ">=" ) unary }
//	unary      = "!" unary | primary
//	primary    = literal | reference | "(" or ")"
//	literal    = string | [ "-" ] number | "true" | "false" | "null" | "undefined"
//	reference  = "visitor" accessor { accessor } [ ".includes" "(" or ")" ]
//	             (the first accessor must name "claims")
//	accessor   = "." name | "[" ( string | integer ) "]"
//
// Strings are single- or double-quoted; inside them a backslash escapes only a quote or a
// backslash. Numbers are decimal (digits, optionally a fraction), without exponents or leading
// zeros. A name is a JavaScript-style identifier (letters, digits, "_" and "$"; keywords are
// allowed after a dot). Whitespace may appear between any two tokens.
//
// Evaluation follows JavaScript. A missing property is undefined, and so is any property of
// undefined or of something that is neither an object nor an array (except the length of a
// string): a condition about claims a visitor lacks is false, never an error. Arrays are indexed
// with [0] or ["0"] and have a length. === and !== compare type and value (undefined equals
// only undefined, null only null). <, <=, > and >= compare two strings by UTF-16 code units and
// anything else as numbers (JavaScript's ToNumber: null is 0, booleans 0 and 1, strings parsed,
// undefined NaN; an array compares as its join(",")), and any comparison with NaN is false.
// x.includes(v) is Array.prototype.includes on an array (SameValueZero) and
// String.prototype.includes on a string; on anything else it is undefined, as x?.includes(v)
// would be, never an error. && and || short-circuit and yield the operand that decided them.
// "!" and the final result use JavaScript truthiness: false, 0, NaN, "", null and undefined are
// falsy. Everything else JavaScript has (loose equality, arithmetic, other calls, other names
// than visitor.claims) is rejected when parsing.
//
// A condition is at most [MaxLength] characters long (the API's limit) and nests parentheses
// and "!" at most [MaxDepth] deep, so neither parsing nor evaluation can be made expensive.
package condition

// Expr is a parsed condition. It is immutable and safe for concurrent use.
type Expr struct {
	src  string
	root node
}

// Parse compiles a condition. The error, always a *SyntaxError, says what is wrong and at
// which position (1-based column).
func Parse(src string) (*Expr, error) {
	toks, err := scan(src)
	if err != nil {
		return nil, err
	}
	root, err := parse(toks)
	if err != nil {
		return nil, err
	}
	return &Expr{src: src, root: root}, nil
}

// Eval reports whether the condition holds for the visitor's claims, as decoded from JSON
// (map[string]any, []any, string, float64, bool, nil; other Go numeric types are accepted as
// numbers). A nil map means no claims: visitor.claims is then an empty object and every
// property read from it is undefined. Eval never panics; reading a property of something that
// is not an object or array yields undefined, as optional chaining would in JavaScript.
func (e *Expr) Eval(claims map[string]any) bool {
	if e == nil || e.root == nil {
		return false
	}
	return e.root.eval(claims).truthy()
}

// String returns the source the condition was parsed from.
func (e *Expr) String() string {
	if e == nil {
		return ""
	}
	return e.src
}

// Quote writes s as a double-quoted string literal of the condition language, for conditions
// built from values (a quote or backslash is escaped; a line break cannot be written).
func Quote(s string) string { return quote(s) }
