package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/quire-docs/quire/store"
)

// reviewOutdated is whether a review (r) of a change request (c) is outdated: the change request
// has moved on from the revision reviewed, or the reviewer reviewed again, or was asked again.
const reviewOutdated = `(r.revision_id <> c.revision_id
	OR EXISTS (SELECT 1 FROM change_request_reviews n WHERE n.change_request_id = r.change_request_id
		AND n.reviewer = r.reviewer AND (n.created_at > r.created_at OR (n.created_at = r.created_at AND n.id > r.id)))
	OR EXISTS (SELECT 1 FROM change_request_reviewers q WHERE q.change_request_id = r.change_request_id
		AND q.user_id = r.reviewer AND q.created_at > r.created_at))`

const reviewColumns = `r.id, r.change_request_id, r.status, r.revision_id, r.comment_id, r.created_at, r.updated_at,
	CASE WHEN ` + reviewOutdated + ` THEN 1 ELSE 0 END, ` + userColumns + `,
	b.id, b.email, b.display_name, b.photo_url, b.email_verified, b.created_at`

const reviewFrom = `change_request_reviews r JOIN change_requests c ON c.id = r.change_request_id`

const reviewUsers = ` JOIN users u ON u.id = r.reviewer LEFT JOIN users b ON b.id = r.requested_by`

func scanReview(sc scanner, rv *store.Review) error {
	var comment, bid, bemail, bname, bphoto, bcreated sql.NullString
	var bverified sql.NullBool
	var created, updated string
	var outdated int
	if err := scanUser(scanFirst{sc, []any{&rv.ID, &rv.ChangeRequestID, &rv.Status, &rv.RevisionID, &comment, &created, &updated,
		&outdated}}, &rv.Reviewer, &bid, &bemail, &bname, &bphoto, &bverified, &bcreated); err != nil {
		return err
	}
	rv.CommentID, rv.Outdated = stringPtr(comment), outdated == 1
	rv.CreatedAt, rv.UpdatedAt = parseTime(created), parseTime(updated)
	if bid.Valid {
		rv.RequestedBy = &store.User{ID: bid.String, Email: bemail.String, DisplayName: bname.String, PhotoURL: stringPtr(bphoto),
			EmailVerified: bverified.Bool, CreatedAt: parseTime(bcreated.String)}
	}
	return nil
}

const requestedColumns = `q.revision_id, q.created_at, ` + userColumns + `,
	b.id, b.email, b.display_name, b.photo_url, b.email_verified, b.created_at`

const requestedFrom = ` FROM change_request_reviewers q JOIN users u ON u.id = q.user_id JOIN users b ON b.id = q.requested_by`

func scanRequested(sc scanner, rr *store.RequestedReviewer) error {
	var created, bcreated string
	var bphoto sql.NullString
	b := &rr.RequestedBy
	if err := scanUser(scanFirst{sc, []any{&rr.RevisionID, &created}}, &rr.User,
		&b.ID, &b.Email, &b.DisplayName, &bphoto, &b.EmailVerified, &bcreated); err != nil {
		return err
	}
	rr.CreatedAt, b.PhotoURL, b.CreatedAt = parseTime(created), stringPtr(bphoto), parseTime(bcreated)
	return nil
}

// reviewableChangeRequest returns a change request that takes review requests and reviews: an
// open or a draft one.
func reviewableChangeRequest(ctx context.Context, tx *Tx, spaceID, crID string) (*store.Space, *store.ChangeRequest, error) {
	return liveChangeRequest(ctx, tx, spaceID, crID, func(_ *store.Space, cr *store.ChangeRequest) error {
		if cr.Status != "open" && cr.Status != "draft" {
			return store.Errorf(store.ECONFLICT, "The change request is %s: it takes no more reviews.", cr.Status)
		}
		return nil
	})
}

