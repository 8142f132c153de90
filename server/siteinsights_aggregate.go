package server

import (
	"context"
	"fmt"
	"time"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// aggregateSiteEvents and listSiteVisitorSegments: a site's recorded events counted, for whoever
// reads the site. The store computes the groups and counts in SQL and refuses the columns quire's
// events do not carry; here the request's columns and values are read into its terms.

func (s *Server) AggregateSiteEvents(ctx context.Context, req gen.AggregateSiteEventsRequestObject) (gen.AggregateSiteEventsResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	b := req.Body
	a := store.SiteEventAggregation{OrderBy: -1, Limit: 1000}
	if a.From, a.To, err = insightsRange(b.Range, s.Store.Now()); err != nil {
		return nil, err
	}
	if b.Limit != nil {
		a.Limit = *b.Limit
	}
	// The row holds the groups then the metrics; out says where each selected column is in it.
	rowIndex := func(c store.SiteEventColumn, add bool) int {
		for i, g := range a.Group {
			if g == c {
				return i
			}
		}
		for i, m := range a.Metrics {
			if m == c {
				return -(i + 1)
			}
		}
		if !add {
			return len(a.Group) + len(a.Metrics) + 1
		}
		if store.SiteEventMetrics[c.Name] {
			a.Metrics = append(a.Metrics, c)
			return -len(a.Metrics)
		}
		a.Group = append(a.Group, c)
		return len(a.Group) - 1
	}
	for _, c := range items(b.GroupBy) {
		if store.SiteEventMetrics[string(c.Column)] {
			return nil, store.FieldErrorf("groupBy", "cannot group by the metric %s", c.Column)
		}
		rowIndex(insightsColumn(c), true)
	}
	sel := items(b.Select)
	if len(sel) == 0 {
		sel = append(items(b.GroupBy), gen.SiteInsightsQueryEventsColumn{Column: "eventsCount"})
	}
	var out []int
	for _, c := range sel {
		out = append(out, rowIndex(insightsColumn(c), true))
	}
	if b.Order != nil {
		c := insightsColumn(b.Order.By)
		if !store.SiteEventMetrics[c.Name] && rowIndex(c, false) > len(a.Group) {
			return nil, store.FieldErrorf("order.by", "must be a selected or grouped column")
		}
		a.Desc = b.Order.Direction == gen.Desc
		o := rowIndex(c, true)
		if o < 0 {
			o = len(a.Group) - o - 1
		}
		a.OrderBy = o
	}
	for i, w := range items(b.Where) {
		cond, err := insightsCondition(w)
		if err != nil {
			return nil, store.FieldErrorf(fmt.Sprintf("where.%d", i), "%s", err.Error())
		}
		a.Where = append(a.Where, cond)
	}
	rows, err := s.Store.AggregateSiteEvents(ctx, site.ID, a)
	if err != nil {
		return nil, err
	}
	res := gen.AggregateSiteEvents200JSONResponse{Columns: make([]gen.SiteInsightsQueryEventsValues, len(sel))}
	for j, c := range sel {
		at := out[j]
		if at < 0 {
			at = len(a.Group) - at - 1
		}
		values := make([]nullable.Nullable[any], len(rows))
		for r, row := range rows {
			values[r] = insightsWireValue(row[at])
		}
		res.Columns[j] = gen.SiteInsightsQueryEventsValues{Column: c.Column, Values: values}
	}
	return res, nil
}

func (s *Server) ListSiteVisitorSegments(ctx context.Context, req gen.ListSiteVisitorSegmentsRequestObject) (gen.ListSiteVisitorSegmentsResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	now := s.Store.Now()
	rows, err := s.Store.AggregateSiteEvents(ctx, site.ID, store.SiteEventAggregation{From: now.AddDate(0, 0, -30), To: now.Add(time.Microsecond),
		Metrics: []store.SiteEventColumn{{Name: "eventsCount"}, {Name: "visitorsCount"}, {Name: "sessionsCount"}}, OrderBy: -1, Limit: 1})
	if err != nil {
		return nil, err
	}
	seg := gen.SiteInsightsVisitorSegment{Title: "All visitors", Claims: map[string]any{}}
	if len(rows) == 1 {
		seg.Events, seg.Visitors, seg.Sessions = float32(rows[0][0].(int64)), float32(rows[0][1].(int64)), float32(rows[0][2].(int64))
	}
	return gen.ListSiteVisitorSegments200JSONResponse{Items: []gen.SiteInsightsVisitorSegment{seg}, Count: 1}, nil
}

// insightsRange is the [from, to) a query's range covers.
func insightsRange(r gen.SiteInsightsQueryRange, now time.Time) (time.Time, time.Time, error) {
	to := now.Add(time.Microsecond)
	if p, err := r.AsSiteInsightsQueryRangePreset(); err == nil {
		switch p {
		case gen.LastYear:
			return now.AddDate(-1, 0, 0), to, nil
		case gen.Last3Months:
			return now.AddDate(0, -3, 0), to, nil
		case gen.Last30Days:
			return now.AddDate(0, 0, -30), to, nil
		case gen.Last7Days:
			return now.AddDate(0, 0, -7), to, nil
		case gen.Last24Hours:
			return now.Add(-24 * time.Hour), to, nil
		}
	}
	c, err := r.AsSiteInsightsQueryRangeCustom()
	if err != nil || c.From.IsZero() || !c.From.Before(c.To) {
		return time.Time{}, time.Time{}, store.FieldErrorf("range", "must be a preset or {from, to} with from before to")
	}
	return c.From, c.To, nil
}

func insightsColumn(c gen.SiteInsightsQueryEventsColumn) store.SiteEventColumn {
	col := store.SiteEventColumn{Name: string(c.Column)}
	if c.Column == "datetime" {
		col.Interval = "day"
		if c.Interval != nil {
			col.Interval = string(*c.Interval)
		}
	}
	return col
}

// insightsCondition reads a filter's values as its column holds them.
func insightsCondition(w gen.SiteInsightsQueryEventsFilter) (store.SiteEventCondition, error) {
	cond := store.SiteEventCondition{Column: store.SiteEventColumn{Name: string(w.Column)}, Op: "in"}
	if w.Operator != nil {
		cond.Op = string(*w.Operator)
	}
	for _, nv := range w.Values {
		v, _ := nv.Get()
		if v == nil {
			cond.Values = append(cond.Values, nil)
			continue
		}
		var x any
		var ok bool
		switch {
		case w.Column == "datetime":
			var s string
			if s, ok = v.(string); ok {
				t, err := time.Parse(time.RFC3339, s)
				ok, x = err == nil, t
			}
		case w.Column == "dayOfWeek" || w.Column == "hourOfDay":
			var f float64
			if f, ok = v.(float64); ok && f == float64(int64(f)) {
				x = int64(f)
			} else {
				ok = false
			}
		case store.SiteEventMetrics[string(w.Column)]:
			x, ok = v.(float64)
		case w.Column == "page":
			var m map[string]any
			if m, ok = v.(map[string]any); ok {
				p := store.SiteEventPage{}
				p.Space, ok = m["space"].(string)
				if pg, isStr := m["page"].(string); isStr {
					p.Page = &pg
				} else if m["page"] != nil {
					ok = false
				}
				x = p
			}
		default:
			x, ok = v.(string)
		}
		if !ok {
			return cond, fmt.Errorf("has a value that is not a %s", w.Column)
		}
		cond.Values = append(cond.Values, x)
	}
	return cond, nil
}

// insightsWireValue is a row value as the API answers it.
func insightsWireValue(v any) nullable.Nullable[any] {
	switch v := v.(type) {
	case nil:
		return nullable.NewNullNullable[any]()
	case store.SiteEventPage:
		return nullable.NewNullableWithValue[any](map[string]any{"space": v.Space, "page": v.Page})
	case store.FeedbackCounts:
		return nullable.NewNullableWithValue[any](map[string]any{"good": v.Good, "ok": v.Ok, "bad": v.Bad})
	}
	return nullable.NewNullableWithValue(v)
}

// items is a list that may be absent.
func items[T any](p *[]T) []T {
	if p == nil {
		return nil
	}
	return *p
}
