package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/condition"
	"github.com/quire-docs/quire/store"
)

// sitePublishedURL is where a published site is read (its hostname when it has one, else
// {base}/s/{siteId}: siteRootURL); nil while the site is not published.
func (s *Server) sitePublishedURL(site *store.Site) *string {
	if !site.Published {
		return nil
	}
	u := s.siteRootURL(site)
	return &u
}

// withShareKey appends a share-link site's share key to one of its published URLs.
func withShareKey(site *store.Site, u string) string {
	if site.Visibility == "share-link" {
		return u + "?share=" + site.ShareKey
	}
	return u
}

// visitorClaims verifies a visitor token (HS256, signed with the server's visitor secret, not
// expired) and returns its claims.
func (s *Server) visitorClaims(token string) (map[string]any, error) {
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) { return s.VisitorSecret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(s.Store.Now))
	if err != nil {
		return nil, err
	}
	return claims, nil
}

// visible decides a condition for a visitor: no condition shows; a stored condition that no
// longer parses hides (conditions are parsed when saved, so this is only a safety net).
func visible(cond *string, claims map[string]any) bool {
	if cond == nil {
		return true
	}
	e, err := condition.Parse(*cond)
	if err != nil {
		return false
	}
	return e.Eval(claims)
}

// forVisitor keeps the parts of a site's structure a visitor sees: the live ones (not drafts,
// nor in a draft group) whose condition holds, sections with at least one site space left, groups
// with something left. Hidden site spaces stay: they are published, only out of the navigation.
func forVisitor(st *store.SiteStructure, claims map[string]any) *store.SiteStructure {
	out := &store.SiteStructure{}
	shown := func(ss *store.SiteSpace) bool { return !ss.Draft && visible(ss.Condition, claims) }
	for _, ss := range st.RootSiteSpaces {
		if shown(ss) {
			out.RootSiteSpaces = append(out.RootSiteSpaces, ss)
		}
	}
	parent := map[string]*string{}
	draft := map[string]bool{}
	for _, g := range st.Groups {
		parent[g.ID], draft[g.ID] = g.ParentID, g.Draft
	}
	inDraft := func(g *string) bool {
		for depth := 0; g != nil && depth < 64; depth, g = depth+1, parent[*g] {
			if draft[*g] {
				return true
			}
		}
		return false
	}
	for _, sec := range st.Sections {
		if sec.Draft || inDraft(sec.GroupID) || !visible(sec.Condition, claims) {
			continue
		}
		kept := *sec
		kept.SiteSpaces = nil
		for _, ss := range sec.SiteSpaces {
			if shown(ss) {
				kept.SiteSpaces = append(kept.SiteSpaces, ss)
			}
		}
		if len(kept.SiteSpaces) > 0 {
			out.Sections = append(out.Sections, &kept)
		}
	}
	// A group stays when a kept section is in it or in one of its subgroups.
	keep := map[string]bool{}
	for _, sec := range out.Sections {
		for g := sec.GroupID; g != nil && !keep[*g]; g = parent[*g] {
			keep[*g] = true
		}
	}
	for _, g := range st.Groups {
		if keep[g.ID] {
			out.Groups = append(out.Groups, g)
		}
	}
	return out
}

func (s *Server) GetPublishedContentSite(ctx context.Context, req gen.GetPublishedContentSiteRequestObject) (gen.GetPublishedContentSiteResponseObject, error) {
	site, role, err := s.findSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	if !site.Published {
		return nil, store.Errorf(store.ENOTFOUND, "The site is not published.")
	}
	p := req.Params
	// A site token (sitetokens.go) was issued for a visitor who gave the share key and visitor
	// token the site needs: it carries their claims.
	t := siteToken(ctx)
	if site.Visibility == "share-link" && t == nil {
		if p.ShareKey == nil || subtle.ConstantTimeCompare([]byte(*p.ShareKey), []byte(site.ShareKey)) != 1 {
			// Without the right share key the site is as good as not there.
			return nil, store.Errorf(store.ENOTFOUND, "Site not found.")
		}
	}
	var claims map[string]any
	if p.VisitorToken != nil {
		if claims, err = s.visitorClaims(*p.VisitorToken); err != nil {
			return nil, &httpError{http.StatusForbidden, fmt.Sprintf("The visitor token is not valid: %v.", errors.Unwrap(err))}
		}
	} else if t != nil {
		claims = t.Claims
	} else if site.Visibility == "visitor-auth" {
		return nil, &httpError{http.StatusForbidden, "This site needs a visitor token (visitorToken)."}
	}
	st, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	seen := forVisitor(st, claims)
	roles, err := s.newContentRoles(ctx, site.OrganizationID)
	if err != nil {
		return nil, err
	}
	var all []*store.SiteSpace
	all = append(all, seen.RootSiteSpaces...)
	for _, sec := range seen.Sections {
		all = append(all, sec.SiteSpaces...)
	}
	roleOf, err := spaceRoles(ctx, roles, all)
	if err != nil {
		return nil, err
	}
	out := gen.GetPublishedContentSite200JSONResponse{Object: gen.PublishedContentSiteObjectPublishedContentSite, Site: s.toAPISite(site, role),
		Scripts: []gen.SiteIntegrationScript{}}
	out.Customizations.Site, out.Customizations.SiteSpaces = publishedCustomizations(site, all)
	out.Structure.Structure = []gen.SiteStructureEntry{}
	if len(st.Sections) == 0 {
		out.Structure.Type = gen.SiteSpaces
		for _, ss := range seen.RootSiteSpaces {
			var e gen.SiteStructureEntry
			if err := e.FromSiteSpace(s.siteSpaceAPI(site, nil, ss, roleOf)); err != nil {
				return nil, err
			}
			out.Structure.Structure = append(out.Structure.Structure, e)
		}
		return out, nil
	}
	out.Structure.Type = gen.Sections
	// The root holds sections without a group and top-level groups, in position order.
	for _, c := range structureChildren(seen, nil) {
		entry, _ := s.structureEntry(site, c, seen, roleOf)
		out.Structure.Structure = append(out.Structure.Structure, entry)
	}
	return out, nil
}
