package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/store"
)

// exportSpace writes a space's current revision in GitBook's Git Sync layout.
func exportSpace(args []string, stdout, stderr io.Writer) error {
	cmd := newDBCommand("export", dbUsage)
	spaceID := cmd.String("space", "", "the space to export")
	to := cmd.String("to", "", "the directory to write (empty or absent)")
	if err := cmd.parse(args, "space", "to"); err != nil {
		return err
	}
	start := time.Now()
	var sp *gitsync.Space
	if err := cmd.withStore(func(ctx context.Context, st store.Store) (err error) {
		sp, err = loadSpace(ctx, st, *spaceID)
		return err
	}); err != nil {
		return err
	}
	bar := newProgress(stderr, "exporting")
	stats, err := gitsync.Export(*to, sp, bar.step)
	bar.finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "exported %d pages, %d files, %d links to %s in %s\n",
		stats.Pages, stats.Files, stats.Links, *to, time.Since(start).Round(time.Millisecond))
	if stats.Unresolved > 0 {
		fmt.Fprintf(stderr, "warning: %d relative links lead to nothing in the space and were kept as written (import keeps them too, and notes them)\n",
			stats.Unresolved)
	}
	if stats.SkippedLinks > 0 {
		fmt.Fprintf(stderr, "warning: %d link pages open a page without a file of its own (a group, a link); they were left out\n",
			stats.SkippedLinks)
	}
	return nil
}

// loadSpace reads a space's current revision: its page tree with bodies, and its files.
func loadSpace(ctx context.Context, st store.Store, id string) (*gitsync.Space, error) {
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
	byID := map[string]*gitsync.Page{}
	out := &gitsync.Space{}
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
			gp := &gitsync.Page{ID: p.ID, Title: p.Title, Slug: p.Slug, Path: p.Path, Markdown: p.Markdown, Meta: gitsync.Meta{
				Description: p.Description, Icon: deref(p.Icon), Emoji: deref(p.Emoji), Hidden: p.Hidden,
				NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex, If: deref(p.Condition)}}
			switch p.Kind() {
			case store.PageGroup:
				gp.Kind = gitsync.KindGroup
			case store.PageLink:
				gp.Kind = gitsync.KindLink
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
	files, err := st.FindAllFiles(ctx, rev.ID)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		data, _, err := st.FindBlob(ctx, f.SHA256, f.Name)
		if err != nil {
			return nil, fmt.Errorf("file %s (%s): %w", f.ID, f.Name, err)
		}
		out.Files = append(out.Files, &gitsync.File{ID: f.ID, Name: f.Name, Data: data})
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
