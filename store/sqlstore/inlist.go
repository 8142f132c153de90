package sqlstore

import "encoding/json"

// onPostgres reports whether a querier speaks PostgreSQL.
func onPostgres(q querier) bool {
	e, ok := q.(interface{ engine() *dialect })
	return ok && e.engine().postgres
}

// inList is the SQL condition that col is one of vals, and its arguments. On PostgreSQL it is
// one array parameter (= ANY): the statement, and so the plan PostgreSQL caches for it, is the
// same for any number of values, where an IN list of n placeholders is a statement of its own,
// planned anew, for each n. On SQLite, which plans every statement anyway, it is the IN list,
// or beyond 500 values (SQLite bounds a statement's parameters) the elements of one JSON array.
func inList[T int64 | string](q querier, col string, vals []T) (string, []any) {
	_, ints := any(vals).([]int64)
	if onPostgres(q) {
		typ := "TEXT[]"
		if ints {
			typ = "BIGINT[]"
		}
		return col + " = ANY(CAST(? AS " + typ + "))", []any{vals}
	}
	if len(vals) > 500 {
		j, _ := json.Marshal(vals)
		if ints {
			return col + " IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", []any{string(j)}
		}
		return col + " IN (SELECT value FROM json_each(?))", []any{string(j)}
	}
	args := make([]any, len(vals))
	for i, v := range vals {
		args[i] = v
	}
	return col + " IN (" + placeholders(len(vals)) + ")", args
}
