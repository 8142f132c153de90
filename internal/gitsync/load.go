package gitsync

import (
	"context"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// LoadStore is what Load reads.
type LoadStore interface {
	FindSpace(ctx context.Context, id string) (*store.Space, error)
	FindRevision(ctx context.Context, spaceID, id string) (*store.Revision, error)
	FindPagesWithBodies(ctx context.Context, revisionID string, ids []string) ([]*store.RevisionPage, error)
	FindAllFiles(ctx context.Context, revisionID string) ([]*store.RevisionFile, error)
	FindBlob(ctx context.Context, sha256, name string) ([]byte, string, error)
	FindReusableContents(ctx context.Context, revisionID string) ([]*store.ReusableContent, error)
}

// Load reads a space's current revision, what Export writes: its page tree with bodies, its
// files and its reusable contents.
func Load(ctx context.Context, st LoadStore, id string) (*Space, error) {
	space, err := st.FindSpace(ctx, id)
	if err != nil {
		return nil, err
	}
	if space.DeletedAt != nil {
		return nil, fmt.Errorf("space %s is deleted", id)
	}
	rev, err := st.FindRevision(ctx, space.ID, space.RevisionID)
	if err != nil {
		return nil, err
	}
	byID := map[string]*Page{}
	out := &Space{}
	// Bodies in batches, so that a large space is not held twice.
	const batch = 200
	for i := 0; i < len(rev.Pages); i += batch {
		ids := make([]string, 0, batch)
		for _, p := range rev.Pages[i:min(i+batch, len(rev.Pages))] {
			ids = append(ids, p.ID)
		}
		pages, err := st.FindPagesWithBodies(ctx, rev.ID, ids)
		if err != nil {
			return nil, err
		}
		for _, p := range pages {
			gp := &Page{ID: p.ID, Title: p.Title, Slug: p.Slug, Path: p.Path, Markdown: p.Markdown, Meta: Meta{
				Description: p.Description, Icon: deref(p.Icon), Emoji: deref(p.Emoji), Hidden: p.Hidden,
				NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex, If: deref(p.Condition)}}
			switch p.Kind() {
			case store.PageGroup:
				gp.Kind = KindGroup
			case store.PageLink:
				gp.Kind = KindLink
				if t := p.Target; t != nil {
					switch t.Kind {
					case store.TargetURL:
						gp.URL = t.URL
					case store.TargetPage:
						gp.LinkPage, gp.LinkSpace = t.Page, t.Space
					case store.TargetSpace:
						gp.LinkSpace = t.Space
					}
				}
			}
			byID[p.ID] = gp
		}
	}
	// rev.Pages is in tree order: a parent comes before its children.
	for _, p := range rev.Pages {
		gp := byID[p.ID]
		if gp == nil {
			return nil, fmt.Errorf("page %s has no body", p.ID)
		}
		if p.ParentID == nil {
			out.Pages = append(out.Pages, gp)
		} else if parent := byID[*p.ParentID]; parent != nil {
			parent.Children = append(parent.Children, gp)
		}
	}
	if out.Reusable, err = st.FindReusableContents(ctx, rev.ID); err != nil {
		return nil, err
	}
	files, err := st.FindAllFiles(ctx, rev.ID)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		data, _, err := st.FindBlob(ctx, f.SHA256, f.Name)
		if err != nil {
			return nil, fmt.Errorf("file %s (%s): %w", f.ID, f.Name, err)
		}
		out.Files = append(out.Files, &File{ID: f.ID, Name: f.Name, Data: data})
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
