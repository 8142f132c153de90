package server_test

import (
	"net/http"
	"net/url"
	"testing"
)

// Hidden pages are reachable by their address but listed nowhere: not in navigation, not in
// the search results.
func TestWebHiddenPagesAreNotSearchResults(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/s/" + w.site.Id
	wantIn(t, "hidden page", w.expect(t, http.StatusOK, base+"/hidden-notes").Body, "Only reachable by its address.")
	r := w.expect(t, http.StatusOK, base+"/~search?q="+url.QueryEscape("reachable"))
	wantIn(t, "search", r.Body, "0 results for")
	wantNotIn(t, "search", r.Body, "Hidden notes")
	// A listed page with the same word is still found.
	wantIn(t, "search", w.expect(t, http.StatusOK, base+"/~search?q=frobnicator").Body, `<a href="`+base+`/install">Install</a>`)
}

// Relative links between markdown files resolve as in a Git repository: ../install.md is the
// page at that path, ../README.md the space's root (its first page).
func TestWebRelativeLinksResolve(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/s/" + w.site.Id
	r := w.expect(t, http.StatusOK, base+"/install/linux")
	wantIn(t, "linux", r.Body, `<a href="`+base+`/install">installing</a>`, `<a href="`+base+`/">home</a>`)
	wantNotIn(t, "linux", r.Body, "broken-link")
}
