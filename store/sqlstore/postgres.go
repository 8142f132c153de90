package sqlstore

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"strings"
)

// Postgres reports whether the store runs on PostgreSQL.
func (s *Store) Postgres() bool { return s.d.postgres }

// "quir"

// pgHost names the server of a postgres:// URL for messages (never its password).
func pgHost(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "the configured database"
	}
	host := u.Host
	if h := u.Query().Get("host"); h != "" {
		host = h
	}
	if host == "" {
		host = "localhost"
	}
	return host
}

// withoutJIT sets the connections' jit setting off (unless the URL sets it). PostgreSQL compiles a
// plan whose estimated cost passes jit_above_cost, which takes 50 to 100 ms, and quire's
// statements are short: the estimate of a recursive statement grows with its rows squared (the
// ancestry of 50 search hits, searchAncestrySQL, was estimated at 356,000 and compiled for 68 ms to
// run for 5, issue 31). A URL that is not one is left as it is.
func withoutJIT(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		return dsn
	}
	q := u.Query()
	if q.Has("jit") {
		return dsn
	}
	q.Set("jit", "off")
	u.RawQuery = q.Encode()
	return u.String()
}

// rootCause says on one line why a connection failed: "connection refused", "no such host",
// the server's own message ("password authentication failed …") or, failing those, the error.
func rootCause(err error) string {
	var pe interface {
		SQLState() string
		error
	}
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(err, &pe):
		err = pe
	case errors.As(err, &dns):
		err = dns
	case errors.As(err, &op):
		if errors.Is(op.Err, context.DeadlineExceeded) || os.IsTimeout(op.Err) {
			return "timed out"
		}
		err = op.Err
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
