package sqlstore

// What the change-request operations and templates share: a change request's row (and its
// users), finding one that can be written, and applying a batch of page changes to it.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/quire-docs/quire/store"
)

// checkWritable refuses content writes to a locked space and to a change request that is merged
// or archived.
func checkWritable(sp *store.Space, cr *store.ChangeRequest) error {
	if sp.EditMode == "locked" {
		return store.Errorf(store.EFORBIDDEN, "The space is locked: its content cannot change.")
	}
	if cr != nil && cr.Status != "open" && cr.Status != "draft" {
		return store.Errorf(store.ECONFLICT, "The change request is %s: it takes no more changes.", cr.Status)
	}
	return nil
}

// writableChangeRequest returns a change request and its space when content may be written to
// it (see checkWritable).
func writableChangeRequest(ctx context.Context, tx *Tx, spaceID, crID string) (*store.Space, *store.ChangeRequest, error) {
	return liveChangeRequest(ctx, tx, spaceID, crID, checkWritable)
}

// liveChangeRequest returns a change request of a space that is not deleted, and the space,
// when check lets it through.
func liveChangeRequest(ctx context.Context, tx *Tx, spaceID, crID string, check func(*store.Space, *store.ChangeRequest) error) (*store.Space, *store.ChangeRequest, error) {
	sp, err := findLiveSpace(ctx, tx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	cr, err := findChangeRequest(ctx, tx, spaceID, crID)
	if err != nil {
		return nil, nil, err
	}
	if err := check(sp, cr); err != nil {
		return nil, nil, err
	}
	return sp, cr, nil
}

// applyBatch applies a batch of changes to the pages and reusable contents of revision from and writes the result as
// a new revision (with from as its parent) on owner's line ("": the space's main line): refs in
// the new markdown become ids, uploaded files join the revision. It returns the revision and the
// applied tree.
func applyBatch(ctx context.Context, tx *Tx, spaceID, from, owner string, changes []store.PageChange) (string, *store.PageTree, error) {
	v, err := newView(ctx, tx, from)
	if err != nil {
		return "", nil, err
	}
	tree := store.NewPageTree(v, tx.now)
	tree.Base = from
	known := map[string]bool{}
	reverted := map[string]pageRow{} // the rows reverted pages were put back from
	tree.Older = func(revision, pageID string) (*store.RevisionPage, error) {
		if !known[revision] {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM revisions WHERE id = ? AND space_id = ?`, revision, spaceID).Scan(&n); err != nil {
				return nil, fmt.Errorf("store: unable to find revision: %w", err)
			}
			if n == 0 {
				return nil, store.FieldErrorf("revision", "no revision %q in this space", revision)
			}
			known[revision] = true
		}
		old, err := newView(ctx, tx, revision)
		if err != nil {
			return nil, err
		}
		p, err := old.page(pageID, false)
		if row, ok := old.rows[pageID]; ok && p != nil {
			reverted[pageID] = row
		} else {
			delete(reverted, pageID)
		}
		return p, err
	}
	tree.Reusable.Find = func(id string) (*store.ReusableContent, error) { return findReusable(ctx, tx, v.c, id) }
	if err := tree.Apply(changes); err != nil {
		return "", nil, err
	}
	changed, deleted := tree.Result()
	if err := rewriteIncludes(ctx, tx, v.c, tree, changes, changed); err != nil {
		return "", nil, err
	}
	for _, p := range changed {
		if p.BodyID == 0 {
			p.Markdown = store.RewriteRefs(p.Markdown, tree.Refs, tree.FileRefs)
		}
		p.Cover = p.Cover.WithRefs(tree.FileRefs)
	}
	revision, err := writeRevision(ctx, tx, revisionWrite{spaceID: spaceID, typ: "edits", parents: []string{from}, from: from,
		owner: owner, changed: changed, deleted: deleted, tree: tree, links: tree, readFrom: rowFinder{src: v, from: reverted},
		reusableChanged: tree.Reusable.Changed, reusableDeleted: tree.Reusable.Deleted})
	if err != nil {
		return "", nil, err
	}
	if tree.Err != nil {
		return "", nil, tree.Err
	}
	if err := insertFiles(ctx, tx, revision, tree.Files); err != nil {
		return "", nil, err
	}
	if err := deleteFiles(ctx, tx, revision, tree.DeletedFiles); err != nil {
		return "", nil, err
	}
	return revision, tree, nil
}

// rewriteIncludes resolves the include tags of the markdown a batch wrote (store.ReusableEdit's
// Includes), refusing the batch at the first change whose tag names no reusable content; the
// reusable contents' links to the batch's refs become ids as the pages' do.
func rewriteIncludes(ctx context.Context, tx *Tx, c chain, tree *store.PageTree, changes []store.PageChange, changed []*store.RevisionPage) error {
	resolve := tree.Reusable.Includes(func() ([]*store.ReusableContent, error) { return findAllReusable(ctx, tx, c) })
	for i, ch := range changes {
		if ch.Markdown == nil {
			continue
		}
		if _, err := store.RewriteIncludes(*ch.Markdown, resolve); store.ErrorCode(err) == store.EINVALID {
			return store.ChangeError(i, err)
		} else if err != nil {
			return err
		}
	}
	var err error
	for _, p := range changed {
		if p.BodyID == 0 {
			if p.Markdown, err = store.RewriteIncludes(p.Markdown, resolve); err != nil {
				return err
			}
		}
	}
	for _, r := range tree.Reusable.Changed {
		if r.BodyID == 0 {
			if r.Markdown, err = store.RewriteIncludes(r.Markdown, resolve); err != nil {
				return err
			}
			r.Markdown = store.RewriteRefs(r.Markdown, tree.Refs, tree.FileRefs)
		}
	}
	return nil
}

func findChangeRequest(ctx context.Context, q querier, spaceID, idOrNumber string) (*store.ChangeRequest, error) {
	number := -1
	if n, err := strconv.Atoi(idOrNumber); err == nil && n > 0 && len(idOrNumber) < 12 {
		number = n
	}
	// An id is looked up by its key alone: PostgreSQL plans that statement once, where the
	// statement that also tries the number was planned again at each run (its plan for the values
	// at hand, number -1, always looked cheaper than the one for any values), twice a merge.
	where, args := `c.id = ? AND c.space_id = ?`, []any{idOrNumber, spaceID}
	if number > 0 {
		where, args = `c.space_id = ? AND (c.id = ? OR c.number = ?) ORDER BY c.id = ? DESC LIMIT 1`,
			[]any{spaceID, idOrNumber, number, idOrNumber}
	}
	var c store.ChangeRequest
	err := scanChangeRequest(q.QueryRowContext(ctx, `SELECT `+changeRequestColumns+changeRequestFrom+` WHERE `+where, args...), &c)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Change request")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find change request: %w", err)
	}
	return &c, nil
}

const changeRequestColumns = `c.id, c.space_id, c.number, c.status, c.subject, c.description, c.revision_initial,
	c.revision_id, c.revision_merged_ancestor, c.revision_merged, c.comments, c.conversations_issues_cluster,
	c.created_at, c.updated_at, s.revision_id, c.links, c.merged_at, mu.id, mu.email, mu.display_name, mu.photo_url,
	mu.email_verified, mu.created_at, ` + userColumns

const changeRequestFrom = ` FROM change_requests c JOIN spaces s ON s.id = c.space_id` + changeRequestUsers

func scanChangeRequest(sc interface{ Scan(...any) error }, c *store.ChangeRequest) error {
	var desc, ancestor, merged, cluster, links, mergedAt sql.NullString
	var created, updated, spaceRevision string
	var mu struct {
		id, email, name, photo, created sql.NullString
		verified                        sql.NullBool
	}
	if err := scanUser(scanFirst{sc, []any{&c.ID, &c.SpaceID, &c.Number, &c.Status, &c.Subject, &desc, &c.RevisionInitial,
		&c.RevisionID, &ancestor, &merged, &c.Comments, &cluster, &created, &updated, &spaceRevision, &links, &mergedAt,
		&mu.id, &mu.email, &mu.name, &mu.photo, &mu.verified, &mu.created}}, &c.CreatedBy); err != nil {
		return err
	}
	if links.Valid {
		if err := json.Unmarshal([]byte(links.String), &c.Links); err != nil {
			return fmt.Errorf("store: bad links of change request %s: %w", c.ID, err)
		}
	}
	c.MergedAt = parseNullTime(mergedAt)
	if mu.id.Valid {
		c.MergedBy = &store.User{ID: mu.id.String, Email: mu.email.String, DisplayName: mu.name.String,
			PhotoURL: stringPtr(mu.photo), EmailVerified: mu.verified.Bool, CreatedAt: parseTime(mu.created.String)}
	}
	if desc.Valid {
		c.Description = json.RawMessage(desc.String)
	}
	c.RevisionMergedAncestor, c.RevisionMerged, c.ConversationsCluster = stringPtr(ancestor), stringPtr(merged), stringPtr(cluster)
	c.CreatedAt, c.UpdatedAt = parseTime(created), parseTime(updated)
	c.Outdated = (c.Status == "open" || c.Status == "draft") && spaceRevision != c.Base()
	return nil
}

// changeRequestUsers joins the change request's creator (u) and merger (mu).
const changeRequestUsers = ` JOIN users u ON u.id = c.created_by LEFT JOIN users mu ON mu.id = c.merged_by`

// changeRequestCounts sets a space's (?1) counts of change requests, from its change requests.
const changeRequestCounts = `change_requests = (SELECT count(*) FROM change_requests WHERE space_id = ?1),
		change_requests_open = (SELECT count(*) FROM change_requests WHERE space_id = ?1 AND status = 'open'),
		change_requests_draft = (SELECT count(*) FROM change_requests WHERE space_id = ?1 AND status = 'draft')`

// countChangeRequests refreshes a space's change request counters.
func countChangeRequests(ctx context.Context, tx *Tx, spaceID string) error {
	_, err := tx.ExecContext(ctx, `UPDATE spaces SET `+changeRequestCounts+` WHERE id = ?1`, spaceID)
	if err != nil {
		return fmt.Errorf("store: unable to count change requests: %w", err)
	}
	return nil
}

// updateChangeRequest applies an update to a change request and answers it as it now is.
func updateChangeRequest(ctx context.Context, tx *Tx, spaceID string, cur *store.ChangeRequest, upd store.ChangeRequestUpdate) (*store.ChangeRequest, error) {
	if upd.Status != nil && cur.Status == "merged" && *upd.Status != "merged" {
		return nil, store.Errorf(store.ECONFLICT, "The change request is merged: its status cannot change.")
	}
	set := func(col string, v any) error {
		if _, err := tx.ExecContext(ctx, `UPDATE change_requests SET `+col+` = ? WHERE id = ?`, v, cur.ID); err != nil {
			return fmt.Errorf("store: unable to update change request: %w", err)
		}
		return nil
	}
	if upd.Subject != nil {
		if err := set(`subject`, *upd.Subject); err != nil {
			return nil, err
		}
	}
	if upd.Description != nil {
		if err := set(`description`, string(upd.Description)); err != nil {
			return nil, err
		}
	}
	if upd.Status != nil {
		if err := set(`status`, *upd.Status); err != nil {
			return nil, err
		}
	}
	if upd.Links != nil {
		if err := setChangeRequestLinks(ctx, tx, cur, *upd.Links); err != nil {
			return nil, err
		}
	}
	if err := set(`updated_at`, formatTime(tx.now)); err != nil {
		return nil, err
	}
	if err := countChangeRequests(ctx, tx, spaceID); err != nil {
		return nil, err
	}
	return findChangeRequest(ctx, tx, spaceID, cur.ID)
}

// setChangeRequestLinks replaces a change request's links: a link given with the ID of one it
// has keeps that ID, the others get new ones; an ID it does not have is refused (EINVALID).
func setChangeRequestLinks(ctx context.Context, tx *Tx, cr *store.ChangeRequest, links []store.ChangeRequestLink) error {
	have := map[string]bool{}
	for _, l := range cr.Links {
		have[l.ID] = true
	}
	used := map[string]bool{}
	out := make([]store.ChangeRequestLink, 0, len(links))
	for i, l := range links {
		if l.ID == "" {
			l.ID = store.NewID()
		} else if !have[l.ID] {
			return store.FieldErrorf(fmt.Sprintf("links[%d].id", i), "the change request has no link %q", l.ID)
		} else if used[l.ID] {
			return store.FieldErrorf(fmt.Sprintf("links[%d].id", i), "the link %q is given twice", l.ID)
		}
		used[l.ID] = true
		out = append(out, l)
	}
	var v any
	if len(out) > 0 {
		b, err := json.Marshal(out)
		if err != nil {
			return fmt.Errorf("store: unable to encode links: %w", err)
		}
		v = string(b)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE change_requests SET links = ? WHERE id = ?`, v, cr.ID); err != nil {
		return fmt.Errorf("store: unable to update change request links: %w", err)
	}
	return nil
}
