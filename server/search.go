package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// searchResultType tells whether a hit matched on the page's own fields or on a section's text.
func searchResultType(matched bool, onPage gen.SearchResultType) *gen.SearchResultType {
	if matched {
		return &onPage
	}
	t := gen.SearchResultTypeSection
	if onPage == gen.SearchResultTypeSection {
		t = gen.SearchResultTypePage
	}
	return &t
}

// searchLinks finds where the hits of a space that are link pages lead: a link has no page of
// its own, so its hit leads where the link does. The store answers each hit's target (Link); only
// the paths of the pages links of this space open are read, in one query, and sp (by spaceID)
// only when some hit is a link.
func (s *Server) searchLinks(ctx context.Context, sp *store.Space, spaceID string, hits []*store.SearchPage) (map[string]*string, error) {
	var links []*store.SearchPage
	var targetIDs []string
	for _, h := range hits {
		if t := h.Link; t != nil {
			links = append(links, h)
			if t.Kind == store.TargetPage && t.Space == "" {
				targetIDs = append(targetIDs, t.Page)
			}
		}
	}
	if len(links) == 0 {
		return nil, nil
	}
	if sp == nil {
		var err error
		if sp, err = s.Store.FindSpace(ctx, spaceID); err != nil {
			return nil, err
		}
	}
	paths := map[string]string{}
	if len(targetIDs) > 0 {
		targets, err := s.Store.FindPagesWithBodies(ctx, sp.RevisionID, targetIDs)
		if err != nil {
			return nil, err
		}
		for _, t := range targets {
			paths[t.ID] = t.Path
		}
	}
	out := make(map[string]*string, len(links))
	for _, h := range links {
		path := ""
		if t := h.Link; t.Kind == store.TargetPage && t.Space == "" {
			path = paths[t.Page]
		}
		out[h.PageID] = s.linkHref(sp, h.Link, path)
	}
	return out, nil
}

// toAPISearchPage answers a hit; href, when set, is where the hit's link page leads.
func (s *Server) toAPISearchPage(p *store.SearchPage, href *string) gen.SearchPageResult {
	out := gen.SearchPageResult{Id: p.PageID, Title: p.Title, Description: p.Description, Path: p.Path,
		Score: (p.Score), Rank: p.Rank, ResultType: searchResultType(p.MatchedTitle, gen.SearchResultTypePage),
		Ancestors: make([]gen.SearchAncestor, 0, len(p.Ancestors)), Sections: make([]gen.SearchSectionResult, 0, len(p.Sections))}
	out.Urls.App = s.appURL("/s/" + p.SpaceID + "/" + p.Path)
	if href != nil {
		out.Urls.App = *href
	}
	for _, a := range p.Ancestors {
		out.Ancestors = append(out.Ancestors, gen.SearchAncestor{Title: a.Title})
	}
	for _, sec := range p.Sections {
		r := gen.SearchSectionResult{Id: p.PageID, Title: sec.Title, Path: p.Path, Body: sec.Body,
			Score: (sec.Score), ResultType: searchResultType(sec.Matched, gen.SearchResultTypeSection)}
		if sec.Anchor != "" {
			r.Id = p.PageID + "#" + sec.Anchor
			r.Path = p.Path + "#" + sec.Anchor
		}
		r.Urls.App = s.appURL("/s/" + p.SpaceID + "/" + r.Path)
		if href != nil {
			r.Urls.App = *href
		}
		out.Sections = append(out.Sections, r)
	}
	return out
}

func (s *Server) SearchSpaceContent(ctx context.Context, req gen.SearchSpaceContentRequestObject) (gen.SearchSpaceContentResponseObject, error) {
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	p := req.Params
	list, err := s.Store.SearchSpace(ctx, sp.ID, p.Query, page(p.Page, p.Limit))
	if err != nil {
		return nil, err
	}
	links, err := s.searchLinks(ctx, sp, sp.ID, list.Items)
	if err != nil {
		return nil, err
	}
	items := make([]gen.SearchPageResult, 0, len(list.Items))
	for _, pg := range list.Items {
		items = append(items, s.toAPISearchPage(pg, links[pg.PageID]))
	}
	return gen.SearchSpaceContent200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) SearchOrganizationContent(ctx context.Context, req gen.SearchOrganizationContentRequestObject) (gen.SearchOrganizationContentResponseObject, error) {
	roles, err := s.Access.ContentRoles(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	vis, err := roles.Visible(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.SearchOrganizationContent200JSONResponse{Items: []gen.SearchSpaceResult{}}
	p := req.Params
	list, err := s.Store.SearchOrganization(ctx, req.OrganizationId, p.Query, vis, page(p.Page, p.Limit))
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(list.Items))
	for _, hit := range list.Items {
		ids = append(ids, hit.SpaceID)
	}
	titles, err := s.Store.SpaceTitles(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, hit := range list.Items {
		r := gen.SearchSpaceResult{Type: gen.SearchSpaceResultTypeSpace, Id: hit.SpaceID, Title: titles[hit.SpaceID], Score: (hit.Score),
			Pages: make([]gen.SearchPageResult, 0, len(hit.Pages))}
		links, err := s.searchLinks(ctx, nil, hit.SpaceID, hit.Pages)
		if err != nil {
			return nil, err
		}
		for _, pg := range hit.Pages {
			r.Pages = append(r.Pages, s.toAPISearchPage(pg, links[pg.PageID]))
		}
		out.Items = append(out.Items, r)
	}
	out.Count, out.Next = list.Count, listNext(list.Next)
	return out, nil
}
