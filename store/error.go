package store

import (
	"errors"
	"fmt"
)

// Error codes, each mapped to one HTTP status by the server.
const (
	ENOTFOUND  = "not_found"
	ECONFLICT  = "conflict"
	EINVALID   = "invalid"
	EFORBIDDEN = "forbidden"
)

// Error is an error the caller can act on: a code, the input field at fault and the reason. The
// store says what is wrong with the thing; the server words it for the API (naming the field as
// a body field or a query parameter).
type Error struct {
	Code string
	// Field is the input at fault by its name in the API ("path", "position.before",
	// "changes[2].page"), "" when the error is about no one field.
	Field string
	// Reason says what is wrong: a sentence when Field is "", else a clause about the field.
	Reason string
}

// Errorf returns an *Error with the code and a formatted reason, about no one field.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// FieldErrorf returns an EINVALID *Error about a field, with a formatted reason.
func FieldErrorf(field, format string, args ...any) *Error {
	return ErrorAt(EINVALID, field, format, args...)
}

// ErrorAt returns an *Error with the code about a field, with a formatted reason.
func ErrorAt(code, field, format string, args ...any) *Error {
	return &Error{Code: code, Field: field, Reason: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of an *Error in err's chain, or "" for any other error.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func (e *Error) Error() string {
	if e.Field == "" {
		return e.Reason
	}
	return e.Field + ": " + e.Reason
}

// NotFound is the not-found error for a kind of thing, named in the reason.
func NotFound(what string) *Error { return Errorf(ENOTFOUND, "%s not found.", what) }
