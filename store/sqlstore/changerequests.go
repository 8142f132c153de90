package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/quire-docs/quire/store"
)

// CreateChangeRequest opens a change request on a space's current revision. Numbers are per
// space, from 1; the single writer makes max+1 safe under concurrent creation.
func (s *Store) CreateChangeRequest(ctx context.Context, spaceID, userID, subject string) (*store.ChangeRequest, error) {
	var cr *store.ChangeRequest
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		cr, err = createChangeRequest(ctx, tx, spaceID, userID, subject, "")
		return err
	})
	return cr, err
}

// CreateChangeRequestAt opens a change request on an earlier revision of the space's content.
func (s *Store) CreateChangeRequestAt(ctx context.Context, spaceID, userID, subject, revisionID string) (*store.ChangeRequest, error) {
	var cr *store.ChangeRequest
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		cr, err = createChangeRequest(ctx, tx, spaceID, userID, subject, revisionID)
		return err
	})
	return cr, err
}

// inHistory says whether revision id is the space's current revision or one it descends from
// along its lines (a change request's own revisions are not).
func inHistory(ctx context.Context, tx *Tx, sp *store.Space, id string) (bool, error) {
	var spaceID string
	var ref lineRef
	err := tx.QueryRowContext(ctx, `SELECT space_id, line_id, seq FROM revisions WHERE id = ?`, id).Scan(&spaceID, &ref.line, &ref.upto)
	if errors.Is(err, sql.ErrNoRows) || err == nil && spaceID != sp.ID {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to find revision: %w", err)
	}
	c, err := revisionChain(ctx, tx, sp.RevisionID)
	if err != nil {
		return false, err
	}
	for _, el := range c {
		if el.line == ref.line {
			return ref.upto <= el.upto, nil
		}
	}
	return false, nil
}

// CreateChangeRequestFromTemplate opens a change request whose first revision adds a template's
// pages, in one transaction.
func (s *Store) CreateChangeRequestFromTemplate(ctx context.Context, spaceID, userID, subject string, changes []store.PageChange, files map[string]string) (*store.ChangeRequest, error) {
	var cr *store.ChangeRequest
	err := s.write(ctx, func(tx *Tx) error {
		created, err := createChangeRequest(ctx, tx, spaceID, userID, subject, "")
		if err != nil {
			return err
		}
		if _, err := applyTemplateToChangeRequest(ctx, tx, spaceID, created, changes, files); err != nil {
			return err
		}
		cr, err = findChangeRequest(ctx, tx, spaceID, created.ID)
		return err
	})
	return cr, err
}

// createChangeRequest opens a change request on revision at of the space ("": its current one).
func createChangeRequest(ctx context.Context, tx *Tx, spaceID, userID, subject, at string) (*store.ChangeRequest, error) {
	id := store.NewID()
	sp, err := findLiveSpace(ctx, tx, spaceID)
	if err != nil {
		return nil, err
	}
	base := sp.RevisionID
	if at != "" && at != base {
		ok, err := inHistory(ctx, tx, sp, at)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, store.ErrorAt(store.EINVALID, "revision", "%s is not a revision of the space's content", at)
		}
		base = at
	}
	now := formatTime(tx.now)
	if _, err := tx.ExecContext(ctx, `INSERT INTO change_requests (id, space_id, number, subject, created_by,
		revision_initial, revision_id, created_at, updated_at)
		SELECT ?, ?, COALESCE(max(number), 0) + 1, ?, ?, ?, ?, ?, ? FROM change_requests WHERE space_id = ?`,
		id, spaceID, subject, userID, base, base, now, now, spaceID); err != nil {
		return nil, fmt.Errorf("store: unable to create change request: %w", err)
	}
	if err := countChangeRequests(ctx, tx, spaceID); err != nil {
		return nil, err
	}
	return findChangeRequest(ctx, tx, spaceID, id)
}

// FindChangeRequest returns a change request of a space by id or by number.
func (s *Store) FindChangeRequest(ctx context.Context, spaceID, idOrNumber string) (*store.ChangeRequest, error) {
	return findChangeRequest(ctx, s.reader, spaceID, idOrNumber)
}

