package server

import (
	"context"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): ListSpaceLinks,
// ListPageLinksInSpace, ListSpacePageBacklinks and ListSpaceFileBacklinks and their …ChangeRequest…
// twins differ only in the revision they read; the work is in linksResponse and backlinksResponse.

// locations builds the ContentLocations of one revision of a space: the organization, the space
// and the revision's pages are read once per request, however many locations are answered.
type locations struct {
	s       *Server
	sp      *store.Space
	rev     string
	cr      *store.ChangeRequest // set for a change request's revision
	org     *gen.Organization
	space   *gen.Space
	pages   map[string]*store.RevisionPage
	version *gen.VersionContext
}

func (s *Server) newLocations(ctx context.Context, sp *store.Space, rev string, cr *store.ChangeRequest) (*locations, error) {
	o, err := s.Store.FindOrganizationForMember(ctx, sp.OrganizationID, access.Caller(ctx).ID)
	if err != nil {
		return nil, err
	}
	apiOrg := s.toAPIOrganization(o)
	apiSpace, err := s.spaceResponse(ctx, sp)
	if err != nil {
		return nil, err
	}
	r, err := s.Store.FindRevision(ctx, sp.ID, rev)
	if err != nil {
		return nil, err
	}
	l := &locations{s: s, sp: sp, rev: rev, cr: cr, org: &apiOrg, space: &apiSpace, pages: map[string]*store.RevisionPage{}}
	for _, p := range r.Pages {
		l.pages[p.ID] = p
	}
	// The version context is the whole revision or change request, converted once per list.
	if cr != nil {
		apiCR, err := s.toAPIChangeRequest(cr)
		if err != nil {
			return nil, err
		}
		l.version = &gen.VersionContext{Type: gen.VersionContextTypeChangeRequest, ChangeRequest: &apiCR}
	} else {
		apiRev, err := s.toAPIRevision(ctx, sp, r)
		if err != nil {
			return nil, err
		}
		l.version = &gen.VersionContext{Type: gen.VersionContextTypeRevision, Revision: &apiRev}
	}
	return l, nil
}

// urlLocation is where a URL points; a link to a page or file the revision lacks is answered
// as the URL written, since a page or file location must carry the page or file.
func urlLocation(u string) gen.ContentLocation {
	return gen.ContentLocation{Kind: gen.ContentLocationKindUrl, Url: &u}
}

// page is the location of a page of the revision (the link as written when it is not there).
func (l *locations) page(id string) (gen.ContentLocation, error) {
	p, ok := l.pages[id]
	if !ok {
		return urlLocation(id), nil
	}
	loc := gen.ContentLocation{Kind: gen.ContentLocationKindPage, Organization: l.org, Space: l.space, VersionContext: l.version}
	ap, err := l.s.toAPIPage(l.sp, p, nil, false)
	if err != nil {
		return loc, err
	}
	loc.Page = &ap
	return loc, nil
}

func (l *locations) file(id string, f *store.RevisionFile) gen.ContentLocation {
	if f == nil {
		return urlLocation("/files/" + id)
	}
	loc := gen.ContentLocation{Kind: gen.ContentLocationKindFile, Organization: l.org, Space: l.space, VersionContext: l.version}
	af := l.s.toAPIFile(f)
	loc.File = &af
	return loc
}

