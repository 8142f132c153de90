package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// aggregateSiteEvents counts the events recorded by trackEventsInSiteById in groups, in SQL on
// the engine the suite runs on; listSiteVisitorSegments counts the one segment quire knows.
func TestAggregateSiteEvents(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	install, configure := r.pages["Install"], r.pages["Configure"]
	track := func(events ...map[string]any) {
		t.Helper()
		now := r.Clock.Now()
		list := make([]any, len(events))
		for i, e := range events {
			page, _ := e["page"].(string)
			ev := map[string]any{"type": e["type"], "timestamp": now.Format(time.RFC3339Nano),
				"session":  map[string]any{"sessionId": e["session"], "visitorId": e["visitor"]},
				"location": map[string]any{"url": "https://docs.acme.test/guide/" + page + "?x=1", "space": r.guide.Id}}
			if page != "" {
				ev["location"].(map[string]any)["page"] = page
			}
			for _, k := range []string{"query", "feedback"} {
				if e[k] != nil {
					ev[k] = e[k]
				}
			}
			list[i] = ev
		}
		r.Expect(t, http.StatusNoContent, r.reader, "POST", r.base+"/insights/events", map[string]any{"events": list})
	}
	day1 := r.Clock.Now().UTC()
	track(map[string]any{"type": "page_view", "session": "s1", "visitor": "v1", "page": install},
		map[string]any{"type": "page_view", "session": "s1", "visitor": "v1", "page": install},
		map[string]any{"type": "page_view", "session": "s2", "visitor": "v2", "page": configure},
		map[string]any{"type": "page_post_feedback", "session": "s1", "visitor": "v1", "page": install, "feedback": map[string]any{"rating": "good"}})
	r.Clock.Advance(25 * time.Hour)
	day2 := r.Clock.Now().UTC()
	track(map[string]any{"type": "page_view", "session": "s3", "visitor": "v1", "page": install},
		map[string]any{"type": "page_post_feedback", "session": "s3", "visitor": "v1", "page": install, "feedback": map[string]any{"rating": "bad"}},
		map[string]any{"type": "search_type_query", "session": "s3", "visitor": "v1", "query": "pets"})
	wantMessage(t, r.Expect(t, http.StatusBadRequest, r.reader, "POST", r.base+"/insights/events", map[string]any{"events": []any{map[string]any{
		"type": "page_post_feedback", "session": map[string]any{"sessionId": "s", "visitorId": "v"}, "location": map[string]any{"url": "https://docs.acme.test/"},
		"feedback": map[string]any{"rating": "great"}}}}), "events.0.feedback.rating")

	type result struct {
		Columns []struct {
			Column string `json:"column"`
			Values []any  `json:"values"`
		} `json:"columns"`
	}
	query := func(body map[string]any) [][]any {
		t.Helper()
		res := sendJSON[result](t, r.testServer, http.StatusOK, r.reader, "POST", r.base+"/insights/events/aggregate", body)
		var rows [][]any
		for j, c := range res.Columns {
			for i, v := range c.Values {
				if j == 0 {
					rows = append(rows, nil)
				}
				rows[i] = append(rows[i], v)
			}
		}
		return rows
	}
	col := func(name string) map[string]any { return map[string]any{"column": name} }
	same := func(what string, got [][]any, want string) {
		t.Helper()
		b, _ := json.Marshal(got)
		if string(b) != want {
			t.Fatalf("%s:\n got %s\nwant %s", what, b, want)
		}
	}
	d1, d2 := day1.Format("2006-01-02")+"T00:00:00Z", day2.Format("2006-01-02")+"T00:00:00Z"

	// Page views per page per day, with their visitors and sessions.
	views := map[string]any{"range": "last7Days",
		"select":  []any{map[string]any{"column": "datetime", "interval": "day"}, col("page"), col("eventsCount"), col("visitorsCount"), col("sessionsCount")},
		"groupBy": []any{map[string]any{"column": "datetime", "interval": "day"}, col("page")},
		"where":   []any{map[string]any{"column": "eventType", "values": []any{"page_view"}}},
		"order":   map[string]any{"by": col("eventsCount"), "direction": "desc"}}
	page := func(id string) string { return `{"page":"` + id + `","space":"` + r.guide.Id + `"}` }
	same("views per page per day", query(views), `[["`+d1+`",`+page(install)+`,2,1,1],["`+d2+`",`+page(install)+`,1,1,1],["`+d1+`",`+page(configure)+`,1,1,1]]`)
	// A count condition applies to the groups; the 24 hours leave the first day out.
	views["where"] = append(views["where"].([]any), map[string]any{"column": "eventsCount", "operator": "greaterThan", "values": []any{1}})
	same("groups with more than one view", query(views), `[["`+d1+`",`+page(install)+`,2,1,1]]`)
	views["range"] = "last24Hours"
	same("the last 24 hours", query(views), `null`)

	// Feedback per page; the search has no page (null), and notIn keeps it.
	same("feedback per page", query(map[string]any{"range": "last30Days", "select": []any{col("page"), col("pageFeedbackRating")}, "groupBy": []any{col("page")},
		"where": []any{map[string]any{"column": "eventType", "values": []any{"page_post_feedback"}}}}),
		`[[`+page(install)+`,{"bad":1,"good":1,"ok":0}]]`)
	same("events not of a page", query(map[string]any{"range": "last30Days", "select": []any{col("eventType"), col("eventSearchQuery"), col("urlPath")},
		"where": []any{map[string]any{"column": "page", "operator": "notIn", "values": []any{map[string]any{"space": r.guide.Id, "page": install}, map[string]any{"space": r.guide.Id, "page": configure}}}}}),
		`[["search_type_query","pets","/guide/"]]`)
	same("events by rating", query(map[string]any{"range": "last30Days", "groupBy": []any{col("eventPageFeedbackRating")},
		"where": []any{map[string]any{"column": "eventPageFeedbackRating", "operator": "notIn", "values": []any{nil}}}}),
		`[["bad",1],["good",1]]`)

	// Time columns: hour of day, ISO day of week and week's Monday as Go computes them.
	monday := day2.AddDate(0, 0, -((int(day2.Weekday())+6)%7)).Format("2006-01-02") + "T00:00:00Z"
	dow := (int(day2.Weekday())+6)%7 + 1
	rows := query(map[string]any{"range": map[string]any{"from": day2.Add(-time.Minute).Format(time.RFC3339), "to": day2.Add(time.Hour).Format(time.RFC3339)},
		"select": []any{map[string]any{"column": "datetime", "interval": "week"}, col("dayOfWeek"), col("hourOfDay"), map[string]any{"column": "datetime", "interval": "month"}, col("eventsCount")}})
	b, _ := json.Marshal(rows)
	want, _ := json.Marshal([][]any{{monday, dow, day2.Hour(), day2.Format("2006-01") + "-01T00:00:00Z", 3}})
	if string(b) != string(want) {
		t.Fatalf("time columns: got %s, want %s", b, want)
	}

	// What quire's events do not carry, a backward range, an unknown order column: 400.
	for _, bad := range []map[string]any{
		{"range": "last7Days", "groupBy": []any{col("visitorBrowser")}},
		{"range": "last7Days", "groupBy": []any{col("eventsCount")}},
		{"range": map[string]any{"from": day2.Format(time.RFC3339), "to": day1.Format(time.RFC3339)}},
		{"range": "last7Days", "groupBy": []any{col("page")}, "order": map[string]any{"by": col("url"), "direction": "asc"}},
		{"range": "last7Days", "where": []any{map[string]any{"column": "hourOfDay", "values": []any{"noon"}}}},
		{"range": "last7Days", "where": []any{map[string]any{"column": "pageFeedbackRating", "values": []any{1}}}},
	} {
		r.Expect(t, http.StatusBadRequest, r.reader, "POST", r.base+"/insights/events/aggregate", bad)
	}
	r.Expect(t, http.StatusNotFound, r.outsider, "POST", r.base+"/insights/events/aggregate", map[string]any{"range": "last7Days"})

	var segments struct {
		Items []struct {
			Events, Visitors, Sessions float64
		}
	}
	r.Expect(t, http.StatusOK, r.reader, "GET", r.base+"/insights/visitor-segments", nil).Decode(t, &segments)
	if len(segments.Items) != 1 || segments.Items[0].Events != 7 || segments.Items[0].Visitors != 2 || segments.Items[0].Sessions != 3 {
		t.Fatalf("segments: %+v", segments)
	}
	r.Expect(t, http.StatusNotFound, r.outsider, "GET", r.base+"/insights/visitor-segments", nil)
}

