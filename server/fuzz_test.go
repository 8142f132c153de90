package server_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/quire-docs/quire/gen"
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

// No content-batch body makes quire fail: any bytes answer 200 or a 4xx, and a refused batch
// leaves the change request's revision where it was.
func FuzzContentBatchBody(f *testing.F) {
	ts, admin, _, spaceID := fuzzWorld(f)
	var cr gen.ChangeRequest
	ts.Expect(f, http.StatusCreated, admin, "POST", "/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Fuzz"}).Decode(f, &cr)
	path := "/spaces/" + spaceID + "/change-requests/" + cr.Id + "/content"
	for _, seed := range []string{
		`{"changes":[{"operation":"insert_page","title":"A","document":{"markdown":"# A\n\nText [x](/pages/a)."}}]}`,
		`{"changes":[{"operation":"insert_page","ref":"a","title":"A","document":{"markdown":"x"}},{"operation":"update_page","page":"a","title":"B"}]}`,
		`{"changes":[{"operation":"delete_page","page":"nosuchpage"}]}`,
		`{"changes":[{"operation":"revert_page","page":"p","revision":"r"}]}`,
		`{"changes":[{"operation":"insert_files","files":[{"ref":"f","name":"a.txt","contentType":"text/plain","base64":"aGk="}]}]}`,
		`{"changes":[{"operation":"insert_files","files":[{"ref":"f","name":"a","contentType":"x","url":"http://127.0.0.1:1/"}]}]}`,
		`{"changes":[{"operation":"insert_page","title":"A","document":{"document":{"object":"document","nodes":[]}}}]}`,
		`{"changes":[]}`, `{"changes":null}`, `{}`, `[]`, `null`, `{"changes":[{"operation":7}]}`,
		"{\"changes\":[{\"operation\":\"insert_page\",\"title\":\"---\\nslug: x\\n---\",\"document\":{\"markdown\":\"---\\nicon: 🔥\\n---\\n\"}}]}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		before := ts.Expect(t, http.StatusOK, admin, "GET", "/spaces/"+spaceID+"/change-requests/"+cr.Id, nil).Map(t)["revision"]
		r := ts.Do(t, admin, "POST", path, body)
		switch {
		case r.Status == http.StatusOK:
		case r.Status >= 400 && r.Status < 500:
			after := ts.Expect(t, http.StatusOK, admin, "GET", "/spaces/"+spaceID+"/change-requests/"+cr.Id, nil).Map(t)["revision"]
			if after != before {
				t.Fatalf("a refused batch (%d %s) moved the revision from %v to %v", r.Status, r.Body, before, after)
			}
		default:
			t.Fatalf("POST %s %q: %d %s", path, body, r.Status, r.Body)
		}
	})
}
