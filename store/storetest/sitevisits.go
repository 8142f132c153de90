package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// siteRedirects: a path finds its exact redirect first, else the wildcard source with the longest
// prefix of it; drafts and other sites' redirects are not found; a second redirect from the same
// source is a conflict.
func siteRedirects(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "public", Spaces: []string{w.space("Guides").ID}})
	if err != nil {
		t.Fatal(err)
	}
	other, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Other", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	add := func(siteID, source string, draft bool, url string) *store.SiteRedirect {
		t.Helper()
		r := &store.SiteRedirect{SiteID: siteID, Source: source, Draft: draft, Permanent: true, RedirectDestination: store.RedirectDestination{DestinationKind: "external", URL: str(url)}}
		if err := w.st.CreateSiteRedirect(ctx, r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	exact := add(site.ID, "/old/page", false, "https://example.com/exact")
	wide := add(site.ID, "/old/*", false, "https://example.com/wide")
	deep := add(site.ID, "/old/deep*", false, "https://example.com/deep")
	add(site.ID, "/draft", true, "https://example.com/draft")
	add(other.ID, "/elsewhere", false, "https://example.com/other")
	for path, want := range map[string]*store.SiteRedirect{
		"/old/page": exact, "/old/page/more": wide, "/old/x": wide, "/old": wide, "/old/deeper/still": deep,
	} {
		got, err := w.st.FindSiteRedirectBySource(ctx, site.ID, path)
		if err != nil || got.ID != want.ID {
			t.Fatalf("%s: got %+v, %v; want %s", path, got, err, want.Source)
		}
	}
	if got, _ := w.st.FindSiteRedirectBySource(ctx, site.ID, "/old/page"); got.URL == nil || *got.URL != "https://example.com/exact" ||
		got.DestinationKind != "external" || !got.Permanent || got.CreatedAt.IsZero() {
		t.Fatalf("the redirect read back is not the one written: %+v", got)
	}
	for _, path := range []string{"/draft", "/elsewhere", "/ol", "/new"} {
		_, err := w.st.FindSiteRedirectBySource(ctx, site.ID, path)
		wantCode(t, err, store.ENOTFOUND)
	}
	wantCode(t, w.st.CreateSiteRedirect(ctx, &store.SiteRedirect{SiteID: site.ID, Source: "/old/page", RedirectDestination: store.RedirectDestination{DestinationKind: "external", URL: str("https://x.test")}}), store.ECONFLICT)
}

