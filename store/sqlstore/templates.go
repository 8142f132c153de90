package sqlstore

import (
	"context"
	"fmt"
	"sort"

	"github.com/quire-docs/quire/store"
)

// ApplyTemplate adds a template's pages (the batch TemplateChanges made) to a space's current
// content as one new revision, whose parent is the revision it replaces, and brings the search
// index up to date. The existing pages are left as they are; links written with the batch's refs
// (/pages/<ref>) are stored with the ids the refs were given. files are the contentRefs the batch
// was made with (name to file id): each must be a file of the space's current revision, else the
// whole template is refused (EINVALID naming the ref). A locked space refuses it.
func (s *Store) ApplyTemplate(ctx context.Context, spaceID string, changes []store.PageChange, files map[string]string) (revision string, err error) {
	err = s.write(ctx, func(tx *Tx) error {
		revision, err = applyTemplate(ctx, tx, spaceID, changes, files)
		return err
	})
	return revision, err
}

// applyTemplate is ApplyTemplate inside a write.
func applyTemplate(ctx context.Context, tx *Tx, spaceID string, changes []store.PageChange, files map[string]string) (string, error) {
	sp, err := findLiveSpace(ctx, tx, spaceID)
	if err != nil {
		return "", err
	}
	if err := checkWritable(sp, nil); err != nil {
		return "", err
	}
	if err := checkTemplateFiles(ctx, tx, sp.RevisionID, files); err != nil {
		return "", err
	}
	revision, _, changed, deleted, err := applyBatch(ctx, tx, spaceID, sp.RevisionID, "", changes)
	if err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE spaces SET revision_id = ?, updated_at = ? WHERE id = ?`,
		revision, formatTime(tx.now), spaceID); err != nil {
		return "", fmt.Errorf("store: unable to apply the template: %w", err)
	}
	return revision, indexChanges(ctx, tx, spaceID, changed, deleted)
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
