package sqlstore

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
)

// Unavailable reports an error that says the database could not be reached (a lost or refused
// connection, a server shutting down) rather than anything about the request: the server answers
// it 503, and the connection pool opens new connections for the next requests. Every multi-row
// write runs in one transaction, so nothing half-written stays behind. The store tells, since it
// knows its drivers' errors: the server imports no database/sql.
func (s *Store) Unavailable(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	// PostgreSQL's SQLSTATE (pgx's errors answer it): class 08 is a connection exception; 57P01..03
	// an administrator's shutdown, a crash shutdown, a server not accepting connections yet.
	var se interface{ SQLState() string }
	if errors.As(err, &se) {
		code := se.SQLState()
		return len(code) == 5 && (code[:2] == "08" || code == "57P01" || code == "57P02" || code == "57P03")
	}
	return false
}
