package condition

import "fmt"

// MaxLength is the longest condition accepted, in characters (Unicode code points), matching
// the API's limit on the condition field.
const MaxLength = 1024

// MaxDepth bounds how deeply parentheses and "!" operators nest. It keeps the recursive-descent
// parser's recursion bounded independently of the length limit.
const MaxDepth = 64

// SyntaxError reports why a condition does not parse and where.
type SyntaxError struct {
	Pos int    // 1-based column, in characters; one past the end for errors at the end of input
	Msg string // what is wrong, phrased for the author of the condition
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("condition: at column %d: %s", e.Pos, e.Msg)
}
