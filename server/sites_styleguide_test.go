package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// updateSiteById's styleguide (0.202.0): null detaches (the site has none, and says so); a space
// id is refused naming the field, as quire has no style guide spaces — a space of the
// organization is "not a style guide", one elsewhere or missing "not found" — and the refused
// update changes nothing else it carried.
func TestSiteStyleguide(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Guide", "")
	foreign := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "")
	site := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{"title": "Docs"})
	path := "/orgs/" + w.org.Id + "/sites/" + site.Id

	got := w.Expect(t, http.StatusOK, w.admin, "PATCH", path, map[string]any{"styleguide": nil, "title": "Handbook"}).Map(t)
	if got["title"] != "Handbook" || got["styleguide"] != nil {
		t.Fatalf("detaching answers %v", got)
	}
	for _, c := range []struct{ id, says string }{
		{sp.Id, "not a style guide"},
		{foreign.Id, "not found"},
		{"nope", "not found"},
	} {
		msg := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, map[string]any{"styleguide": c.id, "title": "Changed"}).ErrorMessage(t)
		if !strings.Contains(msg, "styleguide") || !strings.Contains(strings.ToLower(msg), c.says) {
			t.Errorf("styleguide %s: %q", c.id, msg)
		}
	}
	if after := w.Expect(t, http.StatusOK, w.admin, "GET", path, nil).Map(t); after["title"] != "Handbook" {
		t.Errorf("a refused update changed the title to %v", after["title"])
	}
	// Spaces are regular ones: no type (0.202.0 sets it only on style guides).
	if m := w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id, nil).Map(t); m["type"] != nil {
		t.Errorf("a space answers type %v", m["type"])
	}
}
