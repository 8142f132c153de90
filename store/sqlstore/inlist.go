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

// probeList is a FROM item: the rows of table (named alias) whose key (equalities written on
// alias, args keyArgs) holds and whose col is one of vals, found one value at a time through the
// index that leads with key's columns and then col. On PostgreSQL each value of one array
// parameter probes the table on its own (a LATERAL subquery that OFFSET 0 keeps from being
// flattened); = ANY as a filter compared every row key allows with every value. Use it only
// where that index is the one index leading with key's columns: with statistics stale after bulk
// writes PostgreSQL estimates a row for key alone, and any index leading with key looks as cheap
// (page_versions, whose indexes all lead with line_id, got a scan of the whole line per value).
// On SQLite, whose planner takes an IN list to the index, it is the rows of key and inList.
func probeList[T int64 | string](q querier, table, alias, col string, vals []T, key string, keyArgs ...any) (string, []any) {
	if onPostgres(q) {
		typ := "TEXT[]"
		if _, ints := any(vals).([]int64); ints {
			typ = "BIGINT[]"
		}
		return `(SELECT DISTINCT unnest(CAST(? AS ` + typ + `))) AS probe(v) CROSS JOIN LATERAL (SELECT * FROM ` + table + ` ` + alias +
			` WHERE ` + key + ` AND ` + alias + `.` + col + ` = probe.v OFFSET 0) ` + alias, append([]any{vals}, keyArgs...)
	}
	in, inArgs := inList(q, alias+"."+col, vals)
	return `(SELECT * FROM ` + table + ` ` + alias + ` WHERE ` + key + ` AND ` + in + `) ` + alias, append(keyArgs, inArgs...)
}
