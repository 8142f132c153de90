package web

import (
	"context"
	"fmt"
	"html/template"
	"sort"
	"strings"
	"time"

	"github.com/quire-docs/quire/store"
)

// The app's insights chart of a site (issue 30 item 6): its page views and page feedback per page
// over the last two weeks, day by day, drawn on the server as inline SVG (no script): a panel per
// page (the most read first), a bar per day with its count under the y axis "Views", the days on
// the x axis, and the day's feedback as marks under the bar; every bar and mark says its values
// in a <title>, and the panel's heading sums them up.

const chartDays = 14

// chartPage is one page's series: views and feedback by day index.
type chartPage struct {
	page     store.SiteEventPage
	title    string
	views    [chartDays]int64
	feedback [chartDays]store.FeedbackCounts
	total    int64
}

// appChart is what the site's app page shows: a heading per page and its SVG.
type appChart struct {
	Title, Summary string
	SVG            template.HTML
}

// siteCharts reads a site's events of the last days and draws a chart per page (at most 6).
func (s *Server) siteCharts(ctx context.Context, site *store.Site, st *store.SiteStructure) ([]appChart, error) {
	now := s.Store.Now().UTC()
	end := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1)
	start := end.AddDate(0, 0, -chartDays)
	day := store.SiteEventColumn{Name: "datetime", Interval: "day"}
	page := store.SiteEventColumn{Name: "page"}
	typ := func(t string) []store.SiteEventCondition {
		return []store.SiteEventCondition{{Column: store.SiteEventColumn{Name: "eventType"}, Op: "in", Values: []any{t}}}
	}
	views, err := s.Store.AggregateSiteEvents(ctx, site.ID, store.SiteEventAggregation{From: start, To: end, Group: []store.SiteEventColumn{day, page},
		Metrics: []store.SiteEventColumn{{Name: "eventsCount"}}, Where: typ("page_view"), OrderBy: -1, Limit: 5000})
	if err != nil {
		return nil, err
	}
	feedback, err := s.Store.AggregateSiteEvents(ctx, site.ID, store.SiteEventAggregation{From: start, To: end, Group: []store.SiteEventColumn{day, page},
		Metrics: []store.SiteEventColumn{{Name: "pageFeedbackRating"}}, Where: typ("page_post_feedback"), OrderBy: -1, Limit: 5000})
	if err != nil {
		return nil, err
	}
	pages := map[string]*chartPage{}
	at := func(row []any) (*chartPage, int, bool) {
		d, _ := row[0].(string)
		t, err := time.Parse(time.RFC3339, d)
		p, ok := row[1].(store.SiteEventPage)
		if err != nil || !ok {
			return nil, 0, false
		}
		i := int(t.UTC().Sub(start).Hours() / 24)
		if i < 0 || i >= chartDays {
			return nil, 0, false
		}
		key := p.Space + "/"
		if p.Page != nil {
			key += *p.Page
		}
		if pages[key] == nil {
			pages[key] = &chartPage{page: p}
		}
		return pages[key], i, true
	}
	for _, row := range views {
		if cp, i, ok := at(row); ok {
			n, _ := row[2].(int64)
			cp.views[i] += n
			cp.total += n
		}
	}
	for _, row := range feedback {
		if cp, i, ok := at(row); ok {
			if f, ok := row[2].(store.FeedbackCounts); ok {
				cp.feedback[i].Good += f.Good
				cp.feedback[i].Ok += f.Ok
				cp.feedback[i].Bad += f.Bad
			}
		}
	}
	list := make([]*chartPage, 0, len(pages))
	for _, cp := range pages {
		list = append(list, cp)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].total != list[j].total {
			return list[i].total > list[j].total
		}
		return list[i].page.Space+pageID(list[i].page) < list[j].page.Space+pageID(list[j].page)
	})
	if len(list) > 6 {
		list = list[:6]
	}
	revisions := map[string]string{}
	for _, ss := range structureSpaces(st) {
		if ss.Space != nil {
			revisions[ss.Space.ID] = ss.Space.RevisionID
		}
	}
	out := make([]appChart, 0, len(list))
	for _, cp := range list {
		cp.title = "Home"
		if cp.page.Page != nil {
			cp.title = "Page " + *cp.page.Page
			if rev := revisions[cp.page.Space]; rev != "" {
				if p, err := s.Store.FindPage(ctx, rev, *cp.page.Page); err == nil {
					cp.title = p.Title
				}
			}
		}
		var f store.FeedbackCounts
		for _, d := range cp.feedback {
			f.Good, f.Ok, f.Bad = f.Good+d.Good, f.Ok+d.Ok, f.Bad+d.Bad
		}
		out = append(out, appChart{Title: cp.title, SVG: template.HTML(chartSVG(cp, start)),
			Summary: fmt.Sprintf("%d views · feedback: %d good, %d ok, %d bad", cp.total, f.Good, f.Ok, f.Bad)})
	}
	return out, nil
}