// RequestReviewers asks members of the organization to review a change request.
func (s *Store) RequestReviewers(ctx context.Context, spaceID, crID, byUserID string, users []string, upd store.ChangeRequestUpdate) ([]*store.RequestedReviewer, error) {
	var out []*store.RequestedReviewer
	err := s.write(ctx, func(tx *Tx) error {
		sp, cr, err := reviewableChangeRequest(ctx, tx, spaceID, crID)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for i, u := range users {
			field := fmt.Sprintf("users[%d]", i)
			if u == cr.CreatedBy.ID {
				return store.FieldErrorf(field, "the change request's author cannot review it")
			}
			if seen[u] {
				return store.FieldErrorf(field, "the user %q is given twice", u)
			}
			seen[u] = true
			m, err := findMember(ctx, tx, sp.OrganizationID, u)
			if store.ErrorCode(err) == store.ENOTFOUND || (err == nil && m.Disabled) {
				return store.FieldErrorf(field, "the user %q is not a member of the space's organization", u)
			} else if err != nil {
				return err
			}
		}
		if cr.Status == "draft" {
			open := "open"
			upd.Status = &open
		}
		upd.Links = nil
		if cr, err = updateChangeRequest(ctx, tx, spaceID, cr, upd); err != nil {
			return err
		}
		now := formatTime(tx.now)
		for _, u := range users {
			if _, err := tx.ExecContext(ctx, `INSERT INTO change_request_reviewers (change_request_id, user_id, requested_by, revision_id, created_at)
				VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (change_request_id, user_id)
				DO UPDATE SET requested_by = ?3, revision_id = ?4, created_at = ?5`, cr.ID, u, byUserID, cr.RevisionID, now); err != nil {
				return fmt.Errorf("store: unable to request reviewer: %w", err)
			}
		}
		if len(users) == 0 {
			out = []*store.RequestedReviewer{}
			return nil
		}
		out, err = queryAll(ctx, tx, "requested reviewers", `SELECT `+requestedColumns+requestedFrom+`
			WHERE q.change_request_id = ? AND q.user_id IN (`+placeholders(len(users))+`) ORDER BY q.user_id`,
			append([]any{cr.ID}, anySlice(users)...), fill(scanRequested))
		return err
	})
	return out, err
}

// anySlice is a slice of strings as query arguments.
func anySlice(list []string) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = v
	}
	return out
}

// FindRequestedReviewers lists the users asked to review a change request, first asked first.
func (s *Store) FindRequestedReviewers(ctx context.Context, spaceID, crID string, p store.Page) (store.List[*store.RequestedReviewer], error) {
	cr, err := findChangeRequest(ctx, s.reader, spaceID, crID)
	if err != nil {
		return store.List[*store.RequestedReviewer]{}, err
	}
	q := &listQuery{cols: requestedColumns, from: `change_request_reviewers q`,
		join: ` JOIN users u ON u.id = q.user_id JOIN users b ON b.id = q.requested_by`, order: byKeys(`q.created_at`, `q.user_id`)}
	q.and(`q.change_request_id = ?`, cr.ID)
	return findList(ctx, s.reader, q, p, "requested reviewers", fill(scanRequested))
}

// RemoveRequestedReviewer withdraws a request; removed is false when there was none.
func (s *Store) RemoveRequestedReviewer(ctx context.Context, spaceID, crID, userID string) (bool, error) {
	var removed bool
	err := s.write(ctx, func(tx *Tx) error {
		cr, err := findChangeRequest(ctx, tx, spaceID, crID)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM change_request_reviewers WHERE change_request_id = ? AND user_id = ?`, cr.ID, userID)
		if err != nil {
			return fmt.Errorf("store: unable to remove requested reviewer: %w", err)
		}
		n, err := res.RowsAffected()
		removed = n > 0
		return err
	})
	return removed, err
}

// SubmitReview records a review of a change request's current revision, with its comment.
func (s *Store) SubmitReview(ctx context.Context, spaceID, crID string, nr store.NewReview) (*store.Review, error) {
	if nr.Status != store.ReviewApproved && nr.Status != store.ReviewChangesRequested {
		return nil, store.FieldErrorf("status", "unknown review status %q", nr.Status)
	}
	var rv *store.Review
	err := s.write(ctx, func(tx *Tx) error {
		_, cr, err := reviewableChangeRequest(ctx, tx, spaceID, crID)
		if err != nil {
			return err
		}
		if cr.CreatedBy.ID == nr.ReviewerID {
			return store.Errorf(store.EINVALID, "The change request's author cannot review it.")
		}
		var commentID any
		if nr.Comment != nil {
			nc := *nr.Comment
			nc.RevisionID, nc.UserID = cr.RevisionID, nr.ReviewerID
			if commentID, err = insertComment(ctx, tx, store.CommentScope{SpaceID: spaceID, ChangeRequestID: &cr.ID}, nc); err != nil {
				return err
			}
		}
		id, now := store.NewID(), formatTime(tx.now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO change_request_reviews (id, change_request_id, reviewer, requested_by,
			status, revision_id, comment_id, created_at, updated_at)
			VALUES (?, ?, ?, (SELECT requested_by FROM change_request_reviewers WHERE change_request_id = ? AND user_id = ?), ?, ?, ?, ?, ?)`,
			id, cr.ID, nr.ReviewerID, cr.ID, nr.ReviewerID, nr.Status, cr.RevisionID, commentID, now, now); err != nil {
			return fmt.Errorf("store: unable to submit review: %w", err)
		}
		rv, err = findReview(ctx, tx, cr.ID, id)
		return err
	})
	return rv, err
}

