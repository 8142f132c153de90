package server

import (
	"context"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// More read-only app views: the comment threads of a space's page and of a change request,
// a revision of a space, a collection and a site.

// maxAppThreads and maxAppReplies bound what a page shows of its comments.
const (
	maxAppThreads = 50
	maxAppReplies = 50
)

// appThread is a comment with its replies, bodies rendered from markdown and sanitized.
type appThread struct {
	Author, When string
	Body         template.HTML
	Resolved     bool
	Replies      []appReply
}

type appReply struct {
	Author, When string
	Body         template.HTML
}

func commentHTML(md string) template.HTML {
	body, _ := markdown.HTMLOptions{}.ToHTML(md)
	return template.HTML(body) // sanitized by ToHTML's policy
}

// threads reads the comment threads of a scope (of one page when pageID is set), oldest first.
func (s *Server) threads(ctx context.Context, scope store.CommentScope, pageID *string) ([]appThread, error) {
	list, err := s.Store.FindComments(ctx, scope, store.CommentFilter{Status: "all", PageID: pageID, Asc: true}, store.Page{Limit: maxAppThreads})
	if err != nil {
		return nil, err
	}
	out := make([]appThread, 0, len(list.Items))
	for _, cm := range list.Items {
		t := appThread{Author: cm.PostedBy.DisplayName, When: cm.PostedAt.UTC().Format("2006-01-02 15:04 UTC"),
			Body: commentHTML(cm.Body), Resolved: cm.ResolvedAt != nil}
		if cm.Replies > 0 {
			replies, err := s.Store.FindReplies(ctx, scope, cm.ID, store.Page{Limit: maxAppReplies})
			if err != nil {
				return nil, err
			}
			for _, r := range replies.Items {
				t.Replies = append(t.Replies, appReply{Author: r.PostedBy.DisplayName,
					When: r.PostedAt.UTC().Format("2006-01-02 15:04 UTC"), Body: commentHTML(r.Body)})
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// appRevision shows a revision of a space: its page tree and pages, as the space view does.
func (s *Server) appRevision(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	sp, _, err := s.Access.FindSpace(ctx, c.Param("spaceId"), store.RoleRead)
	if err != nil {
		return err
	}
	rev, err := s.Store.FindRevision(ctx, sp.ID, c.Param("rev"))
	if err != nil {
		return err
	}
	at := *sp
	at.RevisionID = rev.ID
	base := "/app/s/" + sp.ID + "/revisions/" + url.PathEscape(rev.ID)
	rest, _ := url.PathUnescape(c.Param("*"))
	tree, err := s.loadTree(ctx, &store.SiteSpace{Space: &at}, nil, base, true)
	if err != nil {
		return err
	}
	tree.spaceURL = func(id string) string { return "/app/s/" + id }
	v.Kind, v.Title = "space", "Revision "+rev.ID
	v.Lead = sp.Title + " · revision " + rev.ID + " · " + rev.CreatedAt.UTC().Format("2006-01-02 15:04 UTC")
	if rev.ID == sp.RevisionID {
		v.Lead += " · current"
	}
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}, {Title: "Organization", URL: "/app/o/" + sp.OrganizationID},
		{Title: sp.Title, URL: "/app/s/" + sp.ID}}
	v.Sidebar = tree.sidebar(nil)
	p := tree.find(strings.Trim(rest, "/"))
	if p == nil {
		if rest != "" {
			return store.Errorf(store.ENOTFOUND, "Page not found.")
		}
		return s.sendApp(c, http.StatusOK, v)
	}
	page, err := s.Store.FindPage(ctx, rev.ID, p.ID)
	if err != nil {
		return err
	}
	v.Title = p.Title
	v.Sidebar = tree.sidebar(p)
	files, err := s.Store.FindAllFiles(ctx, rev.ID)
	if err != nil {
		return err
	}
	body, _ := appLinks(&at, p, tree, files).ToHTML(page.Markdown)
	v.Body = template.HTML(body) // sanitized by ToHTML's policy
	return s.sendApp(c, http.StatusOK, v)
}

// appCollection lists a collection's collections and the spaces the member sees in it.
func (s *Server) appCollection(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	col, _, err := s.Access.FindCollection(ctx, c.Param("collectionId"), store.RoleRead)
	if err != nil {
		return err
	}
	if col.OrganizationID != c.Param("orgId") {
		return store.Errorf(store.ENOTFOUND, "Collection not found.")
	}
	v.Kind, v.Title = "list", col.Title
	if col.Description != nil {
		v.Lead = *col.Description
	}
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}, {Title: "Organization", URL: "/app/o/" + col.OrganizationID}}
	cols, err := s.Store.FindCollections(ctx, col.OrganizationID, true, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	for _, x := range cols.Items {
		if x.ParentID != nil && *x.ParentID == col.ID {
			v.Items = append(v.Items, webLink{Title: x.Title, URL: "/app/o/" + x.OrganizationID + "/c/" + x.ID, Context: "collection"})
		}
	}
	spaces, err := s.Store.FindSpaces(ctx, col.OrganizationID, false, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	roles, err := s.Access.ContentRoles(ctx, col.OrganizationID)
	if err != nil {
		return err
	}
	for _, sp := range spaces.Items {
		if sp.ParentID == nil || *sp.ParentID != col.ID {
			continue
		}
		if r, err := roles.Of(ctx, sp.DefaultLevel, sp.ParentID); err != nil || r == "" || r == store.RoleGuest {
			continue
		}
		v.Items = append(v.Items, webLink{Title: sp.Title, URL: "/app/s/" + sp.ID, Context: "space"})
	}
	return s.sendApp(c, http.StatusOK, v)
}

// appSite shows a site: its audience, whether and where it is published, and its sections and
// site spaces.
func (s *Server) appSite(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	site, _, err := s.Access.FindSite(ctx, c.Param("orgId"), c.Param("siteId"), store.RoleRead)
	if err != nil {
		return err
	}
	st, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return err
	}
	v.Kind, v.Title = "list", site.Title
	v.Lead = "Site · " + site.Visibility + " · unpublished"
	if site.Published {
		v.Lead = "Site · " + site.Visibility + " · published"
		if u := s.sitePublishedURL(site); u != nil && site.Visibility != "share-link" {
			v.Items = append(v.Items, webLink{Title: "Read the published site", URL: *u, Context: "published"})
		}
	}
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}, {Title: "Organization", URL: "/app/o/" + site.OrganizationID}}
	add := func(where string, list []*store.SiteSpace) {
		for _, ss := range list {
			if ss.Space == nil {
				continue
			}
			ctxText := "site space"
			if where != "" {
				ctxText = "in " + where
			}
			v.Items = append(v.Items, webLink{Title: ss.Space.Title, URL: "/app/s/" + ss.Space.ID, Context: ctxText})
		}
	}
	add("", st.RootSiteSpaces)
	for _, sec := range st.Sections {
		add(sec.Title, sec.SiteSpaces)
	}
	return s.sendApp(c, http.StatusOK, v)
}
