package gitsync

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/quire-docs/quire/store"
)

// ApplyStore is what Apply reads and writes (a store.Store; tests make a write fail).
type ApplyStore interface {
	FindOrganizationByID(ctx context.Context, id string) (*store.Organization, error)
	FindMembers(ctx context.Context, orgID string, f store.MemberFilter, p store.Page) (store.List[*store.Member], error)
	FindSpace(ctx context.Context, id string) (*store.Space, error)
	FindRevision(ctx context.Context, spaceID, id string) (*store.Revision, error)
	CreateSpace(ctx context.Context, orgID, creatorID string, c store.SpaceCreate) (*store.Space, error)
	DeleteSpace(ctx context.Context, id string) error
	CreateChangeRequest(ctx context.Context, spaceID, userID, subject string) (*store.ChangeRequest, error)
	FindChangeRequest(ctx context.Context, spaceID string, idOrNumber string) (*store.ChangeRequest, error)
	UpdateChangeRequest(ctx context.Context, spaceID, id string, upd store.ChangeRequestUpdate) (*store.ChangeRequest, error)
	UpdateChangeRequestContent(ctx context.Context, spaceID, crID, userID string, changes []store.PageChange) (*store.BatchResult, error)
	MergeChangeRequest(ctx context.Context, spaceID, crID, userID string) (string, bool, error)
	FindReusableContents(ctx context.Context, revisionID string) ([]*store.ReusableContent, error)
}

// ApplyOptions say where an import goes and as whom.
type ApplyOptions struct {
	OrgID   string
	SpaceID string // an existing space; "" makes a new one titled as the import
	UserID  string // who writes; "" for the organization's first admin
	Subject string // the change request's subject
	// Replace deletes the space's pages first, so that the space matches the import (a git
	// import); otherwise the pages are added beside the space's own, top-level slugs stepping aside.
	Replace bool
	// Open leaves the change request open instead of merging it: the space's content stays as it
	// is (a standalone git import).
	Open bool
	// ChangeRequest, when set, is an open change request of the space to write into (and leave
	// open) instead of a new one.
	ChangeRequest string
	// Parent, when set, is a page (of the space, or of the change request) the import's top-level
	// pages go under; the slugs of its children step aside.
	Parent string
}

// Applied is what Apply wrote.
type Applied struct {
	Revision      string // the merged revision, or the open change request's
	ChangeRequest string
	PageIDs       map[string]string // page ref (ImportPage.Ref) → the page's id
}

