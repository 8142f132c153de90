package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/quire-docs/quire/internal/conversations"
	"github.com/quire-docs/quire/store"
)

// analyseConversations is the handler of store.JobAnalyseConversations: one pass over every
// conversation of an organization ingested since the last pass. It restores the engine from the
// stored issues and clusters (so clusters persist and grow across passes and restarts), analyses
// the pending conversations in one batch, and saves what changed in one transaction. When two
// quire nodes run the same job, the second save finds the state moved on and does nothing: the
// first pass already took those conversations.
func analyseConversations(st Analysis, log *slog.Logger) Handler {
	return Handler{Run: func(ctx context.Context, payload string) error {
		var p struct {
			Organization string `json:"organization"`
		}
		if err := json.Unmarshal([]byte(payload), &p); err != nil || p.Organization == "" {
			return fmt.Errorf("conversations: bad payload %q", payload)
		}
		n, err := AnalyseConversations(ctx, st, p.Organization)
		if store.ErrorCode(err) == store.ECONFLICT {
			log.Info("conversation analysis already saved by another pass", "organization", p.Organization)
			return nil
		}
		if err == nil && n > 0 {
			log.Info("analysed conversations", "organization", p.Organization, "count", n)
		}
		return err
	}}
}

// Analysis is what an analysis pass reads and writes: the organization's conversations, on the
// store's clock.
type Analysis interface {
	store.Conversations
	store.Clock
}

// AnalyseConversations runs one analysis pass for an organization and returns how many
// conversations it read.
func AnalyseConversations(ctx context.Context, st Analysis, orgID string) (int, error) {
	an, err := st.StartConversationAnalysis(ctx, orgID)
	if err != nil || len(an.Pending) == 0 {
		return 0, err
	}
	state := conversations.State{NextSeq: an.NextSeq}
	for _, is := range an.Issues {
		state.Issues = append(state.Issues, engineIssue(is))
	}
	for _, r := range an.Clusters {
		state.Clusters = append(state.Clusters, conversations.ClusterRecord{ID: r.ID, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt})
	}
	a := conversations.Restore(conversations.DefaultParams(), state)
	batch := make([]conversations.Conversation, len(an.Pending))
	processed := make([]store.ConversationRef, len(an.Pending))
	for i, c := range an.Pending {
		ec := conversations.Conversation{ID: c.ID, Source: c.Source, CreatedAt: c.CreatedAt}
		if c.Subject != nil {
			ec.Subject = *c.Subject
		}
		for _, part := range c.Parts {
			ec.Parts = append(ec.Parts, conversations.Part{Type: part.Type, Role: part.Role, Body: part.Body})
		}
		batch[i] = ec
		processed[i] = store.ConversationRef{Source: c.Source, ID: c.ID, Revision: c.Revision}
	}
	res := a.Analyze(batch, st.Now())
	out := store.ConversationAnalysisResult{
		Version: an.Version, NextSeq: a.NextSeq(), RemovedIssues: res.RemovedIssues,
		DeletedClusters: res.DeletedClusters, Processed: processed,
	}
	for _, is := range append(res.Issues, res.MovedIssues...) {
		out.Issues = append(out.Issues, storeIssue(is))
	}
	for _, c := range res.Clusters {
		out.Clusters = append(out.Clusters, store.ConversationsCluster{
			ID: c.ID, Label: c.Label, Icon: c.Icon, Summary: c.Summary, Sources: c.Sources,
			Issues: c.Stats.Issues, Conversations: c.Stats.Conversations, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		})
	}
	return len(batch), st.SaveConversationAnalysis(ctx, orgID, out)
}

func engineIssue(is store.ConversationIssue) conversations.Issue {
	return conversations.Issue{ID: is.ID, Title: is.Title, Summary: is.Summary, Conversation: is.Conversation,
		Source: is.Source, Cluster: is.Cluster, CreatedAt: is.CreatedAt, IngestedAt: is.IngestedAt, Text: is.Text}
}

func storeIssue(is conversations.Issue) store.ConversationIssue {
	return store.ConversationIssue{ID: is.ID, Title: is.Title, Summary: is.Summary, Conversation: is.Conversation,
		Source: is.Source, Cluster: is.Cluster, CreatedAt: is.CreatedAt, IngestedAt: is.IngestedAt, Text: is.Text}
}
