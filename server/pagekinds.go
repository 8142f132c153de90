package server

import (
	"context"
	"fmt"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Group and link pages on the wire: a link's target in GitBook's ContentRef shape, both ways, and
// the address it opens.

// toAPILinkTarget is a link page's target as the API answers it.
func toAPILinkTarget(t *store.PageTarget) (gen.PageLinkTarget, error) {
	var out gen.PageLinkTarget
	if t == nil {
		return out, fmt.Errorf("link page without a target")
	}
	switch t.Kind {
	case store.TargetURL:
		return out, out.FromPageLinkTargetURL(gen.PageLinkTargetURL{Kind: gen.PageLinkTargetURLKindUrl, Url: t.URL})
	case store.TargetPage:
		ref := gen.PageLinkTargetPage{Kind: gen.PageLinkTargetPageKindPage, Page: t.Page}
		if t.Space != "" {
			space := t.Space
			ref.Space = &space
		}
		return out, out.FromPageLinkTargetPage(ref)
	}
	return out, out.FromPageLinkTargetSpace(gen.PageLinkTargetSpace{Kind: gen.PageLinkTargetSpaceKindSpace, Space: t.Space})
}

// toLinkTarget reads a change's target (field names the change's field for a 400).
func toLinkTarget(i int, t *gen.PageLinkTarget) (*store.PageTarget, error) {
	if t == nil {
		return nil, nil
	}
	kind, err := t.Discriminator()
	if err != nil {
		return nil, batchError(i, "target.kind", "%s", err.Error())
	}
	switch kind {
	case "url":
		v, err := t.AsPageLinkTargetURL()
		if err != nil {
			return nil, batchError(i, "target", "%s", err.Error())
		}
		return &store.PageTarget{Kind: store.TargetURL, URL: v.Url}, nil
	case "page":
		v, err := t.AsPageLinkTargetPage()
		if err != nil {
			return nil, batchError(i, "target", "%s", err.Error())
		}
		out := &store.PageTarget{Kind: store.TargetPage, Page: v.Page}
		if v.Space != nil {
			out.Space = *v.Space
		}
		return out, nil
	case "space":
		v, err := t.AsPageLinkTargetSpace()
		if err != nil {
			return nil, batchError(i, "target", "%s", err.Error())
		}
		return &store.PageTarget{Kind: store.TargetSpace, Space: v.Space}, nil
	}
	return nil, batchError(i, "target.kind", "%q is not a link target; use url, page or space", kind)
}

// checkLinkSpaces refuses a link to a space (or a page of another space) the caller cannot read:
// a link must not tell that a space exists where the caller could not see it.
func (s *Server) checkLinkSpaces(ctx context.Context, changes []store.PageChange) error {
	readable := map[string]*store.Space{} // each space named is looked up once per batch
	for i, c := range changes {
		if c.Target == nil || c.Target.Space == "" {
			continue
		}
		sp := readable[c.Target.Space]
		if sp == nil {
			var err error
			if sp, _, err = s.Access.FindSpace(ctx, c.Target.Space, store.RoleRead); err != nil {
				return batchError(i, "target.space", "no space %q you can read", c.Target.Space)
			}
			readable[c.Target.Space] = sp
		}
		if c.Target.Kind == store.TargetPage {
			if _, err := s.Store.FindPage(ctx, sp.RevisionID, c.Target.Page); err != nil {
				return batchError(i, "target.page", "no page %q in space %q", c.Target.Page, c.Target.Space)
			}
		}
	}
	return nil
}

// linkHref is the address a link page opens: its URL, or quire's app view of the page (at path,
// known only for a page of the same space) or space it names.
func (s *Server) linkHref(sp *store.Space, t *store.PageTarget, path string) *string {
	var href string
	switch {
	case t == nil:
		return nil
	case t.Kind == store.TargetURL:
		href = t.URL
	case t.Kind == store.TargetSpace:
		href = s.appURL("/s/" + t.Space)
	case t.Space == "" && path != "":
		href = s.appURL("/s/" + sp.ID + "/" + path)
	default:
		return nil
	}
	return &href
}