// FindChangeRequests lists change requests, newest first.
func (s *Store) FindChangeRequests(ctx context.Context, f store.ChangeRequestFilter, p store.Page) (store.List[*store.ChangeRequest], error) {
	q := &listQuery{cols: changeRequestColumns, from: `change_requests c JOIN spaces s ON s.id = c.space_id`,
		join: changeRequestUsers, order: byKeys(`c.created_at`, `c.id`), desc: true}
	if f.SpaceID != "" {
		q.and(`c.space_id = ?`, f.SpaceID)
	} else {
		q.and(`s.organization_id = ? AND s.deleted_at IS NULL`, f.OrganizationID)
	}
	q.andVisible("s", f.Visible)
	q.and(`c.status = ?`, f.Status)
	if f.Creator != nil {
		q.and(`c.created_by = ?`, *f.Creator)
	}
	if f.Contributor != nil {
		q.and(`EXISTS (SELECT 1 FROM change_request_contributors x WHERE x.change_request_id = c.id AND x.user_id = ?)`, *f.Contributor)
	}
	if f.RequestedReviewer != nil {
		q.and(`EXISTS (SELECT 1 FROM change_request_reviewers r WHERE r.change_request_id = c.id AND r.user_id = ?)`, *f.RequestedReviewer)
	}
	if f.IssuesCluster != nil {
		q.and(`c.conversations_issues_cluster = ?`, *f.IssuesCluster)
	}
	return findList(ctx, s.reader, q, p, "change requests", fill(scanChangeRequest))
}

// UpdateChangeRequest changes a change request's subject, description or status. A merged change
// request keeps its status.
func (s *Store) UpdateChangeRequest(ctx context.Context, spaceID, id string, upd store.ChangeRequestUpdate) (*store.ChangeRequest, error) {
	var cr *store.ChangeRequest
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findChangeRequest(ctx, tx, spaceID, id)
		if err != nil {
			return err
		}
		cr, err = updateChangeRequest(ctx, tx, spaceID, cur, upd)
		return err
	})
	return cr, err
}

