package store

import (
	"net/url"
	"strings"
)

// checkTarget refuses a target that cannot be opened: a URL that is not absolute http(s) or
// mailto, a page or space ref without its id.
func checkTarget(t *PageTarget) error {
	switch t.Kind {
	case TargetURL:
		u, err := url.Parse(t.URL)
		if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
			return FieldErrorf("target.url", "%q is not an absolute URL", t.URL)
		}
		switch strings.ToLower(u.Scheme) {
		case "http", "https", "mailto":
		default:
			return FieldErrorf("target.url", "scheme %q is not allowed; use http, https or mailto", u.Scheme)
		}
	case TargetPage:
		if t.Page == "" {
			return FieldErrorf("target.page", "is required")
		}
	case TargetSpace:
		if t.Space == "" {
			return FieldErrorf("target.space", "is required")
		}
	default:
		return FieldErrorf("target.kind", "%q is not a link target; use url, page or space", t.Kind)
	}
	return nil
}

// checkKind refuses what a change gives that the page's kind does not take: a group has no
// content, description or parent; a link no content, description, slug, indexing flags or
// subpages; only a link has a target.
func (t *PageTree) checkKind(p *RevisionPage, c PageChange) error {
	kind := p.Kind()
	if c.Target != nil && kind != PageLink {
		return FieldErrorf("target", "only a link page has a target; this page is a %s", kind)
	}
	if kind == PageDocument {
		return nil
	}
	if c.Markdown != nil && *c.Markdown != "" {
		return FieldErrorf("document", "a %s page has no content", kind)
	}
	if c.Description != nil && *c.Description != "" {
		return FieldErrorf("description", "a %s page has no description", kind)
	}
	if c.SetCover && c.Cover != nil {
		return FieldErrorf("cover", "a %s page has no cover: only a document page shows one", kind)
	}
	if kind == PageGroup && p.ParentID != nil {
		return FieldErrorf("into", "a group page stays at the top level")
	}
	if kind == PageLink {
		switch {
		case c.Slug != nil:
			return FieldErrorf("slug", "a link page has no slug: it opens its target")
		case c.NoIndex != nil:
			return FieldErrorf("noIndex", "a link page has no content to index")
		case c.NoRobotsIndex != nil:
			return FieldErrorf("noRobotsIndex", "a link page has no content to index")
		}
		if c.Target != nil {
			if err := checkTarget(c.Target); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkParent refuses a parent that cannot hold subpages: a link.
func (t *PageTree) checkParent(p *RevisionPage) error {
	if p.ParentID == nil {
		return nil
	}
	if parent := t.get(*p.ParentID); parent != nil && parent.Kind() == PageLink {
		return FieldErrorf("into", "%q is a link page, which has no subpages", parent.Title)
	}
	return nil
}

// checkKinds checks a change against the kind of the page it creates or updates (placed already)
// and resolves a page target named by a ref of the batch to its id.
func (t *PageTree) checkKinds(p *RevisionPage, c *PageChange) error {
	if err := t.checkParent(p); err != nil {
		return err
	}
	if err := t.checkKind(p, *c); err != nil {
		return err
	}
	if c.Target != nil && c.Target.Kind == TargetPage && c.Target.Space == "" {
		id := t.resolve(c.Target.Page)
		if id == "" {
			return FieldErrorf("target.page", "no page %q in the change request's content", c.Target.Page)
		}
		if id == p.ID {
			return FieldErrorf("target.page", "a link page cannot open itself")
		}
		target := *c.Target
		target.Page = id
		c.Target = &target
	}
	return nil
}
