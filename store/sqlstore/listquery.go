package sqlstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/quire-docs/quire/store"
)

// Every list of the store is one listQuery: constant SQL fragments, each filter adding its
// condition (and its arguments) only when it is set, so the database sees plain predicates its
// indexes serve. Nothing a request carries becomes SQL text: values are arguments, and the
// columns of an order come from the code (a fixed switch where a request picks among orders).
// The distinct statements a list can make are its combinations of filters and orders, with and
// without a cursor: fixed by the code (the most, integrations with eight optional filters, 512),
// so the PostgreSQL dialect's cache of rewrites (one entry per statement text, never evicted)
// stays bounded, and SQLite's per-connection statement cache (least recently used first out)
// keeps the combinations in use.

// sortKey is one term of a list's order.
type sortKey struct {
	expr    string // a constant SQL expression
	integer bool   // compared as an integer: the cursor's text is parsed (else compared as text)
}

// byKeys is an order on text expressions, the last one unique among the items (the tie-breaker).
func byKeys(exprs ...string) []sortKey {
	keys := make([]sortKey, len(exprs))
	for i, e := range exprs {
		keys[i] = sortKey{expr: e}
	}
	return keys
}

// listQuery builds the two statements of a page of a list: the count of every item the filters
// keep, and the items after the page's cursor in the list's order, one more than the page holds
// so a next page is known to exist. The cursor is the order's keys of the last item answered,
// selected after the item's columns.
type listQuery struct {
	// with is a WITH clause only the page statement starts with; its parameters may be numbered
	// (?1…), bound to withArgs.
	with     string
	withArgs []any
	cols     string // the columns an item is scanned from
	colArgs  []any  // the arguments of cols' parameters
	from     string // what both statements read from: the tables the filters name
	join     string // joined in the page statement only: tables only the columns or the order read
	where    []string
	args     []any
	order    []sortKey
	desc     bool
}

// and adds a condition, a constant fragment, with the arguments of its parameters.
func (q *listQuery) and(cond string, args ...any) {
	q.where = append(q.where, cond)
	q.args = append(q.args, args...)
}

func (q *listQuery) writeWhere(b *strings.Builder, after bool) {
	for i, c := range q.where {
		if i == 0 {
			b.WriteString(` WHERE `)
		} else {
			b.WriteString(` AND `)
		}
		b.WriteString(c)
	}
	if !after {
		return
	}
	if len(q.where) == 0 {
		b.WriteString(` WHERE `)
	} else {
		b.WriteString(` AND `)
	}
	cmp, marks := " > ", "?"
	if q.desc {
		cmp = " < "
	}
	if len(q.order) == 1 {
		b.WriteString(q.order[0].expr + cmp + marks)
		return
	}
	b.WriteString(`(`)
	for i, k := range q.order {
		if i > 0 {
			b.WriteString(`, `)
			marks += `, ?`
		}
		b.WriteString(k.expr)
	}
	b.WriteString(`)` + cmp + `(` + marks + `)`)
}

// countSQL is the statement counting every item the filters keep.
func (q *listQuery) countSQL() string {
	var b strings.Builder
	b.WriteString(`SELECT count(*) FROM ` + q.from)
	q.writeWhere(&b, false)
	return b.String()
}

// pageSQL is the statement of a page, after a cursor or from the start.
func (q *listQuery) pageSQL(after bool) string {
	var b strings.Builder
	b.WriteString(q.with + ` SELECT ` + q.cols)
	for _, k := range q.order {
		b.WriteString(`, ` + k.expr)
	}
	b.WriteString(` FROM ` + q.from + q.join)
	q.writeWhere(&b, after)
	dir := ` ASC`
	if q.desc {
		dir = ` DESC`
	}
	for i, k := range q.order {
		if i == 0 {
			b.WriteString(` ORDER BY `)
		} else {
			b.WriteString(`, `)
		}
		b.WriteString(k.expr + dir)
	}
	b.WriteString(` LIMIT ?`)
	return b.String()
}

// cursor reads a page's cursor into the arguments of the keyset condition (nil on the first page).
func (q *listQuery) cursor(p store.Page) ([]any, error) {
	cur, err := store.DecodeCursor(p.Cursor, len(q.order))
	if err != nil || cur == nil {
		return nil, err
	}
	args := make([]any, len(cur))
	for i, k := range q.order {
		args[i] = cur[i]
		if k.integer {
			n, err := strconv.ParseInt(cur[i], 10, 64)
			if err != nil {
				return nil, store.FieldErrorf("page", "not a page cursor this list answered")
			}
			args[i] = n
		}
	}
	return args, nil
}

