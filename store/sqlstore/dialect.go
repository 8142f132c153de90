package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The SQL of this package is written once, in SQLite's syntax kept to what PostgreSQL also
// understands, and every query goes through the wrappers below. On SQLite they pass the query
// through untouched (one branch on a field: the GET path pays nothing). On PostgreSQL they rewrite
// it once per query string (cached): `?` and `?N` placeholders become `$N`; the few SQLite
// spellings with a PostgreSQL equivalent are translated (see pgRewrites); Go bools become 0/1,
// since booleans are INTEGER columns in both schemas. What cannot be written once (full-text
// search, backups, one JSON query) lives in *_sqlite.go / *_postgres.go pairs behind the dialect.

// dialect is the database the store runs on.
type dialect struct {
	postgres bool
	// isUnique reports the driver's error for a broken UNIQUE constraint (SQLite: given by
	// store/sqlite, which links the driver; PostgreSQL: SQLSTATE 23505).
	isUnique func(error) bool
	rewrites sync.Map // query as written -> query for PostgreSQL
}

// pgQuery is a query rewritten for PostgreSQL. keep, when set, lists (1-based) the arguments
// the query references, in their new order: PostgreSQL refuses a parameter a query never uses
// (it cannot tell its type), where SQLite ignores it, so unused ones are dropped and the rest
// renumbered.
type pgQuery struct {
	sql  string
	keep []int
}

// pg returns the query as PostgreSQL takes it, and its arguments.
func (d *dialect) pg(q string, args []any) (string, []any) {
	r := d.query(q)
	return r.sql, r.args(args)
}

func (d *dialect) query(q string) *pgQuery {
	if v, ok := d.rewrites.Load(q); ok {
		return v.(*pgQuery)
	}
	r := rewriteQuery(q)
	d.rewrites.Store(q, r)
	return r
}

func (r *pgQuery) args(args []any) []any {
	if r.keep != nil && len(args) > 0 {
		kept := make([]any, 0, len(r.keep))
		for _, k := range r.keep {
			if k <= len(args) {
				kept = append(kept, args[k-1])
			}
		}
		args = kept
	}
	return pgArgs(args)
}

// pgArgs converts the Go values PostgreSQL does not take for an INTEGER column.
func pgArgs(args []any) []any {
	var out []any
	for i, a := range args {
		if b, ok := a.(bool); ok {
			if out == nil {
				out = append([]any(nil), args...)
			}
			out[i] = boolInt(b)
		}
	}
	if out == nil {
		return args
	}
	return out
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

var pgParam = regexp.MustCompile(`\$(\d+)`)

func rewriteQuery(q string) *pgQuery {
	out := rewriteForPostgres(q)
	used := map[int]bool{}
	highest := 0
	for _, m := range pgParam.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		used[n] = true
		highest = max(highest, n)
	}
	if len(used) == highest {
		return &pgQuery{sql: out}
	}
	// Renumber the parameters in use 1..n, in order.
	var keep []int
	renumber := map[int]int{}
	for n := 1; n <= highest; n++ {
		if used[n] {
			keep = append(keep, n)
			renumber[n] = len(keep)
		}
	}
	out = pgParam.ReplaceAllStringFunc(out, func(m string) string {
		n, _ := strconv.Atoi(m[1:])
		return "$" + strconv.Itoa(renumber[n])
	})
	return &pgQuery{sql: out, keep: keep}
}

// rewriteForPostgres rebinds placeholders (outside quoted strings and identifiers) and
// translates the SQLite spellings PostgreSQL lacks.
func rewriteForPostgres(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 16)
	highest := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			// Copy the quoted text whole; a doubled quote stays inside it.
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(q))
			b.WriteString(q[i:end])
			i = end - 1
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
		case c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			n := highest + 1
			if j > i+1 {
				n, _ = strconv.Atoi(q[i+1 : j])
			}
			highest = max(highest, n)
			b.WriteString("$" + strconv.Itoa(n))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	out := b.String()
	for _, r := range pgRewrites {
		out = r.re.ReplaceAllString(out, r.to)
	}
	return out
}

// pgRewrites translate SQLite spellings, applied after rebinding.
var pgRewrites = []struct {
	re *regexp.Regexp
	to string
}{
	// NULL-safe comparison with a parameter.
	{regexp.MustCompile(`\bIS NOT (\$\d+)`), `IS DISTINCT FROM $1`},
	{regexp.MustCompile(`\bIS (\$\d+)`), `IS NOT DISTINCT FROM $1`},
	// The elements of a JSON array parameter, as a table of value (text) and key (its position).
	{regexp.MustCompile(`json_each\((\$\d+)\) ([a-z]\w*)\b`), `json_array_elements_text($1::json) WITH ORDINALITY AS $2(value, key)`},
	{regexp.MustCompile(`json_each\((\$\d+)\)`), `json_array_elements_text($1::json) WITH ORDINALITY AS json_each(value, key)`},
	{regexp.MustCompile(`json_group_array\(`), `json_agg(`},
	// Case-insensitive equality (the unique index on users is on lower(email)).
	{regexp.MustCompile(`([\w.]+) = (\$\d+) COLLATE NOCASE`), `lower($1) = lower($2)`},
	// SQLite's LIKE ignores (ASCII) case.
	{regexp.MustCompile(`\bLIKE\b`), `ILIKE`},
	// A zero-padded sort key of a position.
	{regexp.MustCompile(`printf\('%012d', ([\w.]+)\)`), `lpad(CAST(floor($1) AS BIGINT)::text, 12, '0')`},
}

