package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// Replies to comments.

func scanReply(sc interface{ Scan(...any) error }, r *store.Reply) error {
	var posted string
	var edited sql.NullString
	if err := scanUser(scanFirst{sc, []any{&r.ID, &r.CommentID, &r.Body, &posted, &edited}}, &r.PostedBy); err != nil {
		return err
	}
	r.PostedAt, r.EditedAt = parseTime(posted), parseNullTime(edited)
	return nil
}

// PostReply posts a reply to a comment of a scope.
func (s *Store) PostReply(ctx context.Context, scope store.CommentScope, commentID, userID, body string) (*store.Reply, error) {
	id := store.NewID()
	err := s.write(ctx, func(tx *Tx) error {
		if err := commentExists(ctx, tx, scope, commentID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO comment_replies (id, comment_id, posted_by, body, posted_at) VALUES (?, ?, ?, ?, ?)`,
			id, commentID, userID, body, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to post reply: %w", err)
		}
		return countReplies(ctx, tx, commentID)
	})
	if err != nil {
		return nil, err
	}
	return s.FindReply(ctx, scope, commentID, id)
}

func countReplies(ctx context.Context, tx *Tx, commentID string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE comments SET replies = (SELECT count(*) FROM comment_replies WHERE comment_id = ?1)
		WHERE id = ?1`, commentID); err != nil {
		return fmt.Errorf("store: unable to count replies: %w", err)
	}
	return nil
}

// FindReply returns a reply of a comment of a scope.
func (s *Store) FindReply(ctx context.Context, scope store.CommentScope, commentID, id string) (*store.Reply, error) {
	r := &store.Reply{}
	err := scanReply(s.reader.QueryRowContext(ctx, `SELECT `+replyColumns+`
		FROM comment_replies x JOIN users u ON u.id = x.posted_by JOIN comments c ON c.id = x.comment_id
		WHERE x.id = ? AND x.comment_id = ? AND c.space_id = ? AND c.change_request_id IS ?`,
		id, commentID, scope.SpaceID, scopeCR(scope)), r)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Reply")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find reply: %w", err)
	}
	reactions, err := s.loadReactions(ctx, []string{r.ID}, commentID)
	if err != nil {
		return nil, err
	}
	r.Reactions = reactions[[2]string{commentID, r.ID}]
	if r.Reactions == nil {
		r.Reactions = []store.Reaction{}
	}
	return r, nil
}

// FindReplies lists a comment's replies, oldest first.
func (s *Store) FindReplies(ctx context.Context, scope store.CommentScope, commentID string, p store.Page) (store.List[*store.Reply], error) {
	c, err := s.FindComment(ctx, scope, commentID)
	if err != nil {
		return store.List[*store.Reply]{}, err
	}
	q := &listQuery{cols: replyColumns, from: `comment_replies x JOIN users u ON u.id = x.posted_by`, order: byKeys(`x.posted_at`, `x.id`)}
	q.and(`x.comment_id = ?`, commentID)
	list, err := findPage(ctx, s.reader, q, p, c.Replies, "replies", fill(scanReply))
	if err != nil {
		return list, err
	}
	ids := make([]string, len(list.Items))
	for i, r := range list.Items {
		ids[i] = r.ID
	}
	reactions, err := s.loadReactions(ctx, ids, commentID)
	if err != nil {
		return store.List[*store.Reply]{}, err
	}
	for _, r := range list.Items {
		r.Reactions = reactions[[2]string{commentID, r.ID}]
		if r.Reactions == nil {
			r.Reactions = []store.Reaction{}
		}
	}
	return list, nil
}

// UpdateReply changes a reply's body and applies the caller's reactions; Resolved resolves or
// reopens the whole thread.
func (s *Store) UpdateReply(ctx context.Context, scope store.CommentScope, commentID, id, userID string, upd store.CommentUpdate) (*store.Reply, error) {
	err := s.write(ctx, func(tx *Tx) error {
		if err := commentExists(ctx, tx, scope, commentID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM comment_replies WHERE id = ? AND comment_id = ?`, id, commentID).Scan(&n); err != nil {
			return fmt.Errorf("store: unable to find reply: %w", err)
		}
		if n == 0 {
			return store.NotFound("Reply")
		}
		if upd.Body != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE comment_replies SET body = ?, edited_at = ? WHERE id = ?`, *upd.Body, formatTime(tx.now), id); err != nil {
				return fmt.Errorf("store: unable to update reply: %w", err)
			}
		}
		if upd.Resolved != nil {
			if err := resolveComment(ctx, tx, commentID, userID, *upd.Resolved); err != nil {
				return err
			}
			if err := countComments(ctx, tx, scope); err != nil {
				return err
			}
		}
		return react(ctx, tx, commentID, id, userID, upd.Added, upd.Removed)
	})
	if err != nil {
		return nil, err
	}
	return s.FindReply(ctx, scope, commentID, id)
}

// DeleteReply deletes a reply and its reactions; a missing one is no error.
func (s *Store) DeleteReply(ctx context.Context, scope store.CommentScope, commentID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		if err := commentExists(ctx, tx, scope, commentID); err != nil {
			if store.ErrorCode(err) == store.ENOTFOUND {
				return nil
			}
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM comment_replies WHERE id = ? AND comment_id = ?`, id, commentID); err != nil {
			return fmt.Errorf("store: unable to delete reply: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM comment_reactions WHERE comment_id = ? AND reply_id = ?`, commentID, id); err != nil {
			return fmt.Errorf("store: unable to delete reply reactions: %w", err)
		}
		return countReplies(ctx, tx, commentID)
	})
}