// linksResponse lists a revision's links (or one page's).
func (s *Server) linksResponse(ctx context.Context, sp *store.Space, rev string, cr *store.ChangeRequest,
	pageID *string, status *gen.LinkStatus, cursor *string, limit *int) (gen.ContentReferenceList, error) {
	var out gen.ContentReferenceList
	f := store.LinkFilter{PageID: pageID, AppPrefix: s.appURL("/")}
	if status != nil {
		st := string(*status)
		f.Status = &st
	}
	list, stats, err := s.Store.FindLinks(ctx, rev, f, page(cursor, limit))
	if err != nil {
		return out, err
	}
	loc, err := s.newLocations(ctx, sp, rev, cr)
	if err != nil {
		return out, err
	}
	var fileIDs []string
	for _, t := range list.Items {
		if t.Kind == "file" {
			fileIDs = append(fileIDs, t.Target)
		}
	}
	files := map[string]*store.RevisionFile{}
	if len(fileIDs) > 0 {
		if files, err = s.Store.FindFilesByID(ctx, rev, fileIDs); err != nil {
			return out, err
		}
	}
	out = gen.ContentReferenceList{Items: make([]gen.ContentReferenceUsage, 0, len(list.Items)), Count: list.Count, Next: listNext(list.Next)}
	out.Stats.Total, out.Stats.Broken.Total = stats.Total, stats.Broken
	if cr != nil {
		n, err := s.Store.CountLinksBrokenSince(ctx, rev, cr.Base())
		if err != nil {
			return out, err
		}
		out.Stats.Broken.ChangeRequest = &n
	}
	for _, t := range list.Items {
		u := gen.ContentReferenceUsage{Status: gen.LinkStatus(t.Status), Relation: gen.Reference, LocationReferences: []gen.ContentLocation{}}
		switch t.Kind {
		case "page":
			if u.TargetReference, err = loc.page(t.Target); err != nil {
				return out, err
			}
		case "file":
			u.TargetReference = loc.file(t.Target, files[t.Target])
		case "openapi":
			if u.TargetReference, err = loc.openAPISpec(ctx, t.Target); err != nil {
				return out, err
			}
		default:
			u.TargetReference = urlLocation(t.Target)
		}
		for _, src := range t.Sources {
			l, err := loc.page(src)
			if err != nil {
				return out, err
			}
			u.LocationReferences = append(u.LocationReferences, l)
		}
		out.Items = append(out.Items, u)
	}
	return out, nil
}