func pageID(p store.SiteEventPage) string {
	if p.Page == nil {
		return ""
	}
	return *p.Page
}

// structureSpaces lists every site space of a structure.
func structureSpaces(st *store.SiteStructure) []*store.SiteSpace {
	out := append([]*store.SiteSpace{}, st.RootSiteSpaces...)
	for _, sec := range st.Sections {
		out = append(out, sec.SiteSpaces...)
	}
	return out
}

// chartSVG draws a page's series; every text in it is escaped.
func chartSVG(cp *chartPage, start time.Time) string {
	const (
		left, top, plotW, plotH, feedbackH, bottom = 48, 12, 560, 140, 14, 34
		width, height                              = left + plotW + 12, top + plotH + feedbackH + bottom
	)
	esc := template.HTMLEscapeString
	var max int64 = 1
	for _, v := range cp.views {
		if v > max {
			max = v
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="%s" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`,
		esc("Views and feedback per day of "+cp.title), width, height, width, height)
	fmt.Fprintf(&b, `<title>%s</title>`, esc(fmt.Sprintf("%s: %d views in the last %d days", cp.title, cp.total, chartDays)))
	// Axes, the y axis labelled with 0 and the highest count.
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d" stroke="currentColor"/>`, left, top, left, top+plotH)
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d" stroke="currentColor"/>`, left, top+plotH, left+plotW, top+plotH)
	fmt.Fprintf(&b, `<text class="axis-label" x="%d" y="%d" text-anchor="end" font-size="11">%d</text>`, left-6, top+8, max)
	fmt.Fprintf(&b, `<text class="axis-label" x="%d" y="%d" text-anchor="end" font-size="11">0</text>`, left-6, top+plotH)
	fmt.Fprintf(&b, `<text class="axis-title" x="12" y="%d" transform="rotate(-90 12 %d)" text-anchor="middle" font-size="11">Views</text>`, top+plotH/2, top+plotH/2)
	slot := plotW / chartDays
	for i := 0; i < chartDays; i++ {
		d := start.AddDate(0, 0, i)
		x := left + i*slot
		v := cp.views[i]
		h := int(int64(plotH) * v / max)
		f := cp.feedback[i]
		label := fmt.Sprintf("%s — %s: %d views, feedback %d good, %d ok, %d bad", cp.title, d.Format("2006-01-02"), v, f.Good, f.Ok, f.Bad)
		fmt.Fprintf(&b, `<g class="day"><title>%s</title>`, esc(label))
		fmt.Fprintf(&b, `<rect class="views" x="%d" y="%d" width="%d" height="%d" fill="currentColor" opacity="0.55"/>`, x+3, top+plotH-h, slot-6, h)
		if n := f.Good + f.Ok + f.Bad; n > 0 {
			fill := "#1a7f37"
			if f.Bad > f.Good {
				fill = "#cf222e"
			} else if f.Ok >= f.Good {
				fill = "#9a6700"
			}
			fmt.Fprintf(&b, `<circle class="feedback" cx="%d" cy="%d" r="5" fill="%s"/>`, x+slot/2, top+plotH+feedbackH/2+2, fill)
		}
		b.WriteString(`</g>`)
		if i%3 == 0 || i == chartDays-1 {
			fmt.Fprintf(&b, `<text class="axis-label" x="%d" y="%d" text-anchor="middle" font-size="11">%s</text>`, x+slot/2, top+plotH+feedbackH+16, d.Format("Jan 2"))
		}
	}
	fmt.Fprintf(&b, `<text class="axis-title" x="%d" y="%d" text-anchor="middle" font-size="11">Day (UTC); dots: page feedback</text>`, left+plotW/2, height-2)
	b.WriteString(`</svg>`)
	return b.String()
}
