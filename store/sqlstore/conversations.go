package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/quire-docs/quire/store"
)

// IngestConversations stores conversations in one transaction, each replacing the one with the
// same source and id, marks them pending and queues the organization's analysis job unless one is
// queued already. No conversations: nothing is written.
func (s *Store) IngestConversations(ctx context.Context, orgID string, ins ...store.ConversationInput) error {
	if len(ins) == 0 {
		return nil
	}
	type encoded struct{ parts, attrs string }
	enc := make([]encoded, len(ins))
	for i, in := range ins {
		parts, err := json.Marshal(in.Parts)
		if err != nil {
			return fmt.Errorf("store: unable to encode parts: %w", err)
		}
		attrs := in.Attributes
		if attrs == nil {
			attrs = map[string]string{}
		}
		attrJSON, err := json.Marshal(attrs)
		if err != nil {
			return fmt.Errorf("store: unable to encode attributes: %w", err)
		}
		enc[i] = encoded{string(parts), string(attrJSON)}
	}
	return s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		for i, in := range ins {
			var metaCreated, created any
			created = now
			if in.CreatedAt != nil {
				metaCreated = formatTime(*in.CreatedAt)
				created = metaCreated
			}
			// A re-ingestion without a creation time keeps the first ingestion's.
			if _, err := tx.ExecContext(ctx, `INSERT INTO conversations
				(organization_id, source, id, subject, parts, url, attributes, metadata_created_at,
				 created_at, ingested_at, processed_at, revision, pending)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 1, 1)
				ON CONFLICT (organization_id, source, id) DO UPDATE SET
					subject = excluded.subject, parts = excluded.parts, url = excluded.url,
					attributes = excluded.attributes, metadata_created_at = excluded.metadata_created_at,
					created_at = COALESCE(excluded.metadata_created_at, conversations.created_at),
					ingested_at = excluded.ingested_at,
					revision = conversations.revision + 1, pending = 1`,
				orgID, in.Source, in.ID, nullString(in.Subject), enc[i].parts, nullString(in.URL), enc[i].attrs,
				metaCreated, created, now); err != nil {
				return fmt.Errorf("store: unable to store conversation: %w", err)
			}
		}
		runAt := tx.now.Add(store.ConversationAnalysisDelay)
		var queued int
		var queuedAt sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT queued, queued_at FROM conversation_analysis WHERE organization_id = ?`, orgID).Scan(&queued, &queuedAt)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			_, err = tx.ExecContext(ctx, `INSERT INTO conversation_analysis (organization_id, queued, queued_at, version, next_seq)
				VALUES (?, 1, ?, 0, 1)`, orgID, now)
		case err != nil:
		case queued == 1:
			// Queued and not started: the job waits for the burst to end, within its bound. (A
			// running job of the organization, pending until it finishes, may be moved too, to no
			// effect: finishing it sets its state whatever its time.)
			if latest := parseTime(queuedAt.String).Add(store.ConversationAnalysisMaxWait); runAt.After(latest) {
				runAt = latest
			}
			payload, _ := json.Marshal(map[string]string{"organization": orgID})
			_, err = tx.ExecContext(ctx, `UPDATE jobs SET run_at = ?, updated_at = ?
				WHERE kind = ? AND payload = ? AND state = 'pending' AND attempts = 0 AND run_at < ?`,
				formatTime(runAt), now, store.JobAnalyseConversations, string(payload), formatTime(runAt))
			if err != nil {
				return fmt.Errorf("store: unable to delay analysis: %w", err)
			}
			return nil
		default:
			_, err = tx.ExecContext(ctx, `UPDATE conversation_analysis SET queued = 1, queued_at = ? WHERE organization_id = ?`, now, orgID)
		}
		if err != nil {
			return fmt.Errorf("store: unable to queue analysis: %w", err)
		}
		payload, _ := json.Marshal(map[string]string{"organization": orgID})
		return enqueueJob(ctx, tx, store.JobAnalyseConversations, string(payload), runAt)
	})
}

const conversationColumns = `c.source, c.id, c.subject, c.parts, c.url, c.attributes, c.metadata_created_at,
	c.created_at, c.ingested_at, c.processed_at, c.revision, c.pending`

func scanConversation(sc scanner, c *store.Conversation) error {
	var subject, url, metaCreated, processed sql.NullString
	var parts, attrs, created, ingested string
	var pending int
	if err := sc.Scan(&c.Source, &c.ID, &subject, &parts, &url, &attrs, &metaCreated,
		&created, &ingested, &processed, &c.Revision, &pending); err != nil {
		return err
	}
	c.Subject, c.URL = stringPtr(subject), stringPtr(url)
	c.MetadataCreatedAt, c.ProcessedAt = parseNullTime(metaCreated), parseNullTime(processed)
	c.CreatedAt, c.IngestedAt = parseTime(created), parseTime(ingested)
	c.Pending = pending != 0
	if err := json.Unmarshal([]byte(parts), &c.Parts); err != nil {
		return fmt.Errorf("parts: %w", err)
	}
	return json.Unmarshal([]byte(attrs), &c.Attributes)
}

// FindConversation returns the conversation with an id, the most recently ingested when
// several sources have one.
func (s *Store) FindConversation(ctx context.Context, orgID, id string) (*store.Conversation, error) {
	var c store.Conversation
	err := scanConversation(s.reader.QueryRowContext(ctx, `SELECT `+conversationColumns+` FROM conversations c
		WHERE c.organization_id = ? AND c.id = ? ORDER BY c.ingested_at DESC, c.source LIMIT 1`, orgID, id), &c)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Conversation")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find conversation: %w", err)
	}
	return &c, nil
}

// FindConversations lists conversations, newest first, of one source or all.
func (s *Store) FindConversations(ctx context.Context, orgID string, source *string, p store.Page) (store.List[*store.Conversation], error) {
	q := &listQuery{cols: conversationColumns, from: `conversations c`, order: byKeys(`c.created_at`, `c.source`, `c.id`), desc: true}
	q.and(`c.organization_id = ?`, orgID)
	if source != nil {
		q.and(`c.source = ?`, *source)
	}
	return findList(ctx, s.reader, q, p, "conversations", fill(scanConversation))
}

const issueColumns = `i.id, i.title, i.summary, i.source, i.conversation_id, i.cluster_id, i.created_at, i.ingested_at, i.text`

func scanIssue(sc scanner, is *store.ConversationIssue) error {
	var created, ingested string
	if err := sc.Scan(&is.ID, &is.Title, &is.Summary, &is.Source, &is.Conversation, &is.Cluster,
		&created, &ingested, &is.Text); err != nil {
		return err
	}
	is.CreatedAt, is.IngestedAt = parseTime(created), parseTime(ingested)
	return nil
}

// scanIssueWithConversation scans an issue's columns then its conversation's: the conversation's
// scan runs inside the issue's, with the issue's destinations first.
func scanIssueWithConversation(sc scanner) (*store.IssueWithConversation, error) {
	iw := &store.IssueWithConversation{Issue: &store.ConversationIssue{}, Conversation: &store.Conversation{}}
	err := scanIssue(scanFunc(func(issue ...any) error {
		return scanConversation(scanFirst{sc, issue}, iw.Conversation)
	}), iw.Issue)
	return iw, err
}

const (
	issueConversation = ` JOIN conversations c
	ON c.organization_id = i.organization_id AND c.source = i.source AND c.id = i.conversation_id`
	issueJoin = ` FROM conversation_issues i` + issueConversation
)

// FindConversationIssue returns an issue with its conversation.
func (s *Store) FindConversationIssue(ctx context.Context, orgID, id string) (*store.IssueWithConversation, error) {
	iw, err := scanIssueWithConversation(s.reader.QueryRowContext(ctx, `SELECT `+issueColumns+`, `+conversationColumns+
		issueJoin+` WHERE i.organization_id = ? AND i.id = ?`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Conversation issue")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find conversation issue: %w", err)
	}
	return iw, nil
}

// FindConversationIssues lists issues with their conversations, newest conversation first.
func (s *Store) FindConversationIssues(ctx context.Context, orgID string, f store.ConversationIssueFilter, p store.Page) (store.List[*store.IssueWithConversation], error) {
	q := &listQuery{cols: issueColumns + `, ` + conversationColumns, from: `conversation_issues i`, join: issueConversation,
		order: byKeys(`i.created_at`, `i.id`), desc: true}
	q.and(`i.organization_id = ?`, orgID)
	if f.Cluster != nil {
		q.and(`i.cluster_id = ?`, *f.Cluster)
	}
	if f.Conversation != nil {
		q.and(`i.conversation_id = ?`, *f.Conversation)
	}
	return findList(ctx, s.reader, q, p, "conversation issues", scanIssueWithConversation)
}

// clusterSortKeys are the sort expressions of the cluster orders, before the id.
var clusterSortKeys = map[string]sortKey{
	"":              {expr: "k.updated_at"},
	"updatedAt":     {expr: "k.updated_at"},
	"issues":        {expr: "k.issues", integer: true},
	"conversations": {expr: "k.conversations", integer: true},
	// quire has no tasks on clusters: every count is 0, so these order by id alone (an
	// expression, as a bare 0 in ORDER BY would name a column).
	"tasksTotal":   {expr: "(k.issues * 0)", integer: true},
	"tasksBacklog": {expr: "(k.issues * 0)", integer: true},
	"tasksStarted": {expr: "(k.issues * 0)", integer: true},
}

const clusterColumns = `k.id, k.label, k.icon, k.summary, k.sources, k.issues, k.conversations, k.created_at, k.updated_at`

func scanCluster(sc scanner, k *store.ConversationsCluster) error {
	var sources, created, updated string
	if err := sc.Scan(&k.ID, &k.Label, &k.Icon, &k.Summary, &sources, &k.Issues, &k.Conversations,
		&created, &updated); err != nil {
		return err
	}
	k.CreatedAt, k.UpdatedAt = parseTime(created), parseTime(updated)
	return json.Unmarshal([]byte(sources), &k.Sources)
}

// clusterStatus is the condition that a cluster holds issues of conversations re-ingested since
// the last analysis, the organization's queue flag (the parameter: 1 pending, 0 analysing)
// telling pending (queued) from analysing.
const clusterStatus = `EXISTS (
	SELECT 1 FROM conversation_issues si JOIN conversations sc
		ON sc.organization_id = si.organization_id AND sc.source = si.source AND sc.id = si.conversation_id
	WHERE si.organization_id = k.organization_id AND si.cluster_id = k.id AND sc.pending = 1
		AND EXISTS (SELECT 1 FROM conversation_analysis a WHERE a.organization_id = k.organization_id AND a.queued = ?))`

// FindConversationsCluster returns a cluster.
func (s *Store) FindConversationsCluster(ctx context.Context, orgID, id string) (*store.ConversationsCluster, error) {
	var k store.ConversationsCluster
	err := scanCluster(s.reader.QueryRowContext(ctx, `SELECT `+clusterColumns+` FROM conversation_clusters k
		WHERE k.organization_id = ? AND k.id = ?`, orgID, id), &k)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Conversations issues cluster")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find cluster: %w", err)
	}
	items := []*store.ConversationsCluster{&k}
	return &k, s.fillPulses(ctx, orgID, items)
}

// FindConversationsClusters lists clusters in the filter's order.
func (s *Store) FindConversationsClusters(ctx context.Context, orgID string, f store.ConversationsClusterFilter, p store.Page) (store.List[*store.ConversationsCluster], error) {
	var out store.List[*store.ConversationsCluster]
	sk, ok := clusterSortKeys[f.OrderBy]
	if !ok {
		return out, store.Errorf(store.EINVALID, "orderBy: %q is not a cluster order.", f.OrderBy)
	}
	if f.Status != "" && f.Status != "pending" && f.Status != "analysing" {
		return out, store.Errorf(store.EINVALID, "status: %q is not a cluster status.", f.Status)
	}
	q := &listQuery{cols: clusterColumns, from: `conversation_clusters k`, order: []sortKey{sk, {expr: `k.id`}}, desc: !f.Asc}
	q.and(`k.organization_id = ?`, orgID)
	if f.Status != "" {
		q.and(clusterStatus, f.Status == "pending")
	}
	out, err := findList(ctx, s.reader, q, p, "clusters", fill(scanCluster))
	if err != nil {
		return out, err
	}
	return out, s.fillPulses(ctx, orgID, out.Items)
}

// fillPulses computes the weekly pulse of clusters from their issues' creation times, as of the
// store's clock.
func (s *Store) fillPulses(ctx context.Context, orgID string, items []*store.ConversationsCluster) error {
	if len(items) == 0 {
		return nil
	}
	now := s.Now()
	ids := make([]string, len(items))
	byID := map[string]*store.ConversationsCluster{}
	for i, k := range items {
		ids[i] = k.ID
		byID[k.ID] = k
	}
	times := map[string][]time.Time{}
	if err := queryEach(ctx, s.reader, "weekly pulses", `SELECT cluster_id, created_at FROM conversation_issues
		WHERE organization_id = ? AND cluster_id IN (SELECT value FROM json_each(?)) AND created_at >= ?`,
		[]any{orgID, jsonStrings(ids), formatTime(store.PulseStart(now))}, func(sc scanner) error {
			var id, created string
			err := sc.Scan(&id, &created)
			times[id] = append(times[id], parseTime(created))
			return err
		}); err != nil {
		return err
	}
	for id, k := range byID {
		k.WeeklyPulse = store.WeeklyPulse(times[id], now)
	}
	return nil
}
