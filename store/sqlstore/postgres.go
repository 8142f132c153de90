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

// sessionSettings sets two of the connections' settings (each unless the URL sets it):
//   - jit off. PostgreSQL compiles a plan whose estimated cost passes jit_above_cost, which takes
//     50 to 100 ms, and quire's statements are short: the estimate of a recursive statement grows
//     with its rows squared (the ancestry of 50 search hits, searchAncestrySQL, was estimated at
//     356,000 and compiled for 68 ms to run for 5, issue 31).
//   - synchronize_seqscans off. A sequential scan of a table larger than a quarter of
//     shared_buffers otherwise starts where the last one of any session reached, and a search for
//     a common word is such a scan that its LIMIT stops: its candidates (searchCandidates, the
//     first matches in the table's order) moved on with every search, so the same query answered
//     other pages each time, read from pages no search had just read (issue 31).
//
// A URL that is not one is left as it is.
func sessionSettings(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		return dsn
	}
	q := u.Query()
	for _, kv := range [][2]string{{"jit", "off"}, {"synchronize_seqscans", "off"}} {
		if !q.Has(kv[0]) {
			q.Set(kv[0], kv[1])
		}
	}
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
