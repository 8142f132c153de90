package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

func scopeCR(s store.CommentScope) any { return nullString(s.ChangeRequestID) }

// commentThread is the condition that a comment (c) is in a scope, one of two constants (plain
// predicates an index serves), with its arguments.
func commentThread(s store.CommentScope) (string, []any) {
	if s.ChangeRequestID == nil {
		return `c.space_id = ? AND c.change_request_id IS NULL`, []any{s.SpaceID}
	}
	return `c.space_id = ? AND c.change_request_id = ?`, []any{s.SpaceID, *s.ChangeRequestID}
}

const commentColumns = `c.id, c.space_id, c.change_request_id, c.revision_id, c.page_id, c.node_id, c.table_record,
	c.table_definition, c.body, c.posted_at, c.edited_at, c.resolved_at, c.replies, ` + userColumns + `,
	r.id, r.email, r.display_name, r.photo_url, r.email_verified, r.created_at`

const commentFrom = ` FROM comments c JOIN users u ON u.id = c.posted_by LEFT JOIN users r ON r.id = c.resolved_by`

func scanComment(sc interface{ Scan(...any) error }, c *store.Comment) error {
	var cr, page, node, rec, def, edited, resolved sql.NullString
	var posted string
	var rid, remail, rname, rphoto, rcreated sql.NullString
	var rverified sql.NullBool
	err := scanUser(scanFirst{sc, []any{&c.ID, &c.Scope.SpaceID, &cr, &c.RevisionID, &page, &node, &rec, &def,
		&c.Body, &posted, &edited, &resolved, &c.Replies}}, &c.PostedBy, &rid, &remail, &rname, &rphoto, &rverified, &rcreated)
	if err != nil {
		return err
	}
	c.Scope.ChangeRequestID, c.PageID, c.NodeID = stringPtr(cr), stringPtr(page), stringPtr(node)
	c.TableRecord, c.TableDefinition = stringPtr(rec), stringPtr(def)
	c.PostedAt, c.EditedAt, c.ResolvedAt = parseTime(posted), parseNullTime(edited), parseNullTime(resolved)
	if rid.Valid {
		c.ResolvedBy = &store.User{ID: rid.String, Email: remail.String, DisplayName: rname.String, PhotoURL: stringPtr(rphoto),
			EmailVerified: rverified.Bool, CreatedAt: parseTime(rcreated.String)}
	}
	return nil
}

// PostComment posts a comment in a scope.
func (s *Store) PostComment(ctx context.Context, scope store.CommentScope, nc store.NewComment) (*store.Comment, error) {
	var id string
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		id, err = insertComment(ctx, tx, scope, nc)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.FindComment(ctx, scope, id)
}

// insertComment posts a comment in a scope inside a transaction and answers its id.
func insertComment(ctx context.Context, tx *Tx, scope store.CommentScope, nc store.NewComment) (string, error) {
	id := store.NewID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO comments (id, space_id, change_request_id, revision_id, page_id, node_id,
		table_record, table_definition, posted_by, body, posted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, scope.SpaceID, scopeCR(scope), nc.RevisionID, nullString(nc.PageID), nullString(nc.NodeID),
		nullString(nc.TableRecord), nullString(nc.TableDefinition), nc.UserID, nc.Body, formatTime(tx.now)); err != nil {
		return "", fmt.Errorf("store: unable to post comment: %w", err)
	}
	return id, countComments(ctx, tx, scope)
}

