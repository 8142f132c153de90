package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// TestSiteRedirectWrites: redirects are created (a path destination stored as its page), listed,
// updated, changed in bulk and deleted through the API; destinations that are not the site's,
// loops and chains are refused with nothing changed; the published site answers them.
func TestSiteRedirectWrites(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/orgs/" + w.org.Id + "/sites/" + w.site.Id
	guideSS := w.guideSection.SiteSpaces[0].Id
	install := w.pages["install"]
	pageDest := map[string]any{"kind": "site-page", "siteSpaceId": guideSS, "pageId": install}

	var r gen.SiteRedirect
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/redirects", map[string]any{"source": "/old-install", "destination": pageDest}).Decode(t, &r)
	if r.Source != "/old-install" || r.Permanent || r.Draft || r.Destination.Kind != gen.SiteRedirectDestinationKindSitePage || *r.Destination.PageId != install {
		t.Fatalf("created: %+v", r)
	}
	var linux gen.SiteRedirect
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/redirects", map[string]any{"source": "/penguin/*", "captureWildcard": true, "permanent": true,
		"destination": map[string]any{"kind": "path", "spaceId": w.guide.Id, "path": "install/linux"}}).Decode(t, &linux)
	if linux.Destination.Kind != gen.SiteRedirectDestinationKindSitePage || *linux.Destination.PageId != w.pages["linux"] || *linux.Destination.SiteSpaceId != guideSS {
		t.Fatalf("a path destination is stored as its page: %+v", linux.Destination)
	}
	var out gen.SiteRedirect
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/redirects", map[string]any{"source": "/elsewhere", "destination": map[string]any{"kind": "external", "url": "https://example.com/docs"}}).Decode(t, &out)

	// Refused, with nothing changed.
	for _, bad := range []map[string]any{
		{"source": "/x", "destination": map[string]any{"kind": "site-space", "siteSpaceId": "nope"}},
		{"source": "/x", "destination": map[string]any{"kind": "site-page", "siteSpaceId": guideSS, "pageId": w.pages["intro"] + "x"}},
		{"source": "/x", "destination": map[string]any{"kind": "external"}},
		{"source": "/x", "destination": map[string]any{"kind": "external", "url": "ftp://example.com/x"}},
		{"source": "/x", "destination": map[string]any{"kind": "site-section", "siteSectionId": w.guideSection.Id, "url": "https://x.test"}},
		{"source": "/x", "destination": map[string]any{"kind": "path", "spaceId": w.staff.Id + "x", "path": "runbook"}},
		{"source": "/x", "destination": map[string]any{"kind": "path", "spaceId": w.guide.Id, "path": "no/such/page"}},
		{"source": "no-slash", "destination": pageDest},
		{"source": "/install", "destination": pageDest},                                                                            // a loop
		{"source": "/go/*", "destination": map[string]any{"kind": "external", "url": testBaseURL + "/s/" + w.site.Id + "/go/on"}},  // a loop
		{"source": "/x", "destination": map[string]any{"kind": "external", "url": testBaseURL + "/s/" + w.site.Id + "/elsewhere"}}, // a chain
		{"source": "/x", "destination": pageDest, "extra": true},
	} {
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", base+"/redirects", bad)
	}
	w.Expect(t, http.StatusConflict, w.admin, "POST", base+"/redirects", map[string]any{"source": "/old-install", "destination": pageDest})
	w.Expect(t, http.StatusForbidden, w.reader, "POST", base+"/redirects", map[string]any{"source": "/y", "destination": pageDest})
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", base+"/redirects", nil)
	list := getJSON[gen.SiteRedirectList](t, w.testServer, w.reader, base+"/redirects?orderBy=source")
	wantList(t, "redirects by source", list, 3, out.Id, r.Id, linux.Id)
	if got := w.mustRedirect(t, base, "old-inst"); got.Id != r.Id {
		t.Fatalf("search found %+v", got)
	}

	// The published site answers them: 307 for the temporary one, 308 with the captured rest.
	site := "/s/" + w.site.Id
	if res := w.expect(t, http.StatusTemporaryRedirect, site+"/old-install"); res.Header.Get("Location") != site+"/install/" && res.Header.Get("Location") != site+"/install" {
		t.Fatalf("old-install leads to %q", res.Header.Get("Location"))
	}
	if res := w.expect(t, http.StatusPermanentRedirect, site+"/penguin/packages"); res.Header.Get("Location") != site+"/install/linux/packages" {
		t.Fatalf("penguin/packages leads to %q", res.Header.Get("Location"))
	}
	if res := w.expect(t, http.StatusTemporaryRedirect, site+"/elsewhere"); res.Header.Get("Location") != "https://example.com/docs" {
		t.Fatalf("elsewhere leads to %q", res.Header.Get("Location"))
	}
	w.expect(t, http.StatusOK, site+"/install")

	// Update: permanent, a new source; a source another redirect has is a conflict.
	var up gen.SiteRedirect
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/redirects/"+r.Id, map[string]any{"permanent": true, "source": "/setup"}).Decode(t, &up)
	if !up.Permanent || up.Source != "/setup" || *up.Destination.PageId != install {
		t.Fatalf("updated: %+v", up)
	}
	w.Expect(t, http.StatusConflict, w.admin, "PATCH", base+"/redirects/"+r.Id, map[string]any{"source": "/elsewhere"})
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", base+"/redirects/"+r.Id, map[string]any{"destination": map[string]any{"kind": "site-page", "siteSpaceId": guideSS}})
	w.Expect(t, http.StatusNotFound, w.admin, "PATCH", base+"/redirects/nope", map[string]any{"permanent": true})
	w.expect(t, http.StatusPermanentRedirect, site+"/setup")
	w.expect(t, http.StatusNotFound, site+"/old-install")

	// Bulk: a draft, then published over nothing live; a delete; bad entries refuse the batch.
	var res gen.SiteRedirectBulkResults
	w.Expect(t, http.StatusOK, w.admin, "PUT", base+"/redirects", map[string]any{"redirects": []any{
		map[string]any{"source": "/draft", "intent": "draft", "destination": pageDest},
		map[string]any{"source": "/elsewhere", "destination": nil},
	}}).Decode(t, &res)
	if len(res.Results) != 2 || res.Results[0].Status != gen.SiteRedirectBulkStatusCreated || !res.Results[0].Draft || res.Results[1].Status != gen.SiteRedirectBulkStatusDeleted {
		t.Fatalf("bulk: %+v", res)
	}
	w.expect(t, http.StatusNotFound, site+"/draft")
	w.expect(t, http.StatusNotFound, site+"/elsewhere")
	for _, bad := range [][]any{
		{map[string]any{"source": "/a", "destination": pageDest}, map[string]any{"source": "/b"}},
		{map[string]any{"source": "/a", "destination": pageDest}, map[string]any{"source": "/a", "destination": nil}},
		{map[string]any{"source": "/a", "destination": pageDest}, map[string]any{"source": "/draft", "intent": "publish", "permanent": true}},
		{map[string]any{"source": "/a", "destination": map[string]any{"kind": "site-space", "siteSpaceId": "nope"}}},
	} {
		w.Expect(t, http.StatusBadRequest, w.admin, "PUT", base+"/redirects", map[string]any{"redirects": bad})
	}
	w.Expect(t, http.StatusOK, w.admin, "PUT", base+"/redirects", map[string]any{"redirects": []any{
		map[string]any{"source": "/draft", "intent": "publish"}, map[string]any{"source": "/nothing", "intent": "publish"},
	}}).Decode(t, &res)
	if res.Results[0].Status != gen.SiteRedirectBulkStatusPublished || res.Results[1].Status != gen.SiteRedirectBulkStatusError || res.Results[1].Error == nil {
		t.Fatalf("publish: %+v", res)
	}
	w.expect(t, http.StatusTemporaryRedirect, site+"/draft")
	if n := getJSON[gen.SiteRedirectList](t, w.testServer, w.admin, base+"/redirects").Count; n != 3 {
		t.Fatalf("%d live redirects, want 3 (setup, penguin, draft)", n)
	}

	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", base+"/redirects/"+r.Id, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", base+"/redirects/"+r.Id, nil)
	w.expect(t, http.StatusNotFound, site+"/setup")
}

func (w *webWorld) mustRedirect(t *testing.T, base, source string) gen.SiteRedirect {
	t.Helper()
	list := getJSON[gen.SiteRedirectList](t, w.testServer, w.admin, base+"/redirects?search="+source)
	for _, r := range list.Items {
		if strings.Contains(string(r.Source), source) {
			return r
		}
	}
	t.Fatalf("no redirect from %s", source)
	return gen.SiteRedirect{}
}

// TestMovedPageKeepsItsAddress: a page moved to another place of its space is still found at its
// old address, by a permanent redirect to the new one; a deleted page is not.
func TestMovedPageKeepsItsAddress(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	site := "/s/" + w.site.Id
	w.expect(t, http.StatusOK, site+"/install/linux")
	cr := w.create(t, w.admin, w.guide.Id, "Move")
	w.apply(t, w.admin, w.guide.Id, cr.Id, movePage(w.pages["linux"], ""), deletePage(w.pages["hidden"]))
	w.merge(t, w.admin, w.guide.Id, cr.Id)
	res := w.expect(t, http.StatusPermanentRedirect, site+"/install/linux")
	if loc := res.Header.Get("Location"); loc != site+"/linux" {
		t.Fatalf("the moved page's old address leads to %q", loc)
	}
	w.expect(t, http.StatusOK, site+"/linux")
	w.expect(t, http.StatusNotFound, site+"/hidden-notes")
}
