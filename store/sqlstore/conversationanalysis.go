package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// StartConversationAnalysis claims the organization's queued analysis, so an ingestion from now
// on queues another job, then reads the engine's state and the pending conversations in one
// read transaction (a consistent snapshot taken after the claim).
func (s *Store) StartConversationAnalysis(ctx context.Context, orgID string) (*store.ConversationAnalysis, error) {
	if err := s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE conversation_analysis SET queued = 0, queued_at = NULL WHERE organization_id = ?`, orgID)
		if err != nil {
			return fmt.Errorf("store: unable to claim analysis: %w", err)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	rtx, err := s.reader.beginRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: unable to begin: %w", err)
	}
	defer rtx.Rollback()
	an := &store.ConversationAnalysis{NextSeq: 1}
	err = rtx.QueryRowContext(ctx, `SELECT version, next_seq FROM conversation_analysis WHERE organization_id = ?`, orgID).
		Scan(&an.Version, &an.NextSeq)
	if errors.Is(err, sql.ErrNoRows) {
		return an, nil // nothing was ever ingested
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read analysis: %w", err)
	}
	if an.Issues, err = queryAll(ctx, rtx, "issues", `SELECT `+issueColumns+` FROM conversation_issues i
		WHERE i.organization_id = ? ORDER BY i.id`, []any{orgID}, value(scanIssue)); err != nil {
		return nil, err
	}
	if an.Clusters, err = queryAll(ctx, rtx, "clusters", `SELECT id, created_at, updated_at FROM conversation_clusters
		WHERE organization_id = ? ORDER BY id`, []any{orgID}, value(func(sc scanner, r *store.ClusterRecord) error {
		var created, updated string
		err := sc.Scan(&r.ID, &created, &updated)
		r.CreatedAt, r.UpdatedAt = parseTime(created), parseTime(updated)
		return err
	})); err != nil {
		return nil, err
	}
	if an.Pending, err = queryAll(ctx, rtx, "pending conversations", `SELECT `+conversationColumns+` FROM conversations c
		WHERE c.organization_id = ? AND c.pending = 1 ORDER BY c.source, c.id`, []any{orgID}, value(scanConversation)); err != nil {
		return nil, err
	}
	return an, nil
}

// SaveConversationAnalysis writes a pass's result in one transaction, or answers ECONFLICT when
// another pass saved since this one started.
func (s *Store) SaveConversationAnalysis(ctx context.Context, orgID string, res store.ConversationAnalysisResult) error {
	return s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		r, err := tx.ExecContext(ctx, `UPDATE conversation_analysis SET version = version + 1, next_seq = ?, analysed_at = ?
			WHERE organization_id = ? AND version = ?`, res.NextSeq, now, orgID, res.Version)
		if err != nil {
			return fmt.Errorf("store: unable to save analysis: %w", err)
		}
		if n, err := r.RowsAffected(); err != nil {
			return fmt.Errorf("store: unable to save analysis: %w", err)
		} else if n == 0 {
			return store.Errorf(store.ECONFLICT, "conversations: another analysis saved first.")
		}
		for _, id := range res.RemovedIssues {
			if _, err := tx.ExecContext(ctx, `DELETE FROM conversation_issues WHERE organization_id = ? AND id = ?`, orgID, id); err != nil {
				return fmt.Errorf("store: unable to delete issue: %w", err)
			}
		}
		for _, is := range res.Issues {
			if _, err := tx.ExecContext(ctx, `INSERT INTO conversation_issues
				(organization_id, id, source, conversation_id, cluster_id, title, summary, text, created_at, ingested_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (organization_id, id) DO UPDATE SET
					source = excluded.source, conversation_id = excluded.conversation_id, cluster_id = excluded.cluster_id,
					title = excluded.title, summary = excluded.summary, text = excluded.text,
					created_at = excluded.created_at, ingested_at = excluded.ingested_at`,
				orgID, is.ID, is.Source, is.Conversation, is.Cluster, is.Title, is.Summary, is.Text,
				formatTime(is.CreatedAt), formatTime(is.IngestedAt)); err != nil {
				return fmt.Errorf("store: unable to save issue: %w", err)
			}
		}
		for _, id := range res.DeletedClusters {
			if _, err := tx.ExecContext(ctx, `DELETE FROM conversation_clusters WHERE organization_id = ? AND id = ?`, orgID, id); err != nil {
				return fmt.Errorf("store: unable to delete cluster: %w", err)
			}
		}
		for _, k := range res.Clusters {
			sources, err := json.Marshal(k.Sources)
			if err != nil {
				return fmt.Errorf("store: unable to encode sources: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO conversation_clusters
				(organization_id, id, label, icon, summary, sources, issues, conversations, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (organization_id, id) DO UPDATE SET
					label = excluded.label, icon = excluded.icon, summary = excluded.summary, sources = excluded.sources,
					issues = excluded.issues, conversations = excluded.conversations, updated_at = excluded.updated_at`,
				orgID, k.ID, k.Label, k.Icon, k.Summary, string(sources), k.Issues, k.Conversations,
				formatTime(k.CreatedAt), formatTime(k.UpdatedAt)); err != nil {
				return fmt.Errorf("store: unable to save cluster: %w", err)
			}
		}
		for _, c := range res.Processed {
			if _, err := tx.ExecContext(ctx, `UPDATE conversations SET pending = 0, processed_at = ?
				WHERE organization_id = ? AND source = ? AND id = ? AND revision = ?`, now, orgID, c.Source, c.ID, c.Revision); err != nil {
				return fmt.Errorf("store: unable to mark conversation processed: %w", err)
			}
		}
		return nil
	})
}
