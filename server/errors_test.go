package server_test

import (
	"net/http"
	"testing"
)

// Store errors reach the API through one wording: a field the request's query carries is a query
// parameter, any other field a body field, a content batch's change keeps its own form, and an
// error about no field says its reason alone.
func TestStoreErrorsAreWordedForTheAPI(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, cr := w.draft(t)
	cases := []struct {
		name, method, path string
		body               any
		status             int
		want               string
	}{
		{"QueryParameter", "GET", "/orgs/" + w.org.Id + "/spaces?page=notacursor", nil, http.StatusBadRequest,
			`Invalid query parameter "page": not a page cursor this list answered.`},
		{"BodyField", "POST", "/spaces/" + sp.Id + "/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": sp.Id}}},
			http.StatusBadRequest, `Invalid body field "position.before": an item cannot be placed next to itself.`},
		{"BatchChange", "POST", crPath(sp.Id, cr.Id, "/content"), map[string]any{"changes": []map[string]any{deletePage("noSuchPage")}},
			http.StatusBadRequest, `changes[0].page: no page "noSuchPage" in the change request's content`},
		{"NoField", "GET", "/spaces/noSuchSpace0000000000", nil, http.StatusNotFound, "Space not found."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := w.Expect(t, c.status, w.admin, c.method, c.path, c.body).ErrorMessage(t); got != c.want {
				t.Fatalf("message %q, want %q", got, c.want)
			}
		})
	}
}