// countComments refreshes the open-comment counter of a scope (the space's or the change request's).
func countComments(ctx context.Context, tx *Tx, scope store.CommentScope) error {
	var err error
	if scope.ChangeRequestID == nil {
		_, err = tx.ExecContext(ctx, `UPDATE spaces SET comments = (SELECT count(*) FROM comments
			WHERE space_id = ?1 AND change_request_id IS NULL AND resolved_at IS NULL) WHERE id = ?1`, scope.SpaceID)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE change_requests SET comments = (SELECT count(*) FROM comments
			WHERE change_request_id = ?1 AND resolved_at IS NULL) WHERE id = ?1`, *scope.ChangeRequestID)
	}
	if err != nil {
		return fmt.Errorf("store: unable to count comments: %w", err)
	}
	return nil
}

// FindComment returns a comment of a scope.
func (s *Store) FindComment(ctx context.Context, scope store.CommentScope, id string) (*store.Comment, error) {
	c := &store.Comment{}
	err := scanComment(s.reader.QueryRowContext(ctx, `SELECT `+commentColumns+commentFrom+`
		WHERE c.id = ? AND c.space_id = ? AND c.change_request_id IS ?`, id, scope.SpaceID, scopeCR(scope)), c)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Comment")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find comment: %w", err)
	}
	if err := s.fillComments(ctx, []*store.Comment{c}); err != nil {
		return nil, err
	}
	return c, nil
}

// FindComments lists the comments of a scope, newest first unless Asc.
func (s *Store) FindComments(ctx context.Context, scope store.CommentScope, f store.CommentFilter, p store.Page) (store.List[*store.Comment], error) {
	q := &listQuery{cols: commentColumns, from: `comments c`,
		join:  ` JOIN users u ON u.id = c.posted_by LEFT JOIN users r ON r.id = c.resolved_by`,
		order: byKeys(`c.posted_at`, `c.id`), desc: !f.Asc}
	thread, args := commentThread(scope)
	q.and(thread, args...)
	switch f.Status {
	case "open":
		q.and(`c.resolved_at IS NULL`)
	case "resolved":
		q.and(`c.resolved_at IS NOT NULL`)
	}
	if f.PageID != nil {
		q.and(`c.page_id = ?`, *f.PageID)
	}
	if len(f.Authors) > 0 {
		q.and(`c.posted_by IN (SELECT value FROM json_each(?))`, jsonStrings(f.Authors))
	}
	list, err := findList(ctx, s.reader, q, p, "comments", fill(scanComment))
	if err != nil {
		return list, err
	}
	if err := s.fillComments(ctx, list.Items); err != nil {
		return store.List[*store.Comment]{}, err
	}
	return list, nil
}

// fillComments loads the repliers and reactions of comments: two queries for any number of them.
func (s *Store) fillComments(ctx context.Context, comments []*store.Comment) error {
	if len(comments) == 0 {
		return nil
	}
	ids := make([]string, len(comments))
	byID := make(map[string]*store.Comment, len(comments))
	for i, c := range comments {
		ids[i], byID[c.ID] = c.ID, c
		c.Repliers, c.Reactions = []store.Replier{}, []store.Reaction{}
	}
	if err := queryEach(ctx, s.reader, "repliers", `SELECT x.comment_id, count(*), max(COALESCE(x.edited_at, x.posted_at)), `+userColumns+`
		FROM comment_replies x JOIN users u ON u.id = x.posted_by
		WHERE x.comment_id IN (SELECT value FROM json_each(?))
		GROUP BY x.comment_id, u.id ORDER BY 3 DESC`, []any{jsonStrings(ids)}, func(sc scanner) error {
		var cid, updated string
		var r store.Replier
		if err := scanUser(scanFirst{sc, []any{&cid, &r.Count, &updated}}, &r.User); err != nil {
			return err
		}
		r.UpdatedAt = parseTime(updated)
		byID[cid].Repliers = append(byID[cid].Repliers, r)
		return nil
	}); err != nil {
		return err
	}
	reactions, err := s.loadReactions(ctx, ids, "")
	if err != nil {
		return err
	}
	for id, rs := range reactions {
		byID[id[0]].Reactions = rs
	}
	return nil
}

// loadReactions loads the reactions of comments (reply "") or of one comment's replies, keyed by
// (comment id, reply id).
func (s *Store) loadReactions(ctx context.Context, commentIDs []string, replyOf string) (map[[2]string][]store.Reaction, error) {
	query := `SELECT x.comment_id, x.reply_id, x.emoji, x.reacted_at, ` + userColumns + `
		FROM comment_reactions x JOIN users u ON u.id = x.user_id
		WHERE x.comment_id IN (SELECT value FROM json_each(?1)) AND x.reply_id = '' AND ?2 = ''`
	if replyOf != "" {
		query = `SELECT x.comment_id, x.reply_id, x.emoji, x.reacted_at, ` + userColumns + `
			FROM comment_reactions x JOIN users u ON u.id = x.user_id
			WHERE x.comment_id = ?2 AND x.reply_id IN (SELECT value FROM json_each(?1))`
	}
	out := map[[2]string][]store.Reaction{}
	err := queryEach(ctx, s.reader, "reactions", query+` ORDER BY x.reacted_at, x.emoji`, []any{jsonStrings(commentIDs), replyOf}, func(sc scanner) error {
		var cid, rid, emoji, at string
		var u store.User
		if err := scanUser(scanFirst{sc, []any{&cid, &rid, &emoji, &at}}, &u); err != nil {
			return err
		}
		key := [2]string{cid, rid}
		list := out[key]
		i := 0
		for i < len(list) && list[i].Emoji != emoji {
			i++
		}
		if i == len(list) {
			list = append(list, store.Reaction{Emoji: emoji})
		}
		list[i].Users = append(list[i].Users, store.ReactionUser{User: u, ReactedAt: parseTime(at)})
		out[key] = list
		return nil
	})
	return out, err
}

// react adds and removes a user's reactions on a comment (reply "") or a reply.
func react(ctx context.Context, tx *Tx, commentID, replyID, userID string, added, removed []string) error {
	for _, e := range added {
		if _, err := tx.ExecContext(ctx, `INSERT INTO comment_reactions (comment_id, reply_id, emoji, user_id, reacted_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, commentID, replyID, e, userID, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to add reaction: %w", err)
		}
	}
	for _, e := range removed {
		if _, err := tx.ExecContext(ctx, `DELETE FROM comment_reactions WHERE comment_id = ? AND reply_id = ? AND emoji = ? AND user_id = ?`,
			commentID, replyID, e, userID); err != nil {
			return fmt.Errorf("store: unable to remove reaction: %w", err)
		}
	}
	return nil
}