func findReview(ctx context.Context, q querier, crID, id string) (*store.Review, error) {
	rv := &store.Review{}
	err := scanReview(q.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM `+reviewFrom+reviewUsers+`
		WHERE r.change_request_id = ? AND r.id = ?`, crID, id), rv)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Review")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find review: %w", err)
	}
	return rv, nil
}

// FindReview returns a review of a change request.
func (s *Store) FindReview(ctx context.Context, spaceID, crID, id string) (*store.Review, error) {
	cr, err := findChangeRequest(ctx, s.reader, spaceID, crID)
	if err != nil {
		return nil, err
	}
	return findReview(ctx, s.reader, cr.ID, id)
}

// FindReviews lists a change request's reviews, oldest first.
func (s *Store) FindReviews(ctx context.Context, spaceID, crID string, f store.ReviewFilter, p store.Page) (store.List[*store.Review], error) {
	cr, err := findChangeRequest(ctx, s.reader, spaceID, crID)
	if err != nil {
		return store.List[*store.Review]{}, err
	}
	q := &listQuery{cols: reviewColumns, from: reviewFrom, join: reviewUsers, order: byKeys(`r.created_at`, `r.id`)}
	q.and(`r.change_request_id = ?`, cr.ID)
	if f.Outdated != nil {
		if *f.Outdated {
			q.and(reviewOutdated)
		} else {
			q.and(`NOT ` + reviewOutdated)
		}
	}
	return findList(ctx, s.reader, q, p, "reviews", fill(scanReview))
}

// FindContributors lists who edited and who commented on a change request, most recent first.
func (s *Store) FindContributors(ctx context.Context, spaceID, crID string) ([]*store.Contributor, error) {
	cr, err := findChangeRequest(ctx, s.reader, spaceID, crID)
	if err != nil {
		return nil, err
	}
	scan := func(action string) func(scanner) (*store.Contributor, error) {
		return func(sc scanner) (*store.Contributor, error) {
			c := &store.Contributor{Action: action}
			var at string
			err := scanUser(scanFirst{sc, []any{&c.Count, &at}}, &c.User)
			c.UpdatedAt = parseTime(at)
			return c, err
		}
	}
	edits, err := queryAll(ctx, s.reader, "contributors", `SELECT x.edits, COALESCE(x.updated_at, c.updated_at), `+userColumns+`
		FROM change_request_contributors x JOIN change_requests c ON c.id = x.change_request_id JOIN users u ON u.id = x.user_id
		WHERE x.change_request_id = ?`, []any{cr.ID}, scan("edit"))
	if err != nil {
		return nil, err
	}
	comments, err := queryAll(ctx, s.reader, "commenters", `SELECT count(*), max(p.posted_at), `+userColumns+`
		FROM (SELECT posted_by, posted_at FROM comments WHERE change_request_id = ?1
			UNION ALL SELECT x.posted_by, x.posted_at FROM comment_replies x JOIN comments c ON c.id = x.comment_id
			WHERE c.change_request_id = ?1) p JOIN users u ON u.id = p.posted_by
		GROUP BY `+userColumns, []any{cr.ID}, scan("comment"))
	if err != nil {
		return nil, err
	}
	out := append(edits, comments...)
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].UpdatedAt.Equal(out[j].UpdatedAt) {
			return out[i].UpdatedAt.After(out[j].UpdatedAt)
		}
		return out[i].User.ID+out[i].Action < out[j].User.ID+out[j].Action
	})
	return out, nil
}

// checkMergeRules checks a space's merge rules, for userID merging a change request, in the merge's
// transaction: the reviews read are those of that moment.
func checkMergeRules(ctx context.Context, tx *Tx, sp *store.Space, cr *store.ChangeRequest, userID string) error {
	rules := sp.MergeRules
	if rules.Type == "inherit" {
		var raw string
		if err := tx.QueryRowContext(ctx, `SELECT merge_rules FROM organizations WHERE id = ?`, sp.OrganizationID).Scan(&raw); err != nil {
			return fmt.Errorf("store: unable to read merge rules: %w", err)
		}
		if err := json.Unmarshal([]byte(raw), &rules); err != nil {
			return fmt.Errorf("store: bad merge rules of organization %s: %w", sp.OrganizationID, err)
		}
	}
	if rules.Type != "rules" {
		return nil
	}
	st := store.MergeState{ChangeRequest: cr}
	var err error
	if st.Reviews, err = queryAll(ctx, tx, "reviews", `SELECT `+reviewColumns+` FROM `+reviewFrom+reviewUsers+`
		WHERE r.change_request_id = ? AND NOT `+reviewOutdated, []any{cr.ID}, fill(scanReview)); err != nil {
		return err
	}
	if st.Requested, err = queryAll(ctx, tx, "requested reviewers", `SELECT user_id FROM change_request_reviewers
		WHERE change_request_id = ? ORDER BY user_id`, []any{cr.ID}, scanString); err != nil {
		return err
	}
	return rules.Check(st, userID)
}
