package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/store"
)

// importSpace reads a directory in Git Sync layout into a space through one change request,
// merged. Everything is read and checked before the first write; a write failing midway removes
// the space it created (or archives the change request of an existing space).
func importSpace(args []string, stdout, stderr io.Writer) error {
	cmd := newDBCommand("import", dbUsage)
	orgID := cmd.String("org", "", "the organization to import into")
	from := cmd.String("from", "", "the directory to read")
	spaceID := cmd.String("space", "", "an existing space to add the pages to (default: a new space)")
	if err := cmd.parse(args, "org", "from"); err != nil {
		return err
	}
	start := time.Now()
	bar := newProgress(stderr, "reading")
	im, err := gitsync.Read(*from, bar.step)
	bar.finish()
	if err != nil {
		return fmt.Errorf("nothing imported: %w", err)
	}
	for _, n := range im.Notes {
		fmt.Fprintf(stderr, "note: %v\n", n)
	}
	if len(im.Pages) == 0 {
		return errors.New("nothing imported: the table of contents lists no pages")
	}
	var sp *store.Space
	if err := cmd.withStore(func(ctx context.Context, st store.Store) (err error) {
		sp, err = importInto(ctx, st, im, *orgID, *spaceID, *from, stderr)
		if err != nil {
			return fmt.Errorf("nothing imported: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %d pages, %d files, %d links into space %s (%q) in %s\n",
		len(im.Pages), len(im.Files), im.Links, sp.ID, sp.Title, time.Since(start).Round(time.Millisecond))
	if len(im.Notes) > 0 {
		fmt.Fprintf(stdout, "%d notes: what was kept as written or left out is listed above\n", len(im.Notes))
	}
	return nil
}

// importStore is what an import reads and writes (a store.Store; tests make a write fail).
type importStore interface {
	FindOrganizationByID(ctx context.Context, id string) (*store.Organization, error)
	FindMembers(ctx context.Context, orgID string, f store.MemberFilter, p store.Page) (store.List[*store.Member], error)
	FindSpace(ctx context.Context, id string) (*store.Space, error)
	FindRevision(ctx context.Context, spaceID, id string) (*store.Revision, error)
	CreateSpace(ctx context.Context, orgID, creatorID string, c store.SpaceCreate) (*store.Space, error)
	DeleteSpace(ctx context.Context, id string) error
	CreateChangeRequest(ctx context.Context, spaceID, userID, subject string) (*store.ChangeRequest, error)
	UpdateChangeRequest(ctx context.Context, spaceID, id string, upd store.ChangeRequestUpdate) (*store.ChangeRequest, error)
	UpdateChangeRequestContent(ctx context.Context, spaceID, crID, userID string, changes []store.PageChange) (*store.BatchResult, error)
	MergeChangeRequest(ctx context.Context, spaceID, crID, userID string) (string, bool, error)
}

func importInto(ctx context.Context, st importStore, im *gitsync.Import, orgID, spaceID, from string, stderr io.Writer) (*store.Space, error) {
	if _, err := st.FindOrganizationByID(ctx, orgID); err != nil {
		return nil, fmt.Errorf("organization %s: %w", orgID, err)
	}
	admin := string(store.RoleAdmin)
	admins, err := st.FindMembers(ctx, orgID, store.MemberFilter{Role: &admin, Asc: true}, store.Page{Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(admins.Items) == 0 {
		return nil, fmt.Errorf("organization %s has no admin to import as", orgID)
	}
	userID := admins.Items[0].User.ID
	var sp *store.Space
	taken := map[string]bool{}
	if spaceID != "" {
		if sp, err = st.FindSpace(ctx, spaceID); err != nil {
			return nil, fmt.Errorf("space %s: %w", spaceID, err)
		}
		if sp.OrganizationID != orgID || sp.DeletedAt != nil {
			return nil, fmt.Errorf("space %s is not a space of organization %s", spaceID, orgID)
		}
		if sp.EditMode == "locked" {
			return nil, fmt.Errorf("space %s is locked: its content cannot change", spaceID)
		}
		rev, err := st.FindRevision(ctx, sp.ID, sp.RevisionID)
		if err != nil {
			return nil, err
		}
		for _, p := range rev.Pages {
			if p.ParentID == nil {
				taken[p.Slug] = true
			}
		}
	}
	changes := pageChanges(im, taken)

	// The writes. From here a failure undoes what was written.
	created := false
	if sp == nil {
		if sp, err = st.CreateSpace(ctx, orgID, userID, store.SpaceCreate{Title: im.Title}); err != nil {
			return nil, err
		}
		created = true
	}
	var cr *store.ChangeRequest
	undo := func(cause error) error {
		if created {
			if err := st.DeleteSpace(ctx, sp.ID); err != nil {
				return fmt.Errorf("%w (and removing space %s failed: %v)", cause, sp.ID, err)
			}
		} else if cr != nil {
			archived := "archived"
			if _, err := st.UpdateChangeRequest(ctx, sp.ID, cr.ID, store.ChangeRequestUpdate{Status: &archived}); err != nil {
				return fmt.Errorf("%w (and archiving change request %s failed: %v)", cause, cr.ID, err)
			}
		}
		return cause
	}
	if cr, err = st.CreateChangeRequest(ctx, sp.ID, userID, "Import from "+filepath.Base(from)); err != nil {
		return nil, undo(err)
	}
	bar := newProgress(stderr, "writing")
	total := len(im.Files) + len(changes)
	// Files first: their ids go into the pages' markdown, HTML attributes included.
	fileIDs := map[string]string{}
	if len(im.Files) > 0 {
		uploads := make([]store.FileUpload, 0, len(im.Files))
		for _, f := range im.Files {
			uploads = append(uploads, store.FileUpload{Ref: ptr(f.Ref), Name: f.Name, ContentType: f.ContentType, Data: f.Data})
		}
		res, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, userID, []store.PageChange{{Type: "insert_files", Files: uploads}})
		if err != nil {
			return nil, undo(err)
		}
		fileIDs = res.Refs
		bar.step(len(im.Files), total)
	}
	for i, md := range im.Markdown(fileIDs) {
		changes[i].Markdown = &md
	}
	if _, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, userID, changes); err != nil {
		return nil, undo(err)
	}
	bar.step(total, total)
	bar.finish()
	_, conflicts, err := st.MergeChangeRequest(ctx, sp.ID, cr.ID, userID)
	if err == nil && conflicts {
		err = errors.New("the change request has conflicts with the space")
	}
	if err != nil {
		return nil, undo(err)
	}
	return st.FindSpace(ctx, sp.ID)
}

// pageChanges makes the insert_page changes of an import (markdown set later); top-level slugs
// step aside from the taken ones of an existing space (im's pages take the new slugs).
func pageChanges(im *gitsync.Import, taken map[string]bool) []store.PageChange {
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
		if p.Kind == gitsync.KindLink { // a link takes a title and its target only
			c := store.PageChange{Type: "insert_page", Ref: ptr(p.Ref), Title: ptr(p.Title), SetInto: true,
				PageType: ptr(store.PageLink), Target: linkTarget(p)}
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
		if p.Kind == gitsync.KindGroup {
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
func linkTarget(p *gitsync.ImportPage) *store.PageTarget {
	switch {
	case p.URL != "":
		return &store.PageTarget{Kind: store.TargetURL, URL: p.URL}
	case p.LinkPage != "":
		return &store.PageTarget{Kind: store.TargetPage, Page: p.LinkPage, Space: p.LinkSpace}
	default:
		return &store.PageTarget{Kind: store.TargetSpace, Space: p.LinkSpace}
	}
}