// forDB returns a query and its arguments as the database takes them: untouched on SQLite (one
// branch: the GET path pays nothing), rewritten on PostgreSQL.
func (d *dialect) forDB(q string, args []any) (string, []any) {
	if d.postgres {
		return d.pg(q, args)
	}
	return q, args
}

// sqlConn is what a pool and a transaction share: statements.
type sqlConn interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// speaker runs statements on a pool or a transaction in the store's dialect. db and txConn embed
// it before their *sql.DB or *sql.Tx (one level deeper), so its statements are the ones promoted.
type speaker struct {
	conn sqlConn
	d    *dialect
}

// engine is the dialect a connection or transaction speaks.
func (x speaker) engine() *dialect { return x.d }

func (x speaker) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	q, args = x.d.forDB(q, args)
	return x.conn.ExecContext(ctx, q, args...)
}

func (x speaker) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	q, args = x.d.forDB(q, args)
	return x.conn.QueryContext(ctx, q, args...)
}

func (x speaker) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	q, args = x.d.forDB(q, args)
	return x.conn.QueryRowContext(ctx, q, args...)
}

// db is a connection pool that speaks the store's dialect.
type db struct {
	speaker
	pool
}

type pool struct{ *sql.DB }

func newDB(p *sql.DB, d *dialect) *db { return &db{speaker{p, d}, pool{p}} }

// beginRead starts a read transaction that speaks the store's dialect: reads go through it, never
// through a bare *sql.Tx, which would send SQLite's placeholders to PostgreSQL. On PostgreSQL it
// is a repeatable-read snapshot, so its reads see one state of the database.
func (x *db) beginRead(ctx context.Context) (*txConn, error) {
	opts := &sql.TxOptions{ReadOnly: true}
	if x.d.postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	tx, err := x.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	c := newTxConn(tx, x.d)
	return &c, nil
}

// txConn is a transaction that speaks the store's dialect.
type txConn struct {
	speaker
	sqlTx
}

type sqlTx struct{ *sql.Tx }

func newTxConn(tx *sql.Tx, d *dialect) txConn { return txConn{speaker{tx, d}, sqlTx{tx}} }

func (x *txConn) PrepareContext(ctx context.Context, q string) (*stmt, error) {
	var keep []int
	if x.d.postgres {
		r := x.d.query(q)
		q, keep = r.sql, r.keep
	}
	st, err := x.Tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	return &stmt{Stmt: st, d: x.d, keep: keep}, nil
}

// stmt is a prepared statement whose arguments follow the store's dialect.
type stmt struct {
	*sql.Stmt
	d         *dialect
	returning bool  // an INSERT prepared with RETURNING id
	keep      []int // see pgQuery
}

func (x *stmt) args(args []any) []any {
	return (&pgQuery{keep: x.keep}).args(args)
}

// insertID runs an INSERT and answers the id of the row it made.
func (x *txConn) insertID(ctx context.Context, q string, args ...any) (int64, error) {
	if x.d.postgres {
		var id int64
		err := x.QueryRowContext(ctx, q+` RETURNING id`, args...).Scan(&id)
		return id, err
	}
	res, err := x.Tx.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// prepareInsert prepares an INSERT whose insertID answers the id of the row it made (SQLite's
// last insert rowid; RETURNING id on PostgreSQL, which has no such thing).
func (x *txConn) prepareInsert(ctx context.Context, q string) (*stmt, error) {
	if !x.d.postgres {
		return x.PrepareContext(ctx, q)
	}
	st, err := x.PrepareContext(ctx, q+` RETURNING id`)
	if err != nil {
		return nil, err
	}
	st.returning = true
	return st, nil
}

func (x *stmt) insertID(ctx context.Context, args ...any) (int64, error) {
	if x.returning {
		var id int64
		err := x.Stmt.QueryRowContext(ctx, x.args(args)...).Scan(&id)
		return id, err
	}
	res, err := x.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func (x *stmt) ExecContext(ctx context.Context, args ...any) (sql.Result, error) {
	if x.d.postgres {
		args = x.args(args)
	}
	return x.Stmt.ExecContext(ctx, args...)
}

func (x *stmt) QueryContext(ctx context.Context, args ...any) (*sql.Rows, error) {
	if x.d.postgres {
		args = x.args(args)
	}
	return x.Stmt.QueryContext(ctx, args...)
}

// sqlState is the SQLSTATE of a PostgreSQL error (pgx's *pgconn.PgError answers it), "" for
// any other error.
func sqlState(err error) string {
	var e interface{ SQLState() string }
	if errors.As(err, &e) {
		return e.SQLState()
	}
	return ""
}

// retryable reports a PostgreSQL transaction that lost to a concurrent one (serialization
// failure, deadlock): run again, it sees the winner's rows.
func retryable(err error) bool {
	switch sqlState(err) {
	case "40001", "40P01":
		return true
	}
	return false
}

// uniqueViolation reports an insert or update that broke a UNIQUE constraint, on either database.
func (d *dialect) uniqueViolation(err error) bool {
	if d.postgres {
		return sqlState(err) == "23505"
	}
	return d.isUnique != nil && d.isUnique(err)
}
