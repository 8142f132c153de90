package sqlstore

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Writes in sets (issue 31). A revision, a merge or a reindex writes hundreds of rows into a few
// tables. On SQLite, in process, a statement costs no round trip but a call each, so a rowSet
// sends a few dozen rows per INSERT (sqliteChunk). On PostgreSQL every statement is a round trip and an executor
// start, so a rowSet sends each table's rows as one statement: INSERT … SELECT over unnest() of
// one array parameter per column, whatever the number of rows.

// colType is the type of a rowSet column: its PostgreSQL array's element type.
type colType string

const (
	colInt  colType = "BIGINT"
	colText colType = "TEXT"
	colReal colType = "DOUBLE PRECISION"
)

// rowSet is the rows of one INSERT.
type rowSet struct {
	table string
	cols  []string
	types []colType
	// sqlite, when set, is SQLite's INSERT of one row, ending in its VALUES tuple, which a chunk
	// of rows repeats (default: INSERT of the columns).
	// pgSelect, when set, is PostgreSQL's select list over the columns of unnest (named as cols),
	// into pgInto's columns (default: the columns themselves, into cols).
	sqlite, pgSelect string
	pgInto           []string
	rows             [][]any
}

// maxSetRows bounds one statement's rows: the arrays of a statement stay a few megabytes.
const maxSetRows = 5000

func (r *rowSet) add(vals ...any) {
	if len(vals) != len(r.cols) {
		panic(fmt.Sprintf("rowSet %s: %d values for %d columns", r.table, len(vals), len(r.cols)))
	}
	r.rows = append(r.rows, vals)
}

// write inserts the rows.
func (r *rowSet) write(ctx context.Context, tx *Tx) error {
	_, err := r.insert(ctx, tx, false)
	return err
}

// writeIDs inserts the rows and answers the id each got, in the order of the rows.
func (r *rowSet) writeIDs(ctx context.Context, tx *Tx) ([]int64, error) {
	return r.insert(ctx, tx, true)
}

func (r *rowSet) insert(ctx context.Context, tx *Tx, ids bool) ([]int64, error) {
	if len(r.rows) == 0 {
		return nil, nil
	}
	if !tx.d.postgres {
		return r.insertSQLite(ctx, tx, ids)
	}
	var out []int64
	for start := 0; start < len(r.rows); start += maxSetRows {
		got, err := r.insertPostgres(ctx, tx, r.rows[start:min(start+maxSetRows, len(r.rows))], ids)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// sqliteChunk is the most rows one SQLite INSERT takes. A set is written in chunks of 64, 32, …,
// 1 rows, so a table has at most seven statement texts, which the driver keeps prepared; a
// statement per row cost a merge of 1,000 pages a tenth of its CPU in calls.
const sqliteChunk = 64

func (r *rowSet) insertSQLite(ctx context.Context, tx *Tx, ids bool) ([]int64, error) {
	q := r.sqlite
	if q == "" {
		q = `INSERT INTO ` + r.table + ` (` + strings.Join(r.cols, ", ") + `) VALUES (` + placeholders(len(r.cols)) + `)`
	}
	at := strings.LastIndex(q, "VALUES ") + len("VALUES ")
	head, tuple := q[:at], q[at:]
	var out []int64
	if ids {
		out = make([]int64, 0, len(r.rows))
	}
	for rows := r.rows; len(rows) > 0; {
		n := sqliteChunk
		for n > len(rows) {
			n /= 2
		}
		stmt := head + strings.TrimSuffix(strings.Repeat(tuple+", ", n), ", ")
		args := make([]any, 0, n*len(r.cols))
		for _, row := range rows[:n] {
			args = append(args, row...)
		}
		rows = rows[n:]
		if !ids {
			if _, err := tx.ExecContext(ctx, stmt, args...); err != nil {
				return nil, fmt.Errorf("store: unable to write %s: %w", r.table, err)
			}
			continue
		}
		// Rowids are drawn in the order the rows are inserted, each above those before it.
		got, err := r.insertReturning(ctx, tx, stmt, args, n)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// insertPostgres writes rows as one statement. The ids of an identity column are drawn in the
// order the rows are inserted, which ORDER BY fixes.
func (r *rowSet) insertPostgres(ctx context.Context, tx *Tx, rows [][]any, ids bool) ([]int64, error) {
	args := make([]any, len(r.cols))
	arrays := make([]string, len(r.cols))
	for c, typ := range r.types {
		arrays[c] = `CAST(? AS ` + string(typ) + `[])`
		switch typ {
		case colInt:
			vals := make([]*int64, len(rows))
			for i, row := range rows {
				vals[i] = setInt(row[c])
			}
			args[c] = vals
		case colReal:
			vals := make([]float64, len(rows))
			for i, row := range rows {
				vals[i] = row[c].(float64)
			}
			args[c] = vals
		default:
			vals := make([]*string, len(rows))
			for i, row := range rows {
				vals[i] = setText(row[c])
			}
			args[c] = vals
		}
	}
	sel := r.pgSelect
	if sel == "" {
		sel = strings.Join(r.cols, ", ")
	}
	into := r.pgInto
	if into == nil {
		into = r.cols
	}
	q := `INSERT INTO ` + r.table + ` (` + strings.Join(into, ", ") + `) SELECT ` + sel + ` FROM unnest(` +
		strings.Join(arrays, ", ") + `) WITH ORDINALITY AS u(` + strings.Join(r.cols, ", ") + `, row_number) ORDER BY row_number`
	if _, ok := upkeepAnalyze[r.table]; ok {
		if tx.inserted == nil {
			tx.inserted = map[string]int{}
		}
		tx.inserted[r.table] += len(rows)
	}
	if !ids {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return nil, fmt.Errorf("store: unable to write %s: %w", r.table, err)
		}
		return nil, nil
	}
	return r.insertReturning(ctx, tx, q, args, len(rows))
}

// insertReturning runs an INSERT of n rows and answers their ids in the order the rows were
// inserted: both engines draw ids in that order, each above those before it, but RETURNING's
// own order is not promised, so the ids are sorted back into it.
func (r *rowSet) insertReturning(ctx context.Context, tx *Tx, stmt string, args []any, n int) ([]int64, error) {
	out := make([]int64, 0, n)
	if err := queryEach(ctx, tx, r.table, stmt+` RETURNING id`, args, func(sc scanner) error {
		var id int64
		err := sc.Scan(&id)
		out = append(out, id)
		return err
	}); err != nil {
		return nil, err
	}
	if len(out) != n {
		return nil, fmt.Errorf("store: unable to write %s: %d ids for %d rows", r.table, len(out), n)
	}
	slices.Sort(out)
	return out, nil
}

// setInt is a value of an integer column as its array holds it (booleans are 0/1).
func setInt(v any) *int64 {
	var n int64
	switch x := v.(type) {
	case nil:
		return nil
	case int64:
		n = x
	case int:
		n = int64(x)
	case bool:
		n = boolInt(x)
	default:
		panic(fmt.Sprintf("rowSet: %T in an integer column", v))
	}
	return &n
}

// setText is a value of a text column as its array holds it.
func setText(v any) *string {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return &x
	case *string:
		return x
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String { // a named string type
		s := rv.String()
		return &s
	}
	panic(fmt.Sprintf("rowSet: %T in a text column", v))
}
