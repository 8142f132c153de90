package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quire-docs/quire/store"
)

// siteEventKeys are the SQL expressions of the columns an aggregation groups by (page is two).
// Times are RFC 3339 UTC text, so an hour, a day or a month is a prefix of it.
var siteEventKeys = map[string][]string{
	"dayOfWeek":               nil, // by dialect: siteEventDayOfWeek
	"hourOfDay":               {`CAST(substr(occurred_at, 12, 2) AS INTEGER)`},
	"url":                     {`url`},
	"urlPath":                 {`url_path`},
	"eventType":               {`type`},
	"siteSection":             {`site_section_id`},
	"siteSpace":               {`site_space_id`},
	"page":                    {`space_id`, `page_id`},
	"eventSearchQuery":        {`search_query`},
	"eventPageFeedbackRating": {`feedback_rating`},
}

// siteEventMetricSQL are the metrics' expressions (pageFeedbackRating is three counts).
var siteEventMetricSQL = map[string][]string{
	"eventsCount":   {`COUNT(*)`},
	"sessionsCount": {`COUNT(DISTINCT session_id)`},
	"visitorsCount": {`COUNT(DISTINCT visitor_id)`},
	"pageFeedbackRating": {`SUM(CASE WHEN feedback_rating = 'good' THEN 1 ELSE 0 END)`,
		`SUM(CASE WHEN feedback_rating = 'ok' THEN 1 ELSE 0 END)`, `SUM(CASE WHEN feedback_rating = 'bad' THEN 1 ELSE 0 END)`},
}

// siteEventExprs are a column's SQL expressions on the store's engine.
func (s *Store) siteEventExprs(c store.SiteEventColumn) ([]string, error) {
	if m, ok := siteEventMetricSQL[c.Name]; ok {
		return m, nil
	}
	switch c.Name {
	case "datetime":
		switch c.Interval {
		case "hour":
			return []string{`substr(occurred_at, 1, 13) || ':00:00Z'`}, nil
		case "", "day":
			return []string{`substr(occurred_at, 1, 10) || 'T00:00:00Z'`}, nil
		case "month":
			return []string{`substr(occurred_at, 1, 7) || '-01T00:00:00Z'`}, nil
		case "week": // the Monday starting the event's ISO week
			if s.writer.d.postgres {
				return []string{`to_char(date_trunc('week', CAST(substr(occurred_at, 1, 10) AS timestamp)), 'YYYY-MM-DD') || 'T00:00:00Z'`}, nil
			}
			return []string{`date(substr(occurred_at, 1, 10), '-6 days', 'weekday 1') || 'T00:00:00Z'`}, nil
		}
		return nil, store.FieldErrorf("interval", "must be hour, day, week or month")
	case "dayOfWeek": // 1 Monday … 7 Sunday
		if s.writer.d.postgres {
			return []string{`CAST(EXTRACT(ISODOW FROM CAST(substr(occurred_at, 1, 10) AS date)) AS INTEGER)`}, nil
		}
		return []string{`((CAST(strftime('%w', substr(occurred_at, 1, 10)) AS INTEGER) + 6) % 7 + 1)`}, nil
	}
	if k := siteEventKeys[c.Name]; k != nil {
		return k, nil
	}
	return nil, store.Errorf(store.EINVALID, "insights cannot answer the column %q: quire's events do not carry it", c.Name)
}

