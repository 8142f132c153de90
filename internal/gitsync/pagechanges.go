package gitsync

import (
	"strconv"

	"github.com/quire-docs/quire/store"
)

// pageChanges makes the insert_page changes of an import (markdown set later); top-level slugs
// step aside from the taken ones of an existing space (im's pages take the new slugs).
func pageChanges(im *Import, taken map[string]bool) []store.PageChange {
	changes := make([]store.PageChange, 0, len(im.Pages))
	for _, p := range im.Pages {
		slug := p.Slug
		if p.Parent < 0 {
			for n := 2; taken[slug]; n++ {
				slug = p.Slug + "-" + strconv.Itoa(n)
			}
			taken[slug] = true
			p.Slug = slug
		}
		if p.Kind == KindLink { // a link takes a title and its target only
			c := store.PageChange{Type: "insert_page", Ref: ptr(p.Ref), Title: ptr(p.Title), SetInto: true,
				PageType: ptr(store.PageLink), Target: importLinkTarget(p)}
			if p.Parent >= 0 {
				c.Into = ptr(im.Pages[p.Parent].Ref)
			}
			changes = append(changes, c)
			continue
		}
		c := store.PageChange{Type: "insert_page", Ref: ptr(p.Ref), Title: ptr(p.Title), Slug: ptr(slug), SetInto: true,
			Description: ptr(p.Meta.Description), Hidden: ptr(p.Meta.Hidden), NoIndex: ptr(p.Meta.NoIndex),
			NoRobotsIndex: ptr(p.Meta.NoRobotsIndex)}
		if p.Parent >= 0 {
			c.Into = ptr(im.Pages[p.Parent].Ref)
		}
		if p.Kind == KindGroup {
			c.PageType = ptr(store.PageGroup)
		}
		if p.Meta.Icon != "" {
			c.Icon = ptr(p.Meta.Icon)
		}
		if p.Meta.Emoji != "" {
			c.Emoji = ptr(p.Meta.Emoji)
		}
		if p.Meta.If != "" {
			c.Condition = ptr(p.Meta.If)
		}
		changes = append(changes, c)
	}
	return changes
}

// linkTarget is what an imported link page opens: its URL, a page (of the import by its ref, or of
// another space by id) or a space.
func importLinkTarget(p *ImportPage) *store.PageTarget {
	switch {
	case p.URL != "":
		return &store.PageTarget{Kind: store.TargetURL, URL: p.URL}
	case p.LinkPage != "":
		return &store.PageTarget{Kind: store.TargetPage, Page: p.LinkPage, Space: p.LinkSpace}
	default:
		return &store.PageTarget{Kind: store.TargetSpace, Space: p.LinkSpace}
	}
}

func ptr[T any](v T) *T { return &v }
