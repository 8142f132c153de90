package web

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// webSearchPerSpace is how many pages of each space a search shows.
const webSearchPerSpace = 10

// serveSearch answers the search page: the query run with the API's space search
// (SearchSpace) over every site space the visitor sees, once per space, keeping only the pages
// the visitor sees and navigation lists (not hidden ones), each linked to its section of the page.
func (s *Server) serveSearch(c echo.Context, w *webSite) error {
	ctx := c.Request().Context()
	q := strings.TrimSpace(c.QueryParam("q"))
	if utf8.RuneCountInString(q) > 200 {
		q = string([]rune(q)[:200])
	}
	var ws0 *webSection
	if len(w.sections) > 0 {
		ws0 = w.def
	}
	v := w.view(ws0, nil)
	v.Variants = nil
	v.Search, v.Query, v.NoIndex = true, q, true
	v.Title = "Search"
	if q != "" {
		v.Title = "Search: " + q
		v.Results = []webLink{}
		searched := map[string]bool{}
		for _, ws := range w.sections {
			for _, ss := range ws.spaces {
				if searched[ss.Space.ID] {
					continue
				}
				searched[ss.Space.ID] = true
				hits, err := s.Store.SearchSpace(ctx, ss.Space.ID, q, store.Page{Limit: webSearchPerSpace})
				if err != nil {
					if store.ErrorCode(err) == store.EINVALID {
						break
					}
					return s.webFail(c, err)
				}
				if len(hits.Items) == 0 {
					continue
				}
				tree, err := s.loadTree(ctx, ss, w.claims, ws.variantURL(ss), false)
				if err != nil {
					return s.webFail(c, err)
				}
				tree.spaceURL = w.spaceURL
				where := ss.Space.Title
				if ws.sec != nil && len(ws.spaces) > 1 {
					where = ws.sec.Title + " › " + ss.Space.Title
				} else if ws.sec != nil {
					where = ws.sec.Title
				}
				listed := make(map[string]bool, len(tree.nav))
				for _, p := range tree.nav {
					listed[p.ID] = true
				}
				for _, h := range hits.Items {
					p := tree.all[h.PageID]
					if p == nil || !listed[p.ID] { // hidden pages are reachable by address only
						continue
					}
					u, _, ok := tree.openURL(p) // a group leads to its first page, a link to its target
					if !ok {
						continue
					}
					r := webLink{Title: p.Title, URL: u, Context: where}
					if len(h.Sections) > 0 && p.Kind() == store.PageDocument {
						sec := h.Sections[0]
						if sec.Anchor != "" {
							r.URL += "#" + sec.Anchor
							if sec.Title != "" && sec.Title != p.Title {
								r.Title = p.Title + " › " + sec.Title
							}
						}
						r.Snippet = store.Shorten(sec.Body, 200)
					}
					v.Results = append(v.Results, r)
				}
			}
		}
	}
	return s.sendView(c, w, http.StatusOK, v)
}
