package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// The site's app page draws its views and feedback per page as inline SVG: a panel per page,
// labelled axes, and each day's values as <title> text.
func TestAppInsightsChart(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	admin := w.appLogin(t, w.admin)
	path := "/app/o/" + w.org.Id + "/sites/" + w.site.Id
	if r := w.expect(t, http.StatusOK, path, "Cookie", admin); strings.Contains(r.Body, "<svg") {
		t.Fatalf("a chart without events: %s", r.Body)
	}
	now := w.Store.Now().UTC()
	yesterday := now.AddDate(0, 0, -1)
	install, intro := w.pages["install"], w.pages["intro"]
	good, bad := "good", "bad"
	ev := func(typ, page string, at time.Time, rating *string) *store.SiteEvent {
		return &store.SiteEvent{Type: typ, SessionID: "s", VisitorID: "v", SpaceID: &w.guide.Id, PageID: &page, OccurredAt: at,
			Payload: []byte(`{}`), FeedbackRating: rating}
	}
	events := []*store.SiteEvent{
		ev("page_view", install, now, nil), ev("page_view", install, now, nil), ev("page_view", install, yesterday, nil),
		ev("page_view", intro, now, nil), ev("page_post_feedback", install, now, &good), ev("page_post_feedback", intro, yesterday, &bad),
		ev("page_view", install, now.AddDate(0, 0, -40), nil), // out of the chart's days
	}
	if err := w.Store.RecordSiteEvents(context.Background(), w.site.Id, events); err != nil {
		t.Fatal(err)
	}
	r := w.expect(t, http.StatusOK, path, "Cookie", admin)
	wantIn(t, "chart", r.Body, `<h2 id="insights-title">`, "<strong>Install</strong>", "3 views · feedback: 1 good, 0 ok, 0 bad",
		"<strong>Introduction</strong>", "1 views · feedback: 0 good, 0 ok, 1 bad", `>Views</text>`, `<svg class="chart" role="img"`,
		"<title>Install — "+now.Format("2006-01-02")+": 2 views, feedback 1 good, 0 ok, 0 bad</title>",
		"<title>Install — "+yesterday.Format("2006-01-02")+": 1 views, feedback 0 good, 0 ok, 0 bad</title>",
		"<title>Introduction — "+yesterday.Format("2006-01-02")+": 0 views, feedback 0 good, 0 ok, 1 bad</title>",
		now.Format("Jan 2")+"</text>")
	if strings.Index(r.Body, "<strong>Install</strong>") > strings.Index(r.Body, "<strong>Introduction</strong>") {
		t.Fatalf("the most read page is not first")
	}
	wantNotIn(t, "chart", r.Body, "style=", "<script")
}
