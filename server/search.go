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

func (s *Server) toAPISearchPage(p *store.SearchPage) gen.SearchPageResult {
	out := gen.SearchPageResult{Id: p.PageID, Title: p.Title, Description: p.Description, Path: p.Path,
		Score: (p.Score), Rank: p.Rank, ResultType: searchResultType(p.MatchedTitle, gen.SearchResultTypePage),
		Ancestors: make([]gen.SearchAncestor, 0, len(p.Ancestors)), Sections: make([]gen.SearchSectionResult, 0, len(p.Sections))}
	out.Urls.App = s.appURL("/s/" + p.SpaceID + "/" + p.Path)
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
	items := make([]gen.SearchPageResult, 0, len(list.Items))
	for _, pg := range list.Items {
		items = append(items, s.toAPISearchPage(pg))
	}
	return gen.SearchSpaceContent200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) SearchOrganizationContent(ctx context.Context, req gen.SearchOrganizationContentRequestObject) (gen.SearchOrganizationContentResponseObject, error) {
	role, err := s.Access.MemberRole(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	out := gen.SearchOrganizationContent200JSONResponse{Items: []gen.SearchSpaceResult{}}
	if role == store.RoleGuest {
		// Members with a role read every space of the organization; guests none yet.
		return out, nil
	}
	p := req.Params
	list, err := s.Store.SearchOrganization(ctx, req.OrganizationId, p.Query, page(p.Page, p.Limit))
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
		for _, pg := range hit.Pages {
			r.Pages = append(r.Pages, s.toAPISearchPage(pg))
		}
		out.Items = append(out.Items, r)
	}
	out.Count, out.Next = list.Count, listNext(list.Next)
	return out, nil
}