// UpdateChangeRequestContent applies a batch of page changes to a change request as one new
// revision, atomically. A revert_page change without a revision reverts to the change request's
// base.
func (s *Store) UpdateChangeRequestContent(ctx context.Context, spaceID, crID, userID string, changes []store.PageChange) (*store.BatchResult, error) {
	var res *store.BatchResult
	err := s.write(ctx, func(tx *Tx) error {
		_, cr, err := writableChangeRequest(ctx, tx, spaceID, crID)
		if err != nil {
			return err
		}
		base := cr.Base()
		for i := range changes {
			if changes[i].Type == "revert_page" && changes[i].Revision == nil {
				changes[i].Revision = &base
			}
		}
		revision, tree, err := applyBatch(ctx, tx, spaceID, cr.RevisionID, cr.ID, changes)
		if err != nil {
			return err
		}
		res = &store.BatchResult{Revision: revision, Refs: tree.Refs, Pages: tree.Outcomes(), Reusable: tree.Reusable.Outcomes}
		for ref, id := range tree.Reusable.Refs {
			res.Refs[ref] = id
		}
		for ref, id := range tree.FileRefs {
			res.Refs[ref] = id
		}
		if len(tree.Files) > 0 {
			ids := make([]any, len(tree.Files))
			for i, f := range tree.Files {
				ids[i] = f.ID
			}
			files, err := revisionFiles(ctx, tx, revision, "f.file_id IN ("+placeholders(len(ids))+")", ids...)
			if err != nil {
				return err
			}
			byID := make(map[string]*store.RevisionFile, len(files))
			for _, f := range files {
				byID[f.ID] = f
			}
			for _, f := range tree.Files {
				res.Files = append(res.Files, byID[f.ID])
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE change_requests SET revision_id = ?, updated_at = ? WHERE id = ?`,
			revision, formatTime(tx.now), cr.ID); err != nil {
			return fmt.Errorf("store: unable to update change request: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO change_request_contributors (change_request_id, user_id, edits, updated_at)
			VALUES (?1, ?2, 1, ?3) ON CONFLICT (change_request_id, user_id) DO UPDATE SET edits = change_request_contributors.edits + 1, updated_at = ?3`,
			cr.ID, userID, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to record contributor: %w", err)
		}
		cr.RevisionID, cr.UpdatedAt = revision, tx.now
		res.ChangeRequest = cr
		return nil
	})
	return res, err
}

// mergeConflictError is the ECONFLICT error listing the pages a merge or update could not merge.
func mergeConflictError(what string, conflicts []store.MergeConflict) *store.Error {
	parts := make([]string, 0, len(conflicts))
	for _, c := range conflicts {
		parts = append(parts, fmt.Sprintf("%q (%s): %s", c.Title, c.PageID, c.Reason))
	}
	return store.Errorf(store.ECONFLICT, "%s has conflicts on %d page(s): %s", what, len(conflicts), strings.Join(parts, "; "))
}

// MergeChangeRequest merges a change request into its space. With conflicts nothing changes and
// conflicts is true; otherwise the space's new revision (with both parents) is returned.
func (s *Store) MergeChangeRequest(ctx context.Context, spaceID, crID, userID string) (revision string, conflicts bool, err error) {
	return s.mergeChangeRequest(ctx, spaceID, crID, userID, false)
}

// MergeChangeRequestByRules merges a change request once the space's merge rules let userID
// merge it, checked in the merge's transaction.
func (s *Store) MergeChangeRequestByRules(ctx context.Context, spaceID, crID, userID string) (revision string, conflicts bool, err error) {
	return s.mergeChangeRequest(ctx, spaceID, crID, userID, true)
}

func (s *Store) mergeChangeRequest(ctx context.Context, spaceID, crID, userID string, byRules bool) (revision string, conflicts bool, err error) {
	err = s.write(ctx, func(tx *Tx) error {
		sp, cr, err := writableChangeRequest(ctx, tx, spaceID, crID)
		if err != nil {
			return err
		}
		if byRules {
			if err := checkMergeRules(ctx, tx, sp, cr, userID); err != nil {
				return err
			}
		}
		tree, readFrom, found, err := mergeRevisions(ctx, tx, cr.Base(), sp.RevisionID, cr.RevisionID, false)
		if err != nil {
			return err
		}
		rchanged, rdeleted, rfound, err := mergeReusable(ctx, tx, cr.Base(), sp.RevisionID, cr.RevisionID)
		if err != nil {
			return err
		}
		if len(found)+len(rfound) > 0 {
			revision, conflicts = sp.RevisionID, true
			return nil
		}
		revision, err = writeMerged(ctx, tx, revisionWrite{spaceID: spaceID, typ: "merge",
			parents: []string{sp.RevisionID, cr.RevisionID}, crID: &cr.ID, from: sp.RevisionID, readFrom: readFrom,
			reusableChanged: rchanged, reusableDeleted: rdeleted}, tree, cr.RevisionID, cr.Base())
		if err != nil {
			return err
		}
		if err := deferIndex(ctx, tx, spaceID, sp.RevisionID); err != nil {
			return err
		}
		now := formatTime(tx.now)
		if _, err := tx.ExecContext(ctx, `UPDATE change_requests SET status = 'merged', revision_merged = ?, merged_by = ?,
			merged_at = ?, updated_at = ? WHERE id = ?`, revision, userID, now, now, cr.ID); err != nil {
			return fmt.Errorf("store: unable to merge: %w", err)
		}
		// The space's new revision and its counts (one change request fewer open), in one statement.
		if _, err := tx.ExecContext(ctx, `UPDATE spaces SET revision_id = ?2, updated_at = ?3, `+changeRequestCounts+` WHERE id = ?1`,
			spaceID, revision, now); err != nil {
			return fmt.Errorf("store: unable to merge: %w", err)
		}
		return nil
	})
	return revision, conflicts, err
}

// UpdateChangeRequestFromMain pulls the space's current content into a change request. A
// conflict is an ECONFLICT error and changes nothing.
func (s *Store) UpdateChangeRequestFromMain(ctx context.Context, spaceID, crID string) (string, error) {
	var revision string
	err := s.write(ctx, func(tx *Tx) error {
		sp, cr, err := writableChangeRequest(ctx, tx, spaceID, crID)
		if err != nil {
			return err
		}
		if sp.RevisionID == cr.Base() {
			revision = cr.RevisionID // already up to date
			return nil
		}
		tree, readFrom, found, err := mergeRevisions(ctx, tx, cr.Base(), cr.RevisionID, sp.RevisionID, true)
		if err != nil {
			return err
		}
		// The change request's line starts again from main: it carries what the change request
		// changed of its reusable contents, merged with main's.
		rchanged, rdeleted, rfound, err := mergeReusable(ctx, tx, cr.Base(), sp.RevisionID, cr.RevisionID)
		if err != nil {
			return err
		}
		if found = append(found, rfound...); len(found) > 0 {
			return mergeConflictError("Updating from the space's content", found)
		}
		// The change request's new line forks from main's head: it holds only what the change
		// request changed.
		if revision, err = writeMerged(ctx, tx, revisionWrite{spaceID: spaceID, typ: "update",
			parents: []string{cr.RevisionID, sp.RevisionID}, from: sp.RevisionID, owner: cr.ID, readFrom: readFrom,
			reusableChanged: rchanged, reusableDeleted: rdeleted}, tree, cr.RevisionID, cr.Base()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE change_requests SET revision_id = ?, revision_merged_ancestor = ?, updated_at = ?
			WHERE id = ?`, revision, sp.RevisionID, formatTime(tx.now), cr.ID); err != nil {
			return fmt.Errorf("store: unable to update change request: %w", err)
		}
		return nil
	})
	return revision, err
}

// mergeRevisions three-way merges ours and theirs against base into a tree over main's content
// (theirs when theirsIsMain, else ours). Only the pages the change request's side changed since
// the base are merged: every other page merges to main's version. They are found from the rows
// written between the base and the change request's revision, so a merge costs what the change
// request touched, not what the space holds.
func mergeRevisions(ctx context.Context, tx *Tx, base, ours, theirs string, theirsIsMain bool) (*store.PageTree, rowFinder, []store.MergeConflict, error) {
	mainRev, crRev := ours, theirs
	if theirsIsMain {
		mainRev, crRev = theirs, ours
	}
	changed, err := changedPageIDs(ctx, tx, base, crRev)
	if err != nil {
		return nil, rowFinder{}, nil, err
	}
	sort.Strings(changed)
	sides := make([]map[string]*store.RevisionPage, 3)
	views := make([]*view, 3)
	for i, rev := range []string{base, mainRev, crRev} {
		if views[i], err = newView(ctx, tx, rev); err != nil {
			return nil, rowFinder{}, nil, err
		}
		if sides[i], err = views[i].Pages(changed, false); err != nil {
			return nil, rowFinder{}, nil, err
		}
	}
	bp, op, tp := sides[0], sides[1], sides[2]
	ov, tv := views[1], views[2]
	if theirsIsMain {
		op, tp, ov, tv = tp, op, tv, ov
	}
	merged, conflicts, err := store.ThreeWayMerge(changed, bp, op, tp, func(ids []int64) (map[int64]string, error) { return loadBodies(ctx, tx, ids) })
	if err != nil || len(conflicts) > 0 {
		return nil, rowFinder{}, conflicts, err
	}
	v, err := newView(ctx, tx, mainRev)
	if err != nil {
		return nil, rowFinder{}, nil, err
	}
	// A merged page is ours as read, with what it takes from theirs; theirs when only they have it.
	readFrom := rowFinder{src: v, from: map[string]pageRow{}, other: map[string]pageRow{}}
	for _, id := range changed {
		if op[id] != nil {
			readFrom.from[id] = ov.rows[id]
			if tp[id] != nil {
				readFrom.other[id] = tv.rows[id]
			}
		} else if tp[id] != nil {
			readFrom.from[id] = tv.rows[id]
		}
	}
	tree := store.NewPageTree(v, tx.now)
	if conflicts := store.ApplyMerge(tree, merged); len(conflicts) > 0 {
		return nil, rowFinder{}, conflicts, tree.Err
	}
	return tree, readFrom, nil, tree.Err
}

// writeMerged writes what a three-way merge gave (a change request merged into main, or main
// pulled into a change request) as the revision w describes, with the change request's files.
// base is the revision the two sides share.
func writeMerged(ctx context.Context, tx *Tx, w revisionWrite, tree *store.PageTree, crRevision, base string) (string, error) {
	w.changed, w.deleted = tree.Result()
	w.tree, w.links = tree, tree
	revision, err := writeRevision(ctx, tx, w)
	if err == nil {
		err = tree.Err
	}
	if err == nil {
		err = mergeFiles(ctx, tx, revision, crRevision, base)
	}
	if err != nil {
		return "", err
	}
	return revision, nil
}