// AggregateSiteEvents counts a site's events in groups, in one GROUP BY query; conditions on
// keys are WHERE terms, on metrics HAVING terms.
func (s *Store) AggregateSiteEvents(ctx context.Context, siteID string, a store.SiteEventAggregation) ([][]any, error) {
	var sel, group []string
	var widths []int
	for _, c := range append(append([]store.SiteEventColumn{}, a.Group...), a.Metrics...) {
		e, err := s.siteEventExprs(c)
		if err != nil {
			return nil, err
		}
		sel = append(sel, e...)
		widths = append(widths, len(e))
		if !store.SiteEventMetrics[c.Name] {
			group = append(group, e...)
		}
	}
	if len(sel) == 0 {
		return nil, store.Errorf(store.EINVALID, "an aggregation needs a column")
	}
	where := []string{`site_id = ?`, `occurred_at >= ?`, `occurred_at < ?`}
	args := []any{siteID, formatTime(a.From), formatTime(a.To)}
	var having []string
	var havingArgs []any
	for _, w := range a.Where {
		e, err := s.siteEventExprs(w.Column)
		if err != nil {
			return nil, err
		}
		if w.Column.Name == "datetime" {
			e = []string{`occurred_at`}
		}
		term, targs, err := siteEventCondition(w, e)
		if err != nil {
			return nil, err
		}
		if store.SiteEventMetrics[w.Column.Name] {
			having, havingArgs = append(having, term), append(havingArgs, targs...)
		} else {
			where, args = append(where, term), append(args, targs...)
		}
	}
	q := `SELECT ` + strings.Join(sel, ", ") + ` FROM site_events WHERE ` + strings.Join(where, " AND ")
	if len(group) > 0 {
		q += ` GROUP BY ` + strings.Join(group, ", ")
	}
	if len(having) > 0 {
		q += ` HAVING ` + strings.Join(having, " AND ")
		args = append(args, havingArgs...)
	}
	order := group
	if a.OrderBy >= 0 && a.OrderBy < len(widths) {
		at := 0
		for _, w := range widths[:a.OrderBy] {
			at += w
		}
		order = append(sel[at:at+widths[a.OrderBy]:at+widths[a.OrderBy]], group...)
	}
	if len(order) > 0 {
		dir := " ASC"
		if a.Desc {
			dir = " DESC"
		}
		q += ` ORDER BY ` + strings.Join(order, dir+", ") + dir
	}
	q += fmt.Sprintf(` LIMIT %d`, max(1, min(a.Limit, 1000)))
	rows, err := s.reader.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to aggregate site events: %w", err)
	}
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		raw := make([]any, len(sel))
		ptrs := make([]any, len(sel))
		for i := range raw {
			ptrs[i] = &raw[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]any, 0, len(widths))
		at := 0
		for i, c := range append(append([]store.SiteEventColumn{}, a.Group...), a.Metrics...) {
			row = append(row, siteEventValue(c.Name, raw[at:at+widths[i]]))
			at += widths[i]
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// siteEventCondition is a condition's SQL term on a column's expressions and its arguments.
func siteEventCondition(w store.SiteEventCondition, e []string) (string, []any, error) {
	if w.Column.Name == "pageFeedbackRating" {
		return "", nil, store.FieldErrorf("where", "cannot filter on pageFeedbackRating")
	}
	var ops = map[string]string{"greaterThan": ">", "greaterThanOrEqual": ">=", "lessThan": "<", "lessThanOrEqual": "<="}
	if op, ok := ops[w.Op]; ok {
		if len(w.Values) != 1 || len(e) != 1 || w.Values[0] == nil {
			return "", nil, store.FieldErrorf("where", "%s takes one value, on a column of one value", w.Op)
		}
		ph, v := sqlValue(w.Values[0])
		return e[0] + " " + op + " " + ph, []any{v}, nil
	}
	if w.Op != "in" && w.Op != "notIn" {
		return "", nil, store.FieldErrorf("where", "unknown operator %q", w.Op)
	}
	var terms []string
	var args []any
	null := false
	for _, v := range w.Values {
		switch v := v.(type) {
		case nil:
			null = true
		case store.SiteEventPage:
			if v.Page == nil {
				terms = append(terms, `(`+e[0]+` = ? AND `+e[1]+` IS NULL)`)
				args = append(args, v.Space)
			} else {
				// page_id IS NOT NULL: the term is false, not unknown, for a space's root.
				terms = append(terms, `(`+e[0]+` = ? AND `+e[1]+` IS NOT NULL AND `+e[1]+` = ?)`)
				args = append(args, v.Space, *v.Page)
			}
		default:
			ph, v2 := sqlValue(v)
			terms = append(terms, e[0]+` = `+ph)
			args = append(args, v2)
		}
	}
	if null {
		terms = append(terms, e[0]+` IS NULL`)
	}
	if len(terms) == 0 {
		terms = []string{`1 = 0`}
	}
	term := `(` + strings.Join(terms, " OR ") + `)`
	if w.Op == "notIn" {
		if !null {
			// A NULL key is in no list of values: keep it (NOT of an unknown would drop it).
			term = `(` + e[0] + ` IS NULL OR NOT ` + term + `)`
		} else {
			term = `(NOT ` + term + `)`
		}
	}
	return term, args, nil
}

// sqlValue is a condition's value as the store's columns hold it, and its placeholder (a count
// compares to a number, which PostgreSQL is told is one).
func sqlValue(v any) (string, any) {
	switch v := v.(type) {
	case time.Time:
		return "?", formatTime(v)
	case int:
		return "?", int64(v)
	case float64:
		return "CAST(? AS DOUBLE PRECISION)", v
	}
	return "?", v
}

// siteEventValue is a column's row value from what the query scanned.
func siteEventValue(name string, raw []any) any {
	switch name {
	case "page":
		space, ok := asString(raw[0])
		if !ok {
			return nil
		}
		p := store.SiteEventPage{Space: space}
		if page, ok := asString(raw[1]); ok {
			p.Page = &page
		}
		return p
	case "pageFeedbackRating":
		return store.FeedbackCounts{Good: asInt(raw[0]), Ok: asInt(raw[1]), Bad: asInt(raw[2])}
	case "eventsCount", "sessionsCount", "visitorsCount", "dayOfWeek", "hourOfDay":
		return asInt(raw[0])
	}
	if s, ok := asString(raw[0]); ok {
		return s
	}
	return nil
}

func asString(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	}
	return "", false
}

func asInt(v any) int64 {
	switch v := v.(type) {
	case int64:
		return v
	case int32:
		return int64(v)
	case float64:
		return int64(v)
	case []byte:
		var n int64
		fmt.Sscan(string(v), &n)
		return n
	case string:
		var n int64
		fmt.Sscan(v, &n)
		return n
	}
	return 0
}