// siteEvents: a batch of events is stored whole and listed newest first, filtered by type and
// time, per site.
func siteEvents(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Other", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	events := []*store.SiteEvent{
		{Type: "page_view", SessionID: "s1", VisitorID: "v1", SpaceID: str("sp"), PageID: str("pg"), OccurredAt: at, Payload: []byte(`{"type":"page_view"}`)},
		{Type: "search_type_query", SessionID: "s1", VisitorID: "v1", OccurredAt: at.Add(time.Minute), Payload: []byte(`{"type":"search_type_query","query":"install"}`)},
		{Type: "page_view", SessionID: "s2", VisitorID: "v2", OccurredAt: at.Add(2 * time.Minute), Payload: []byte(`{"type":"page_view"}`)},
	}
	if err := w.st.RecordSiteEvents(ctx, site.ID, events); err != nil {
		t.Fatal(err)
	}
	if err := w.st.RecordSiteEvents(ctx, other.ID, []*store.SiteEvent{{Type: "page_view", SessionID: "s", VisitorID: "v", Payload: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	all, err := w.st.FindSiteEvents(ctx, site.ID, store.SiteEventFilter{}, store.Page{Limit: 2})
	if err != nil || all.Count != 3 || len(all.Items) != 2 || all.Items[0].SessionID != "s2" || all.Items[1].Type != "search_type_query" || all.Next == "" {
		t.Fatalf("first page: %+v, %v", all, err)
	}
	rest, err := w.st.FindSiteEvents(ctx, site.ID, store.SiteEventFilter{}, store.Page{Limit: 2, Cursor: all.Next})
	if err != nil || len(rest.Items) != 1 {
		t.Fatalf("second page: %+v, %v", rest, err)
	}
	first := rest.Items[0]
	if first.SpaceID == nil || *first.SpaceID != "sp" || *first.PageID != "pg" || !first.OccurredAt.Equal(at) || string(first.Payload) != `{"type":"page_view"}` || first.SiteID != site.ID {
		t.Fatalf("the event read back is not the one written: %+v", first)
	}
	views, err := w.st.FindSiteEvents(ctx, site.ID, store.SiteEventFilter{Type: str("page_view"), Since: &[]time.Time{at.Add(time.Minute)}[0]}, store.Page{})
	if err != nil || views.Count != 1 || views.Items[0].SessionID != "s2" {
		t.Fatalf("filtered: %+v, %v", views, err)
	}
	siteEventsAggregated(t, w, site.ID, at)
}

// siteEventsAggregated: the events above counted per type and hour in one query, the site's only,
// with a condition on a key (NULL kept by notIn) and one on a count.
func siteEventsAggregated(t *testing.T, w *world, siteID string, at time.Time) {
	ctx := context.Background()
	rating := "good"
	if err := w.st.RecordSiteEvents(ctx, siteID, []*store.SiteEvent{{Type: "page_post_feedback", SessionID: "s2", VisitorID: "v2", SpaceID: str("sp"), PageID: str("pg"),
		OccurredAt: at.Add(3 * time.Minute), Payload: []byte(`{}`), FeedbackRating: &rating, URLPath: str("/install")}}); err != nil {
		t.Fatal(err)
	}
	a := store.SiteEventAggregation{From: at, To: at.Add(time.Hour), OrderBy: 2, Desc: true, Limit: 10,
		Group:   []store.SiteEventColumn{{Name: "eventType"}, {Name: "datetime", Interval: "hour"}},
		Metrics: []store.SiteEventColumn{{Name: "eventsCount"}, {Name: "visitorsCount"}},
		Where:   []store.SiteEventCondition{{Column: store.SiteEventColumn{Name: "urlPath"}, Op: "notIn", Values: []any{"/install"}}}}
	rows, err := w.st.AggregateSiteEvents(ctx, siteID, a)
	hour := "2026-05-01T12:00:00Z"
	if err != nil || fmt.Sprint(rows) != fmt.Sprint([][]any{{"page_view", hour, int64(2), int64(2)}, {"search_type_query", hour, int64(1), int64(1)}}) {
		t.Fatalf("per type and hour: %v, %v", rows, err)
	}
	a.Where = append(a.Where, store.SiteEventCondition{Column: store.SiteEventColumn{Name: "eventsCount"}, Op: "greaterThan", Values: []any{1.0}})
	if rows, err := w.st.AggregateSiteEvents(ctx, siteID, a); err != nil || len(rows) != 1 || rows[0][0] != "page_view" {
		t.Fatalf("groups of more than one: %v, %v", rows, err)
	}
	rows, err = w.st.AggregateSiteEvents(ctx, siteID, store.SiteEventAggregation{From: at, To: at.Add(time.Hour), OrderBy: -1, Limit: 10,
		Group: []store.SiteEventColumn{{Name: "page"}}, Metrics: []store.SiteEventColumn{{Name: "pageFeedbackRating"}},
		Where: []store.SiteEventCondition{{Column: store.SiteEventColumn{Name: "page"}, Op: "in", Values: []any{store.SiteEventPage{Space: "sp", Page: str("pg")}}}}})
	if err != nil || len(rows) != 1 || rows[0][1] != (store.FeedbackCounts{Good: 1}) || *rows[0][0].(store.SiteEventPage).Page != "pg" {
		t.Fatalf("feedback per page: %v, %v", rows, err)
	}
	_, err = w.st.AggregateSiteEvents(ctx, siteID, store.SiteEventAggregation{From: at, To: at.Add(time.Hour), OrderBy: -1, Limit: 10,
		Group: []store.SiteEventColumn{{Name: "visitorBrowser"}}})
	wantCode(t, err, store.EINVALID)
}

// usersSharing: a user is found by a viewer who shares an organization with them, and by
// themselves; not by a stranger; FindOrganizationMemberUser answers only members.
func usersSharing(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	stranger := MustOwner(t, w.st, "stranger@example.com")
	if u, err := w.st.FindUserSharingOrganization(ctx, w.user, w.user); err != nil || u.ID != w.user {
		t.Fatalf("oneself: %+v, %v", u, err)
	}
	_, err := w.st.FindUserSharingOrganization(ctx, w.user, stranger.User.ID)
	wantCode(t, err, store.ENOTFOUND)
	if _, err := w.st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{EmailDomains: &[]string{"example.com"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.st.JoinOrganization(ctx, w.org, stranger.User); err != nil {
		t.Fatal(err)
	}
	if u, err := w.st.FindUserSharingOrganization(ctx, w.user, stranger.User.ID); err != nil || u.Email != "owner@example.com" {
		t.Fatalf("a member of the same organization: %+v, %v", u, err)
	}
	if u, err := w.st.FindOrganizationMemberUser(ctx, w.org, stranger.User.ID); err != nil || u.ID != stranger.User.ID {
		t.Fatalf("member: %+v, %v", u, err)
	}
	_, err = w.st.FindOrganizationMemberUser(ctx, stranger.Org.ID, w.user)
	wantCode(t, err, store.ENOTFOUND)
}