// findList answers a page of a list with the count of every item the filters keep.
func findList[T any](ctx context.Context, db querier, q *listQuery, p store.Page, what string, scan func(scanner) (T, error)) (store.List[T], error) {
	after, err := q.cursor(p)
	if err != nil {
		return store.List[T]{}, err
	}
	var count int
	if err := db.QueryRowContext(ctx, q.countSQL(), q.args...).Scan(&count); err != nil {
		return store.List[T]{}, fmt.Errorf("store: unable to count %s: %w", what, err)
	}
	return listPage(ctx, db, q, p, after, count, what, scan)
}

// findPage answers a page of a list whose count is known.
func findPage[T any](ctx context.Context, db querier, q *listQuery, p store.Page, count int, what string, scan func(scanner) (T, error)) (store.List[T], error) {
	after, err := q.cursor(p)
	if err != nil {
		return store.List[T]{}, err
	}
	return listPage(ctx, db, q, p, after, count, what, scan)
}

func listPage[T any](ctx context.Context, db querier, q *listQuery, p store.Page, after []any, count int, what string, scan func(scanner) (T, error)) (store.List[T], error) {
	size := p.Size()
	args := make([]any, 0, len(q.withArgs)+len(q.colArgs)+len(q.args)+len(after)+1)
	args = append(append(append(append(args, q.withArgs...), q.colArgs...), q.args...), after...)
	args = append(args, size+1)
	// The next cursor is the keys of the last item the page keeps, scanned after its columns.
	keys := make([]string, len(q.order))
	keyDest := make([]any, len(keys))
	for i := range keys {
		keyDest[i] = &keys[i]
	}
	var next []string
	n := 0
	items, err := queryAll(ctx, db, what, q.pageSQL(after != nil), args, func(sc scanner) (T, error) {
		v, err := scan(scanWith{row: sc, extra: keyDest})
		if n++; n == size {
			next = append([]string(nil), keys...)
		}
		return v, err
	})
	if err != nil {
		return store.List[T]{}, err
	}
	return store.FinishPage(items, size, count, func(T) []string { return next }), nil
}

// scanner is a row, or a query's rows at one of them.
type scanner = interface{ Scan(...any) error }

// queryEach runs a query and calls row at each of its rows: the one loop over rows of this
// package.
func queryEach(ctx context.Context, db querier, what, query string, args []any, row func(scanner) error) error {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("store: unable to read %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows); err != nil {
			return fmt.Errorf("store: unable to read %s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: unable to read %s: %w", what, err)
	}
	return nil
}

// queryAll runs a query and scans each of its rows into a T. No rows answer an empty slice, not
// nil.
func queryAll[T any](ctx context.Context, db querier, what, query string, args []any, scan func(scanner) (T, error)) ([]T, error) {
	out := []T{}
	err := queryEach(ctx, db, what, query, args, func(sc scanner) error {
		v, err := scan(sc)
		out = append(out, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// queryInto runs a query and adds each of its rows to m, as the key and value scan answers.
func queryInto[K comparable, V any](ctx context.Context, db querier, what, query string, args []any, m map[K]V, scan func(scanner) (K, V, error)) error {
	return queryEach(ctx, db, what, query, args, func(sc scanner) error {
		k, v, err := scan(sc)
		m[k] = v
		return err
	})
}

// fill makes a scan function answering a new *T of one that fills a *T.
func fill[T any](scan func(scanner, *T) error) func(scanner) (*T, error) {
	return func(sc scanner) (*T, error) {
		v := new(T)
		return v, scan(sc, v)
	}
}

// value makes a scan function answering a T of one that fills a *T.
func value[T any](scan func(scanner, *T) error) func(scanner) (T, error) {
	return func(sc scanner) (T, error) {
		var v T
		err := scan(sc, &v)
		return v, err
	}
}

// scanWith scans extra trailing columns after the ones a scan function asks for.
type scanWith struct {
	row   scanner
	extra []any
}

func (s scanWith) Scan(dest ...any) error { return s.row.Scan(append(dest, s.extra...)...) }

// scanFunc is a function as a scanner.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// scanFirst scans leading columns before the ones a scan function asks for.
type scanFirst struct {
	row   scanner
	first []any
}

func (s scanFirst) Scan(dest ...any) error { return s.row.Scan(append(s.first, dest...)...) }

// scanString scans a row of one text column.
func scanString(sc scanner) (string, error) {
	var s string
	err := sc.Scan(&s)
	return s, err
}

// scanInt64 scans a row of one integer column.
func scanInt64(sc scanner) (int64, error) {
	var n int64
	err := sc.Scan(&n)
	return n, err
}

// placeholders returns "?, ?, …" for n arguments.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