// Apply writes an import into a space through one change request, merged. A write failing midway
// removes the space it created (or archives the change request of an existing space): the space
// is as it was.
func Apply(ctx context.Context, st ApplyStore, im *Import, o ApplyOptions, progress Progress) (*store.Space, *Applied, error) {
	orgID, spaceID := o.OrgID, o.SpaceID
	if _, err := st.FindOrganizationByID(ctx, orgID); err != nil {
		return nil, nil, fmt.Errorf("organization %s: %w", orgID, err)
	}
	userID := o.UserID
	if userID == "" {
		admin := string(store.RoleAdmin)
		admins, err := st.FindMembers(ctx, orgID, store.MemberFilter{Role: &admin, Asc: true}, store.Page{Limit: 1})
		if err != nil {
			return nil, nil, err
		}
		if len(admins.Items) == 0 {
			return nil, nil, fmt.Errorf("organization %s has no admin to import as", orgID)
		}
		userID = admins.Items[0].User.ID
	}
	var err error
	var sp *store.Space
	var cr *store.ChangeRequest
	taken := map[string]bool{}
	var deletes []store.PageChange
	var had []*store.ReusableContent // the reusable contents a replaced space held
	if spaceID != "" {
		if sp, err = st.FindSpace(ctx, spaceID); err != nil {
			return nil, nil, fmt.Errorf("space %s: %w", spaceID, err)
		}
		if sp.OrganizationID != orgID || sp.DeletedAt != nil {
			return nil, nil, fmt.Errorf("space %s is not a space of organization %s", spaceID, orgID)
		}
		if sp.EditMode == "locked" {
			return nil, nil, fmt.Errorf("space %s is locked: its content cannot change", spaceID)
		}
		revID := sp.RevisionID
		if o.ChangeRequest != "" {
			if cr, err = st.FindChangeRequest(ctx, sp.ID, o.ChangeRequest); err != nil {
				return nil, nil, fmt.Errorf("change request %s: %w", o.ChangeRequest, err)
			}
			if cr.Status != "open" && cr.Status != "draft" {
				return nil, nil, fmt.Errorf("change request %s is %s: only an open one can be written into", o.ChangeRequest, cr.Status)
			}
			revID = cr.RevisionID
		}
		rev, err := st.FindRevision(ctx, sp.ID, revID)
		if err != nil {
			return nil, nil, err
		}
		if o.Replace {
			if had, err = st.FindReusableContents(ctx, rev.ID); err != nil {
				return nil, nil, err
			}
		}
		parentFound := o.Parent == ""
		for _, p := range rev.Pages {
			if p.ID == o.Parent {
				parentFound = true
			}
			if o.Parent != "" {
				if p.ParentID != nil && *p.ParentID == o.Parent {
					taken[p.Slug] = true
				}
				continue
			}
			if p.ParentID == nil {
				if o.Replace {
					deletes = append(deletes, store.PageChange{Type: "delete_page", Page: ptr(p.ID)})
				} else {
					taken[p.Slug] = true
				}
			}
		}
		if !parentFound {
			return nil, nil, fmt.Errorf("page %s is not a page of the space", o.Parent)
		}
	}
	changes := pageChanges(im, taken)
	if o.Parent != "" {
		for i, p := range im.Pages {
			if p.Parent < 0 {
				changes[i].Into = ptr(o.Parent)
			}
		}
	}

	// The writes. From here a failure undoes what was written.
	created := false
	if sp == nil {
		if sp, err = st.CreateSpace(ctx, orgID, userID, store.SpaceCreate{Title: im.Title}); err != nil {
			return nil, nil, err
		}
		created = true
	}
	existing := cr != nil
	undo := func(cause error) error {
		if created {
			if err := st.DeleteSpace(ctx, sp.ID); err != nil {
				return fmt.Errorf("%w (and removing space %s failed: %v)", cause, sp.ID, err)
			}
		} else if cr != nil && !existing {
			archived := "archived"
			if _, err := st.UpdateChangeRequest(ctx, sp.ID, cr.ID, store.ChangeRequestUpdate{Status: &archived}); err != nil {
				return fmt.Errorf("%w (and archiving change request %s failed: %v)", cause, cr.ID, err)
			}
		}
		return cause
	}
	if !existing {
		if cr, err = st.CreateChangeRequest(ctx, sp.ID, userID, o.Subject); err != nil {
			return nil, nil, undo(err)
		}
	}
	step := func(done, total int) {
		if progress != nil {
			progress(done, total)
		}
	}
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
			return nil, nil, undo(err)
		}
		fileIDs = res.Refs
		step(len(im.Files), total)
	}
	reusable, ids := reusableChanges(im, had, im.ReusableMarkdown(fileIDs))
	for i, md := range im.Markdown(fileIDs) {
		md = byID(md, ids)
		changes[i].Markdown = &md
	}
	res, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, userID, append(append(deletes, reusable...), changes...))
	if err != nil {
		return nil, nil, undo(err)
	}
	step(total, total)
	if o.Open || existing {
		return sp, &Applied{Revision: res.Revision, ChangeRequest: cr.ID, PageIDs: res.Refs}, nil
	}
	revID, conflicts, err := st.MergeChangeRequest(ctx, sp.ID, cr.ID, userID)
	if err == nil && conflicts {
		err = errors.New("the change request has conflicts with the space")
	}
	if err != nil {
		return nil, nil, undo(err)
	}
	sp, err = st.FindSpace(ctx, sp.ID)
	if err != nil {
		return nil, nil, err
	}
	return sp, &Applied{Revision: revID, ChangeRequest: cr.ID, PageIDs: res.Refs}, nil
}

// reusableChanges makes the changes of an import's reusable contents (markdown: theirs to write):
// one a replaced space held in the file of the same name (had, as export names them) is updated
// and keeps its id, which the import's includes of it take (ids: ref → id); the others are
// inserted; those of had the import has no file for are deleted.
func reusableChanges(im *Import, had []*store.ReusableContent, markdown []string) ([]store.PageChange, map[string]string) {
	slugs := IncludeSlugs(had)
	bySlug := map[string]string{}
	for id, slug := range slugs {
		bySlug[slug] = id
	}
	ids := map[string]string{}
	var out []store.PageChange
	for i, r := range im.Reusable {
		md := markdown[i]
		if id, ok := bySlug[r.Slug]; ok {
			ids[r.Ref] = id
			delete(bySlug, r.Slug)
			out = append(out, store.PageChange{Type: "update_reusable_content", ReusableContent: ptr(id), Title: ptr(r.Title), Markdown: &md})
			continue
		}
		out = append(out, store.PageChange{Type: "insert_reusable_content", Ref: ptr(r.Ref), Title: ptr(r.Title), Markdown: &md})
	}
	for _, r := range had {
		if bySlug[slugs[r.ID]] == r.ID { // no file of the import took it
			out = append(out, store.PageChange{Type: "delete_reusable_content", ReusableContent: ptr(r.ID)})
		}
	}
	for i := range out {
		if out[i].Markdown != nil {
			md := byID(*out[i].Markdown, ids)
			out[i].Markdown = &md
		}
	}
	return out, ids
}

// byID rewrites the include tags of markdown naming a ref of ids by the id.
func byID(md string, ids map[string]string) string {
	out, _ := store.RewriteIncludes(md, func(name string) (string, error) {
		if id, ok := ids[name]; ok {
			return id, nil
		}
		return name, nil
	})
	return out
}

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
