package sqlstore

import (
	"context"
	"fmt"
	"sort"

	"github.com/quire-docs/quire/store"
)

// ApplyTemplate adds a template's pages (the batch TemplateChanges made) to a space's current
// content, or with crID to a change request's, as one new revision whose parent is the revision
// it replaces. The existing pages are left as they are; links written with the batch's refs
// (/pages/<ref>) are stored with the ids the refs were given. files are the contentRefs the batch
// was made with (name to file id): each must be a file of the revision the pages are added to,
// else the whole template is refused (EINVALID naming the ref). A locked space refuses it, and so
// does a change request that takes no more changes.
func (s *Store) ApplyTemplate(ctx context.Context, spaceID, crID string, changes []store.PageChange, files map[string]string) (revision string, err error) {
	err = s.write(ctx, func(tx *Tx) error {
		if crID != "" {
			_, cr, err := writableChangeRequest(ctx, tx, spaceID, crID)
			if err != nil {
				return err
			}
			revision, err = applyTemplateToChangeRequest(ctx, tx, spaceID, cr, changes, files)
			return err
		}
		sp, err := findLiveSpace(ctx, tx, spaceID)
		if err != nil {
			return err
		}
		if err := checkWritable(sp, nil); err != nil {
			return err
		}
		revision, err = applyTemplateToMain(ctx, tx, sp, changes, files)
		return err
	})
	return revision, err
}

// applyTemplateToMain writes a template's pages as a new current revision of a space and has the
// search index brought up to date after the commit (deferIndex).
func applyTemplateToMain(ctx context.Context, tx *Tx, sp *store.Space, changes []store.PageChange, files map[string]string) (string, error) {
	if err := checkTemplateFiles(ctx, tx, sp.RevisionID, files); err != nil {
		return "", err
	}
	revision, _, err := applyBatch(ctx, tx, sp.ID, sp.RevisionID, "", changes)
	if err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE spaces SET revision_id = ?, updated_at = ? WHERE id = ?`,
		revision, formatTime(tx.now), sp.ID); err != nil {
		return "", fmt.Errorf("store: unable to apply the template: %w", err)
	}
	return revision, deferIndex(ctx, tx, sp.ID, sp.RevisionID)
}

// applyTemplateToChangeRequest writes a template's pages as a new revision of a change request.
func applyTemplateToChangeRequest(ctx context.Context, tx *Tx, spaceID string, cr *store.ChangeRequest, changes []store.PageChange, files map[string]string) (string, error) {
	if err := checkTemplateFiles(ctx, tx, cr.RevisionID, files); err != nil {
		return "", err
	}
	revision, _, err := applyBatch(ctx, tx, spaceID, cr.RevisionID, cr.ID, changes)
	if err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE change_requests SET revision_id = ?, updated_at = ? WHERE id = ?`,
		revision, formatTime(tx.now), cr.ID); err != nil {
		return "", fmt.Errorf("store: unable to apply the template: %w", err)
	}
	return revision, nil
}

// checkTemplateFiles refuses contentRefs naming a file the revision does not have.
func checkTemplateFiles(ctx context.Context, tx *Tx, revisionID string, files map[string]string) error {
	if len(files) == 0 {
		return nil
	}
	names := make([]string, 0, len(files))
	ids := make([]string, 0, len(files))
	for name, id := range files {
		names = append(names, name)
		ids = append(ids, id)
	}
	sort.Strings(names)
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	have, err := revisionFiles(ctx, tx, revisionID, "f.file_id IN ("+placeholders(len(ids))+")", args...)
	if err != nil {
		return err
	}
	found := map[string]bool{}
	for _, f := range have {
		found[f.ID] = true
	}
	for _, name := range names {
		if !found[files[name]] {
			return store.FieldErrorf("params.contentRefs."+name, "the space's content has no file %q", files[name])
		}
	}
	return nil
}
