package gitsync

import (
	"context"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// ApplyStore is what Apply reads and writes (a store.Store; tests make a write fail).
type ApplyStore interface {
	FindOrganizationByID(ctx context.Context, id string) (*store.Organization, error)
	FindMembers(ctx context.Context, orgID string, f store.MemberFilter, p store.Page) (store.List[*store.Member], error)
	FindSpace(ctx context.Context, id string) (*store.Space, error)
	FindRevision(ctx context.Context, spaceID, id string) (*store.Revision, error)
	FindPagesWithBodies(ctx context.Context, revisionID string, ids []string) ([]*store.RevisionPage, error)
	FindAllFiles(ctx context.Context, revisionID string) ([]*store.RevisionFile, error)
	CreateSpace(ctx context.Context, orgID, creatorID string, c store.SpaceCreate) (*store.Space, error)
	DeleteSpace(ctx context.Context, id string) error
	CreateChangeRequest(ctx context.Context, spaceID, userID, subject string) (*store.ChangeRequest, error)
	CreateChangeRequestAt(ctx context.Context, spaceID, userID, subject, revisionID string) (*store.ChangeRequest, error)
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
	// Replace makes the space match the import (a git import): the space's pages are matched
	// with the import's (match.go), so that a page whose file is still there keeps its id, and
	// those whose file is gone are deleted; otherwise the pages are added beside the space's own,
	// top-level slugs stepping aside.
	Replace bool
	// Base, when set, is an earlier revision of the space for the change request to start from
	// (the revision last synced with a git branch; Replace matches against it): its merge is then
	// three-way against that revision, keeping what the space changed since.
	Base string
	// Known are the files the replaced revision's pages were read from or written to (page id →
	// file, relative to the directory read, and blob), and Blobs the import's (file → blob): Replace
	// matches pages by them first.
	Known map[string]KnownFile
	Blobs map[string]string
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
	// UserID is who wrote it.
	UserID string
	// Unchanged says the import changed nothing: no change request was kept, and Revision is the
	// space's current one.
	Unchanged bool
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
	var rev *store.Revision
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
		if o.Base != "" {
			revID = o.Base
		}
		if o.ChangeRequest != "" {
			if cr, err = st.FindChangeRequest(ctx, sp.ID, o.ChangeRequest); err != nil {
				return nil, nil, fmt.Errorf("change request %s: %w", o.ChangeRequest, err)
			}
			if cr.Status != "open" && cr.Status != "draft" {
				return nil, nil, fmt.Errorf("change request %s is %s: only an open one can be written into", o.ChangeRequest, cr.Status)
			}
			revID = cr.RevisionID
		}
		if rev, err = st.FindRevision(ctx, sp.ID, revID); err != nil {
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
			if p.ParentID == nil && !o.Replace {
				taken[p.Slug] = true
			}
		}
		if !parentFound {
			return nil, nil, fmt.Errorf("page %s is not a page of the space", o.Parent)
		}
	}
	changes := pageChanges(im, taken)
	var plan *replacePlan
	if o.Replace && rev != nil && o.Parent == "" {
		if plan, err = planReplace(ctx, st, rev, im, o.Known, o.Blobs); err != nil {
			return nil, nil, err
		}
		changes, deletes = plan.changes[:len(im.Pages)], plan.changes[len(im.Pages):]
	}
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
	undo := func(cause error) error { // cause nil: just undo
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
		if o.Base != "" {
			cr, err = st.CreateChangeRequestAt(ctx, sp.ID, userID, o.Subject, o.Base)
		} else {
			cr, err = st.CreateChangeRequest(ctx, sp.ID, userID, o.Subject)
		}
		if err != nil {
			return nil, nil, undo(err)
		}
	}
	step := func(done, total int) {
		if progress != nil {
			progress(done, total)
		}
	}
	total := len(im.Files) + len(changes)
	// Files first: their ids go into the pages' markdown, HTML attributes included. A replacing
	// import keeps the files the revision has already.
	fileIDs := map[string]string{}
	upload := im.Files
	var stale []string
	if plan != nil {
		have, err := st.FindAllFiles(ctx, rev.ID)
		if err != nil {
			return nil, nil, undo(err)
		}
		upload, stale = reuseFiles(have, im.Files, fileIDs)
	}
	if len(upload) > 0 {
		uploads := make([]store.FileUpload, 0, len(upload))
		for _, f := range upload {
			uploads = append(uploads, store.FileUpload{Ref: ptr(f.Ref), Name: f.Name, ContentType: f.ContentType, Data: f.Data})
		}
		res, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, userID, []store.PageChange{{Type: "insert_files", Files: uploads}})
		if err != nil {
			return nil, nil, undo(err)
		}
		for ref, id := range res.Refs {
			fileIDs[ref] = id
		}
	}
	step(len(im.Files), total)
	// Reusable contents first: the pages include them by their refs (or ids, kept by a replace).
	reusable, ids := reusableChanges(im, had, im.ReusableMarkdown(fileIDs))
	batch := make([]store.PageChange, 0, len(reusable)+len(changes)+len(deletes))
	batch = append(batch, reusable...)
	for i, md := range im.Markdown(fileIDs) {
		md = byID(md, ids)
		if plan != nil {
			md = store.RewriteRefs(md, plan.matched, nil)
			if old := plan.old[deref(changes[i].Page)]; changes[i].Type == "update_page" && old != nil && old.Markdown == md {
				if !noop(changes[i]) {
					batch = append(batch, changes[i])
				}
				continue
			}
		}
		changes[i].Markdown = &md
		batch = append(batch, changes[i])
	}
	batch = append(batch, deletes...)
	if len(stale) > 0 { // the files the import no longer has
		batch = append(batch, store.PageChange{Type: "delete_files", FileIDs: stale})
	}
	res := &store.BatchResult{Revision: cr.RevisionID, Refs: map[string]string{}}
	if len(batch) > 0 {
		if res, err = st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, userID, batch); err != nil {
			return nil, nil, undo(err)
		}
	}
	if plan != nil {
		for ref, id := range plan.matched {
			res.Refs[ref] = id
		}
	}
	if plan != nil && len(batch) == 0 && len(upload) == 0 && !existing && !created {
		// Nothing to change: the change request is not kept.
		if err := undo(nil); err != nil {
			return nil, nil, err
		}
		return sp, &Applied{Revision: sp.RevisionID, PageIDs: res.Refs, UserID: userID, Unchanged: true}, nil
	}
	step(total, total)
	if o.Open || existing {
		return sp, &Applied{Revision: res.Revision, ChangeRequest: cr.ID, PageIDs: res.Refs, UserID: userID}, nil
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
	return sp, &Applied{Revision: revID, ChangeRequest: cr.ID, PageIDs: res.Refs, UserID: userID}, nil
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