// quire's published pages record a page view when a reader's GET serves one (not a HEAD, not a
// robot), and the page's feedback form records the rating and leads back; no cookie is set.
func TestPublishedPagesRecordViewsAndFeedback(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	ctx := context.Background()
	page := "/s/" + r.site.Id + "/guide/install"
	visit := func(method, ua string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, r.URL+page, nil)
		req.Header.Set("User-Agent", ua)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK || len(res.Cookies()) != 0 {
			t.Fatalf("%s %s: %d, cookies %v", method, page, res.StatusCode, res.Cookies())
		}
		return res
	}
	views := func(typ string) []*store.SiteEvent {
		t.Helper()
		list, err := r.Store.FindSiteEvents(ctx, r.site.Id, store.SiteEventFilter{Type: &typ}, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		return list.Items
	}
	visit("HEAD", "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")
	visit("GET", "Googlebot/2.1 (+http://www.google.com/bot.html)")
	visit("GET", "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")
	visit("GET", "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")
	var got []*store.SiteEvent
	for i := 0; i < 100 && len(got) < 2; i++ { // views are written off the request
		time.Sleep(20 * time.Millisecond)
		got = views("page_view")
	}
	time.Sleep(50 * time.Millisecond)
	if got = views("page_view"); len(got) != 2 || str(got[0].PageID) != r.pages["Install"] || got[0].VisitorID != got[1].VisitorID || got[0].VisitorID == "" {
		t.Fatalf("page views: %+v", got)
	}
	// The form shows, and is taken, once the site's customization turns feedback on.
	form := `<form class="feedback" method="post" action="/s/` + r.site.Id + `/~feedback">`
	if strings.Contains(webGet(t, r.testServer, page), form) {
		t.Fatal("a site whose customization leaves feedback off shows the form")
	}
	r.Expect(t, http.StatusOK, r.admin, "PUT", r.base+"/customization", map[string]any{"feedback": map[string]any{"enabled": true}})
	body := webGet(t, r.testServer, page)
	wantIn(t, "the page", body, form, `name="rating" value="good"`)

	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(form url.Values, origin string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", r.URL+"/s/"+r.site.Id+"/~feedback", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	res := post(url.Values{"page": {"guide/install"}, "rating": {"good"}}, "")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != page+"?feedback=sent" {
		t.Fatalf("feedback: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	wantIn(t, "the page after feedback", webGet(t, r.testServer, page+"?feedback=sent"), "Thank you for your feedback.")
	for _, bad := range []struct {
		form   url.Values
		origin string
		want   int
	}{
		{url.Values{"page": {"guide/install"}, "rating": {"great"}}, "", http.StatusBadRequest},
		{url.Values{"page": {"guide/no-such-page"}, "rating": {"bad"}}, "", http.StatusNotFound},
		{url.Values{"page": {"guide/install"}, "rating": {"bad"}}, "https://elsewhere.test", http.StatusForbidden},
	} {
		if res := post(bad.form, bad.origin); res.StatusCode != bad.want {
			t.Fatalf("%v from %q: %d, want %d", bad.form, bad.origin, res.StatusCode, bad.want)
		}
	}
	r.Expect(t, http.StatusOK, r.admin, "PUT", r.base+"/customization", map[string]any{"feedback": map[string]any{"enabled": false}})
	if res := post(url.Values{"page": {"guide/install"}, "rating": {"good"}}, ""); res.StatusCode != http.StatusForbidden {
		t.Fatalf("feedback sent to a site that turned it off: %d", res.StatusCode)
	}
	fb := views("page_post_feedback")
	if len(fb) != 1 || str(fb[0].FeedbackRating) != "good" || str(fb[0].PageID) != r.pages["Install"] {
		t.Fatalf("feedback events: %+v", fb)
	}
}
