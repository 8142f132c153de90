package web

import (
	"context"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// The app's read-only views of a space: its pages with their comment threads, and the space as it
// was at a revision. (Organizations, collections and sites: apporgs.go; a change request:
// appdiff.go.)

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
	opts := appLinks(&at, p, tree, files)
	opts.Block = s.pageBlocks(ctx, sp.OrganizationID, rev.ID, opts)
	body, _ := opts.ToHTML(page.Markdown)
	v.Body = template.HTML(body) // sanitized by ToHTML's policy; its blocks escaped or sanitized by pageBlocks
	return s.sendApp(c, http.StatusOK, v)
}

// appSpace shows a space's page tree and one page (the first by default), with its change
// requests.
func (s *Server) appSpace(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	sp, _, err := s.Access.FindSpace(ctx, c.Param("spaceId"), store.RoleRead)
	if err != nil {
		return err
	}
	rest, _ := url.PathUnescape(c.Param("*"))
	tree, err := s.loadTree(ctx, &store.SiteSpace{Space: sp}, nil, "/app/s/"+sp.ID, true)
	if err != nil {
		return err
	}
	tree.spaceURL = func(id string) string { return "/app/s/" + id }
	v.Kind, v.Title = "space", sp.Title
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}, {Title: "Organization", URL: "/app/o/" + sp.OrganizationID}}
	if p := tree.find(strings.Trim(rest, "/")); p != nil {
		page, err := s.Store.FindPage(ctx, sp.RevisionID, p.ID)
		if err != nil {
			return err
		}
		v.Title = p.Title
		v.Crumbs = append(v.Crumbs, webLink{Title: sp.Title, URL: "/app/s/" + sp.ID})
		v.Sidebar = tree.sidebar(p)
		files, err := s.Store.FindAllFiles(ctx, sp.RevisionID)
		if err != nil {
			return err
		}
		opts := appLinks(sp, p, tree, files)
		opts.Block = s.pageBlocks(ctx, sp.OrganizationID, sp.RevisionID, opts)
		body, _ := opts.ToHTML(page.Markdown)
		v.Body = template.HTML(body) // sanitized by ToHTML's policy; its blocks escaped or sanitized by pageBlocks
		if v.Threads, err = s.threads(ctx, store.CommentScope{SpaceID: sp.ID}, &p.ID); err != nil {
			return err
		}
	} else if rest != "" {
		return store.Errorf(store.ENOTFOUND, "Page not found.")
	}
	if strings.Trim(rest, "/") == "" { // the space's home lists its people
		if v.People, err = s.appPeople(ctx, sp); err != nil {
			return err
		}
	}
	var crs []*store.ChangeRequest
	for _, status := range []string{"open", "draft", "merged"} {
		l, err := s.Store.FindChangeRequests(ctx, store.ChangeRequestFilter{SpaceID: sp.ID, Status: status}, store.Page{Limit: 20})
		if err != nil {
			return err
		}
		crs = append(crs, l.Items...)
	}
	for _, cr := range crs {
		v.Items = append(v.Items, webLink{Title: "#" + strconv.Itoa(cr.Number) + " " + cr.Subject,
			URL: "/app/s/" + sp.ID + "/change-requests/" + strconv.Itoa(cr.Number), Context: cr.Status})
	}
	if v.Git, err = s.appGit(ctx, sp.ID); err != nil {
		return err
	}
	return s.sendApp(c, http.StatusOK, v)
}

func (s *Server) appGit(ctx context.Context, spaceID string) (*appGit, error) {
	g, err := s.Store.FindSpaceGit(ctx, spaceID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	out := &appGit{URL: g.URL, Branch: strings.TrimPrefix(g.Ref, "refs/heads/"), Dir: g.ProjectDirectory, Commit: g.LastCommit}
	if len(out.Commit) > 7 {
		out.Commit = out.Commit[:7]
	}
	if op := g.Operation; op != nil {
		out.State, out.Direction, out.Error = op.State, op.Direction, op.Error
		when := op.StartedAt
		if op.EndedAt != nil {
			when = *op.EndedAt
		}
		out.When = when.UTC().Format("2006-01-02 15:04 UTC")
	}
	return out, nil
}

// appLinks resolves a page's links inside the app: pages of the space to their app URL (of
// another space, to that space), files to their download URL.
func appLinks(sp *store.Space, p *store.RevisionPage, tree *webTree, files []*store.RevisionFile) markdown.HTMLOptions {
	file := func(id string) (string, bool) {
		for _, f := range files {
			if f.ID == id {
				return "/files/" + f.SHA256 + "/" + url.PathEscape(f.Name), true
			}
		}
		return "", false
	}
	resolve := func(x string) (string, bool) {
		if q := tree.all[x]; q != nil {
			return q.ID, true
		}
		if q := tree.all["path:"+x]; q != nil {
			return q.ID, true
		}
		return "", false
	}
	link := func(r markdown.Ref) (string, bool) {
		switch r.Kind {
		case "url":
			return r.URL, r.URL != ""
		case "file":
			return file(r.File)
		case "page", "anchor":
			if r.Page == "" {
				return "#" + r.Anchor, true
			}
			if r.Space != "" && r.Space != sp.ID {
				return "/app/s/" + url.PathEscape(r.Space), true
			}
			q := tree.all[r.Page]
			if q == nil {
				return "", false
			}
			u := tree.pageURL(q)
			if r.Anchor != "" {
				u += "#" + r.Anchor
			}
			return u, true
		}
		return "", false
	}
	return markdown.HTMLOptions{Options: markdown.Options{SpaceID: sp.ID, PagePath: p.Path, ResolvePage: resolve}, Link: link,
		Image: func(r markdown.Ref) (string, bool) {
			if r.Kind == "file" {
				return file(r.File)
			}
			return r.URL, r.Kind == "url" && r.URL != ""
		}}
}

// appPeople lists who can read a space (its home shows them), each with their role on it.
func (s *Server) appPeople(ctx context.Context, sp *store.Space) ([]webLink, error) {
	readers, err := s.Access.ReadersOf(ctx, sp.OrganizationID, sp.ID, sp.DefaultLevel, sp.ParentID)
	if err != nil {
		return nil, err
	}
	out := make([]webLink, 0, len(readers))
	for _, r := range readers {
		out = append(out, webLink{Title: r.User.DisplayName, Context: string(r.Role)})
	}
	return out, nil
}
