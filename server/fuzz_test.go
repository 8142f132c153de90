package server_test

import (
	"net/http"
	"net/url"
	"testing"
)

// fuzzWorld is a space with the product-guide template's pages in an organization of one admin.
func fuzzWorld(f *testing.F) (ts *testServer, admin *testUser, orgID, spaceID string) {
	ts = newTestServer(f)
	admin = ts.MustCreateUser(f, "alice@example.com", "Alice")
	org := ts.MustCreateOrg(f, admin, "Acme")
	sp := ts.MustCreateSpace(f, admin, org.Id, "Docs", "")
	ts.Expect(f, http.StatusNoContent, admin, "POST", "/spaces/"+sp.Id+"/content/template", map[string]any{"id": "product-guide"})
	return ts, admin, org.Id, sp.Id
}

// No search query makes quire fail: any query answers 200, or 400 where the spec refuses it.
func FuzzSearchQuery(f *testing.F) {
	ts, admin, orgID, spaceID := fuzzWorld(f)
	for _, seed := range []string{"install", `"`, `"unterminated`, "a*", "*", "NEAR(a b)", "^x", "a OR", "OR AND NOT",
		"-", "(((", ")", "title:x", "scope:o123", "{a b}", "a\x00b", "💥 émoji", "", "  ", "a+b", "'", "\\"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, path := range []string{"/spaces/" + spaceID + "/search", "/orgs/" + orgID + "/search"} {
			r := ts.Do(t, admin, "GET", path+"?query="+url.QueryEscape(q), nil)
			if r.Status != http.StatusOK && r.Status != http.StatusBadRequest {
				t.Fatalf("GET %s?query=%q: %d %s", path, q, r.Status, r.Body)
			}
		}
	})
}

// No page cursor makes quire fail or leak: any value answers 200 or 400.
func FuzzPageCursor(f *testing.F) {
	ts, admin, orgID, spaceID := fuzzWorld(f)
	first := ts.Expect(f, http.StatusOK, admin, "GET", "/spaces/"+spaceID+"/search?query=the&limit=1", nil).Map(f)
	if next, ok := first["next"].(map[string]any); ok {
		f.Add(next["page"].(string))
	}
	for _, seed := range []string{"", "x", "WyJhIl0", "WyJhIiwiYiJd", "W10", "bnVsbA", "e30", "%%%", "WyIiXQ", "WzEsMl0"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, page string) {
		for _, path := range []string{"/orgs/" + orgID + "/spaces", "/orgs/" + orgID + "/members",
			"/spaces/" + spaceID + "/change-requests", "/spaces/" + spaceID + "/search?query=the&"} {
			sep := "?"
			if path[len(path)-1] == '&' {
				sep = ""
			}
			r := ts.Do(t, admin, "GET", path+sep+"page="+url.QueryEscape(page), nil)
			if r.Status != http.StatusOK && r.Status != http.StatusBadRequest {
				t.Fatalf("GET %s page=%q: %d %s", path, page, r.Status, r.Body)
			}
		}
	})
}
