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

// Error is an error the caller can act on: a code and a message safe to show on the wire.
type Error struct {
	Code    string
	Message string
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of an *Error in err's chain, or "" for any other error.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func (e *Error) Error() string { return e.Message }

// NotFound is the not-found error for a kind of thing, named in the message.
func NotFound(what string) *Error { return Errorf(ENOTFOUND, "%s not found.", what) }