// UpdateComment resolves or reopens a comment, changes its body, and applies the caller's
// reactions. The caller checks who may do what.
func (s *Store) UpdateComment(ctx context.Context, scope store.CommentScope, id, userID string, upd store.CommentUpdate) (*store.Comment, error) {
	err := s.write(ctx, func(tx *Tx) error {
		if err := commentExists(ctx, tx, scope, id); err != nil {
			return err
		}
		if upd.Body != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE comments SET body = ?, edited_at = ? WHERE id = ?`, *upd.Body, formatTime(tx.now), id); err != nil {
				return fmt.Errorf("store: unable to update comment: %w", err)
			}
		}
		if upd.Resolved != nil {
			if err := resolveComment(ctx, tx, id, userID, *upd.Resolved); err != nil {
				return err
			}
		}
		if err := react(ctx, tx, id, "", userID, upd.Added, upd.Removed); err != nil {
			return err
		}
		return countComments(ctx, tx, scope)
	})
	if err != nil {
		return nil, err
	}
	return s.FindComment(ctx, scope, id)
}

func resolveComment(ctx context.Context, tx *Tx, id, userID string, resolved bool) error {
	var err error
	if resolved {
		_, err = tx.ExecContext(ctx, `UPDATE comments SET resolved_at = COALESCE(resolved_at, ?), resolved_by = COALESCE(resolved_by, ?)
			WHERE id = ?`, formatTime(tx.now), userID, id)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE comments SET resolved_at = NULL, resolved_by = NULL WHERE id = ?`, id)
	}
	if err != nil {
		return fmt.Errorf("store: unable to resolve comment: %w", err)
	}
	return nil
}

func commentExists(ctx context.Context, tx *Tx, scope store.CommentScope, id string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM comments WHERE id = ? AND space_id = ? AND change_request_id IS ?`,
		id, scope.SpaceID, scopeCR(scope)).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to find comment: %w", err)
	}
	if n == 0 {
		return store.NotFound("Comment")
	}
	return nil
}

// DeleteComment deletes a comment with its replies and reactions; a missing one is no error.
func (s *Store) DeleteComment(ctx context.Context, scope store.CommentScope, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM comments WHERE id = ? AND space_id = ? AND change_request_id IS ?`,
			id, scope.SpaceID, scopeCR(scope)); err != nil {
			return fmt.Errorf("store: unable to delete comment: %w", err)
		}
		return countComments(ctx, tx, scope)
	})
}

const replyColumns = `x.id, x.comment_id, x.body, x.posted_at, x.edited_at, ` + userColumns

// FindCommenters lists the members of an organization who posted a comment or a reply in a scope.
func (s *Store) FindCommenters(ctx context.Context, scope store.CommentScope, orgID string, p store.Page) (store.List[*store.Member], error) {
	q := &listQuery{cols: memberColumns, from: `members m`, join: ` JOIN users u ON u.id = m.user_id`, order: byKeys(`m.user_id`)}
	q.and(`m.organization_id = ?`, orgID)
	thread, args := commentThread(scope)
	q.and(`m.user_id IN (SELECT c.posted_by FROM comments c WHERE `+thread+`
		UNION
		SELECT x.posted_by FROM comment_replies x JOIN comments c ON c.id = x.comment_id WHERE `+thread+`)`, append(args, args...)...)
	return findList(ctx, s.reader, q, p, "commenters", fill(scanMember))
}
