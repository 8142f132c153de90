package server

import (
	"context"
	"slices"
	"sort"
	"strconv"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// A site's search (searchSiteContent): the current content of the site spaces a visitor sees
// (a site token's visitor, with its claims; a member, as a visitor without claims), chosen by the
// request's scope, each space with its best pages, spaces ranked by their best page.

// siteSearchPagesPerSpace is how many pages a site search answers per space.
const siteSearchPagesPerSpace = 10

// searchScope is the site spaces a search request names: all of them, some by id, or a current
// one with the sections' defaults (only it, or all but it).
type searchScope struct {
	ids      []string // mode specific
	current  string   // mode default/current
	only     bool     // restrictTo currentSiteSpace
	others   bool     // restrictTo otherSiteSpaces
	defaults bool     // the current site space and the sections' defaults
}

// readSearchScope reads a request's scope, in either shape 0.202.0 defines.
func readSearchScope(b *gen.SearchSiteContentRequest) (searchScope, error) {
	var sc searchScope
	if b.Scope != nil {
		if b.Mode != nil || b.SiteSpaceId != nil || b.SiteSpaceIds != nil {
			return sc, store.FieldErrorf("scope", "cannot be given with mode, siteSpaceId or siteSpaceIds")
		}
		switch p := b.Scope; p.Mode {
		case gen.SiteSearchScopeModeSpecific:
			if p.SiteSpaceIds == nil || p.CurrentSiteSpace != nil || p.RestrictTo != nil {
				return sc, store.FieldErrorf("scope.siteSpaceIds", "is what mode specific takes (and only it)")
			}
			sc.ids = *p.SiteSpaceIds
		case gen.SiteSearchScopeModeDefault:
			if p.SiteSpaceIds != nil {
				return sc, store.FieldErrorf("scope.siteSpaceIds", "is for mode specific")
			}
			if p.RestrictTo != nil && p.CurrentSiteSpace == nil {
				return sc, store.FieldErrorf("scope.currentSiteSpace", "is needed with restrictTo")
			}
			if p.CurrentSiteSpace != nil {
				sc.current = *p.CurrentSiteSpace
			}
			sc.defaults = p.RestrictTo == nil
			sc.only = p.RestrictTo != nil && *p.RestrictTo == gen.CurrentSiteSpace
			sc.others = p.RestrictTo != nil && *p.RestrictTo == gen.OtherSiteSpaces
		case gen.SiteSearchScopeModeAll:
			if p.SiteSpaceIds != nil || p.CurrentSiteSpace != nil || p.RestrictTo != nil {
				return sc, store.FieldErrorf("scope", "mode all takes nothing else")
			}
		}
		return sc, nil
	}
	mode := gen.SiteSearchModeAll
	if b.Mode != nil {
		mode = *b.Mode
	} else if b.SiteSpaceIds != nil {
		mode = gen.SiteSearchModeSpecific
	}
	switch mode {
	case gen.SiteSearchModeSpecific:
		if b.SiteSpaceIds == nil || b.SiteSpaceId != nil {
			return sc, store.FieldErrorf("siteSpaceIds", "is what mode specific takes (and only it)")
		}
		sc.ids = *b.SiteSpaceIds
	case gen.SiteSearchModeCurrent:
		if b.SiteSpaceId == nil || b.SiteSpaceIds != nil {
			return sc, store.FieldErrorf("siteSpaceId", "is what mode current takes (and only it)")
		}
		sc.current, sc.defaults = *b.SiteSpaceId, true
	case gen.SiteSearchModeAll:
		if b.SiteSpaceId != nil || b.SiteSpaceIds != nil {
			return sc, store.FieldErrorf("mode", "all takes no siteSpaceId nor siteSpaceIds")
		}
	}
	return sc, nil
}

// pick keeps the site spaces of a visitor's structure the scope names.
func (sc searchScope) pick(seen *store.SiteStructure) []*store.SiteSpace {
	var all, defaults []*store.SiteSpace
	add := func(list []*store.SiteSpace) {
		for _, ss := range list {
			if ss.Space != nil && ss.Space.DeletedAt == nil {
				all = append(all, ss)
			}
		}
		if len(list) > 0 {
			defaults = append(defaults, defaultOf(list, func(x *store.SiteSpace) bool { return x.Default }))
		}
	}
	add(seen.RootSiteSpaces)
	for _, sec := range seen.Sections {
		add(sec.SiteSpaces)
	}
	var out []*store.SiteSpace
	for _, ss := range all {
		keep := true
		switch {
		case sc.ids != nil:
			keep = slices.Contains(sc.ids, ss.ID)
		case sc.only:
			keep = ss.ID == sc.current
		case sc.others:
			keep = ss.ID != sc.current
		case sc.defaults:
			keep = ss.ID == sc.current || slices.Contains(defaults, ss)
		}
		if keep {
			out = append(out, ss)
		}
	}
	return out
}

func (s *Server) SearchSiteContent(ctx context.Context, req gen.SearchSiteContentRequestObject) (gen.SearchSiteContentResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	sc, err := readSearchScope(req.Body)
	if err != nil {
		return nil, err
	}
	pg := page(req.Params.Page, req.Params.Limit)
	offset := 0
	if cur, err := store.DecodeCursor(pg.Cursor, 1); err != nil {
		return nil, err
	} else if cur != nil {
		if offset, err = strconv.Atoi(cur[0]); err != nil || offset < 0 {
			return nil, store.FieldErrorf("page", "not a page cursor this list answered")
		}
	}
	var claims map[string]any
	if t := access.SiteTokenOf(ctx); t != nil {
		claims = t.Claims
	}
	st, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	out := gen.SearchSiteContent200JSONResponse{Items: []gen.SearchSpaceResult{}}
	seenSpace := map[string]bool{}
	for _, ss := range sc.pick(access.ForVisitor(st, claims)) {
		if seenSpace[ss.Space.ID] {
			continue // a space published twice on the site is searched once
		}
		seenSpace[ss.Space.ID] = true
		hits, err := s.Store.SearchSpace(ctx, ss.Space.ID, req.Body.Query, store.Page{Limit: siteSearchPagesPerSpace})
		if err != nil {
			return nil, err
		}
		if len(hits.Items) == 0 {
			continue
		}
		links, err := s.searchLinks(ctx, ss.Space, ss.Space.ID, hits.Items)
		if err != nil {
			return nil, err
		}
		r := gen.SearchSpaceResult{Type: gen.SearchSpaceResultTypeSpace, Id: ss.Space.ID, Title: ss.DisplayTitle(),
			Score: hits.Items[0].Score, Pages: make([]gen.SearchPageResult, 0, len(hits.Items))}
		for _, pg := range hits.Items {
			r.Pages = append(r.Pages, s.toAPISearchPage(pg, links[pg.PageID]))
		}
		out.Items = append(out.Items, r)
	}
	sort.SliceStable(out.Items, func(i, j int) bool { return out.Items[i].Score > out.Items[j].Score })
	size := pg.Size()
	out.Count = len(out.Items)
	out.Items = out.Items[min(offset, len(out.Items)):min(len(out.Items), offset+size)]
	if offset+size < out.Count {
		out.Next = listNext(store.EncodeCursor(strconv.Itoa(offset + size)))
	}
	return out, nil
}

func (s *Server) PrewarmSiteSearch(ctx context.Context, req gen.PrewarmSiteSearchRequestObject) (gen.PrewarmSiteSearchResponseObject, error) {
	// The index is written with every revision (sqlstore's search index): nothing waits to be warmed.
	if _, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead); err != nil {
		return nil, err
	}
	return gen.PrewarmSiteSearch204Response{}, nil
}