// backlinksResponse lists the pages of a revision linking to a page or a file.
func (s *Server) backlinksResponse(ctx context.Context, sp *store.Space, rev string, cr *store.ChangeRequest,
	kind, target string, cursor *string, limit *int) (gen.ContentLocationList, error) {
	var out gen.ContentLocationList
	list, err := s.Store.FindBacklinks(ctx, rev, kind, target, page(cursor, limit))
	if err != nil {
		return out, err
	}
	loc, err := s.newLocations(ctx, sp, rev, cr)
	if err != nil {
		return out, err
	}
	items, err := convertItems(list.Items, loc.page)
	if err != nil {
		return out, err
	}
	return gen.ContentLocationList{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) ListSpaceLinks(ctx context.Context, req gen.ListSpaceLinksRequestObject) (gen.ListSpaceLinksResponseObject, error) {
	sp, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	p := req.Params
	out, err := s.linksResponse(ctx, sp, rev, nil, nil, linkStatus(p.Status), p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListSpaceLinks200JSONResponse(out), nil
}

func (s *Server) ListChangeRequestLinks(ctx context.Context, req gen.ListChangeRequestLinksRequestObject) (gen.ListChangeRequestLinksResponseObject, error) {
	sp, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	p := req.Params
	out, err := s.linksResponse(ctx, sp, cr.RevisionID, cr, nil, linkStatus(p.Status), p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListChangeRequestLinks200JSONResponse(out), nil
}

// pageInRevision checks that a page is in a revision (404 otherwise).
func (s *Server) pageInRevision(ctx context.Context, rev, pageID string) error {
	_, err := s.Store.FindPage(ctx, rev, pageID)
	return err
}

func (s *Server) ListPageLinksInSpace(ctx context.Context, req gen.ListPageLinksInSpaceRequestObject) (gen.ListPageLinksInSpaceResponseObject, error) {
	sp, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	if err := s.pageInRevision(ctx, rev, req.PageId); err != nil {
		return nil, err
	}
	p := req.Params
	out, err := s.linksResponse(ctx, sp, rev, nil, &req.PageId, linkStatus(p.Status), p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListPageLinksInSpace200JSONResponse(out), nil
}

func (s *Server) ListPageLinksInChangeRequest(ctx context.Context, req gen.ListPageLinksInChangeRequestRequestObject) (gen.ListPageLinksInChangeRequestResponseObject, error) {
	sp, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	if err := s.pageInRevision(ctx, cr.RevisionID, req.PageId); err != nil {
		return nil, err
	}
	p := req.Params
	out, err := s.linksResponse(ctx, sp, cr.RevisionID, cr, &req.PageId, linkStatus(p.Status), p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListPageLinksInChangeRequest200JSONResponse(out), nil
}

func (s *Server) ListSpacePageBacklinks(ctx context.Context, req gen.ListSpacePageBacklinksRequestObject) (gen.ListSpacePageBacklinksResponseObject, error) {
	sp, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	if err := s.pageInRevision(ctx, rev, req.PageId); err != nil {
		return nil, err
	}
	out, err := s.backlinksResponse(ctx, sp, rev, nil, "page", req.PageId, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListSpacePageBacklinks200JSONResponse(out), nil
}

func (s *Server) ListChangeRequestPageBacklinks(ctx context.Context, req gen.ListChangeRequestPageBacklinksRequestObject) (gen.ListChangeRequestPageBacklinksResponseObject, error) {
	sp, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	if err := s.pageInRevision(ctx, cr.RevisionID, req.PageId); err != nil {
		return nil, err
	}
	out, err := s.backlinksResponse(ctx, sp, cr.RevisionID, cr, "page", req.PageId, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListChangeRequestPageBacklinks200JSONResponse(out), nil
}

func (s *Server) ListSpaceFileBacklinks(ctx context.Context, req gen.ListSpaceFileBacklinksRequestObject) (gen.ListSpaceFileBacklinksResponseObject, error) {
	sp, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	if _, err := s.Store.FindFile(ctx, rev, req.FileId); err != nil {
		return nil, err
	}
	out, err := s.backlinksResponse(ctx, sp, rev, nil, "file", req.FileId, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListSpaceFileBacklinks200JSONResponse(out), nil
}

func (s *Server) ListChangeRequestFileBacklinks(ctx context.Context, req gen.ListChangeRequestFileBacklinksRequestObject) (gen.ListChangeRequestFileBacklinksResponseObject, error) {
	sp, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	if _, err := s.Store.FindFile(ctx, cr.RevisionID, req.FileId); err != nil {
		return nil, err
	}
	out, err := s.backlinksResponse(ctx, sp, cr.RevisionID, cr, "file", req.FileId, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListChangeRequestFileBacklinks200JSONResponse(out), nil
}

// linkStatus reads the status filter (a parameter of its own generated type).
func linkStatus[T ~string](v *T) *gen.LinkStatus {
	if v == nil {
		return nil
	}
	st := gen.LinkStatus(strings.TrimSpace(string(*v)))
	return &st
}

// openAPISpec is the location of a specification of the organization a page's block names (the
// slug as written when there is none).
func (l *locations) openAPISpec(ctx context.Context, slug string) (gen.ContentLocation, error) {
	sp, err := l.s.Store.FindOpenAPISpec(ctx, l.sp.OrganizationID, slug)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return urlLocation(slug), nil
	}
	if err != nil {
		return gen.ContentLocation{}, err
	}
	role, err := l.s.Access.MemberRole(ctx, l.sp.OrganizationID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		role = store.RoleGuest // a guest reading the space
	} else if err != nil {
		return gen.ContentLocation{}, err
	}
	apiSpec := l.s.toAPIOpenAPISpec(sp, role)
	return gen.ContentLocation{Kind: gen.ContentLocationKindOpenapi, Organization: l.org, OpenAPISpec: &apiSpec}, nil
}
