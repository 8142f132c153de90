package store

import (
	"context"
	"time"

	"github.com/quire-docs/quire/internal/conversations"
)

// JobAnalyseConversations is the kind of the job that analyses an organization's pending
// conversations; its payload is {"organization": id}. Ingestion enqueues it.
const JobAnalyseConversations = "analyse_conversations"

// ConversationAnalysisDelay is how long after the last ingestion the queued analysis job runs:
// each ingestion while it waits moves it later, so a burst of ingestions is one pass; but never
// later than ConversationAnalysisMaxWait after it was queued.
const (
	ConversationAnalysisDelay   = time.Second
	ConversationAnalysisMaxWait = 30 * time.Second
)

// PulseWeeks is the length of a cluster's weekly pulse.
const PulseWeeks = conversations.PulseWeeks

// ConversationPart is one message of a conversation.
type ConversationPart struct {
	Type string `json:"type"`
	Role string `json:"role"`
	Body string `json:"body"`
}

// ConversationInput is a conversation as ingested. CreatedAt nil means "when first ingested".
type ConversationInput struct {
	ID         string
	Source     string
	Subject    *string
	Parts      []ConversationPart
	URL        *string
	Attributes map[string]string
	CreatedAt  *time.Time
}

// Conversation is a stored conversation. ProcessedAt is when an analysis last read it (nil
// before the first); Revision counts its ingestions, Pending says it awaits analysis.
type Conversation struct {
	ID                string
	Source            string
	Subject           *string
	Parts             []ConversationPart
	URL               *string
	Attributes        map[string]string
	MetadataCreatedAt *time.Time
	CreatedAt         time.Time
	IngestedAt        time.Time
	ProcessedAt       *time.Time
	Revision          int64
	Pending           bool
}

// ConversationIssue is one problem found in a conversation. Text is what its features are
// computed from (the analysis reloads it).
type ConversationIssue struct {
	ID           string
	Title        string
	Summary      string
	Source       string
	Conversation string
	Cluster      string
	CreatedAt    time.Time
	IngestedAt   time.Time
	Text         string
}

// IssueWithConversation is an issue and the conversation it came from.
type IssueWithConversation struct {
	Issue        *ConversationIssue
	Conversation *Conversation
}

// ConversationsCluster is a group of similar issues, described. WeeklyPulse is computed when
// read, from the store's clock.
type ConversationsCluster struct {
	ID            string
	Label         string
	Icon          string
	Summary       string
	Sources       map[string]int
	Issues        int
	Conversations int
	WeeklyPulse   [PulseWeeks]int
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// ConversationIssueFilter narrows a list of issues.
type ConversationIssueFilter struct {
	Cluster      *string
	Conversation *string // a conversation id, in any source
}

// ConversationsClusterFilter orders and narrows a list of clusters. OrderBy is updatedAt
// (default), issues, conversations or a task count (always 0: ordered by id).
type ConversationsClusterFilter struct {
	OrderBy string
	Asc     bool
	Status  string // "", "pending" or "analysing"
}

// ClusterRecord is what the analysis keeps of a cluster besides its issues.
type ClusterRecord struct {
	ID        string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ConversationAnalysis is what one analysis pass starts from: the engine's state and the
// conversations waiting for it, read after the pass claimed the organization's queue.
type ConversationAnalysis struct {
	Version  int64 // SaveConversationAnalysis succeeds only while it is unchanged
	NextSeq  int
	Issues   []ConversationIssue
	Clusters []ClusterRecord
	Pending  []Conversation
}

// ConversationRef names one revision of a conversation.
type ConversationRef struct {
	Source   string
	ID       string
	Revision int64
}

// ConversationAnalysisResult is what one pass changed. Processed conversations whose revision
// moved since the pass read them stay pending (they were re-ingested meanwhile).
type ConversationAnalysisResult struct {
	Version         int64
	NextSeq         int
	Issues          []ConversationIssue // new, changed or moved issues
	RemovedIssues   []string
	Clusters        []ConversationsCluster // clusters whose membership changed
	DeletedClusters []string
	Processed       []ConversationRef
}

// Conversations are support conversations and the issues and clusters their analysis finds.
type Conversations interface {
	// IngestConversations stores conversations, all or none, each replacing the one with the
	// same source and id (a later one of the same call replaces an earlier), marks them pending
	// and queues the organization's analysis job unless one is already queued and not yet
	// started, which it then delays (ConversationAnalysisDelay, within
	// ConversationAnalysisMaxWait): a burst of ingestions is one pass. None: nothing changes.
	IngestConversations(ctx context.Context, orgID string, ins ...ConversationInput) error
	// FindConversation returns the conversation with an id (the most recently ingested when
	// several sources have that id), with its parts and metadata.
	FindConversation(ctx context.Context, orgID string, id string) (*Conversation, error)
	// FindConversations lists conversations, newest first (by CreatedAt), of one source or all.
	FindConversations(ctx context.Context, orgID string, source *string, p Page) (List[*Conversation], error)
	// FindConversationIssue returns an issue with its conversation.
	FindConversationIssue(ctx context.Context, orgID string, id string) (*IssueWithConversation, error)
	// FindConversationIssues lists issues with their conversations, newest conversation first.
	FindConversationIssues(ctx context.Context, orgID string, f ConversationIssueFilter, p Page) (List[*IssueWithConversation], error)
	// FindConversationsCluster returns a cluster.
	FindConversationsCluster(ctx context.Context, orgID string, id string) (*ConversationsCluster, error)
	// FindConversationsClusters lists clusters in the filter's order (descending by default).
	FindConversationsClusters(ctx context.Context, orgID string, f ConversationsClusterFilter, p Page) (List[*ConversationsCluster], error)
	// StartConversationAnalysis claims the organization's queued analysis (an ingestion from now
	// on queues another job) and returns the state and pending conversations to analyse.
	StartConversationAnalysis(ctx context.Context, orgID string) (*ConversationAnalysis, error)
	// SaveConversationAnalysis writes a pass's result in one transaction, or answers ECONFLICT
	// when another pass saved since this one started (its work is then already done).
	SaveConversationAnalysis(ctx context.Context, orgID string, res ConversationAnalysisResult) error
}

// WeeklyPulse counts times per week over the PulseWeeks weeks ending with the week of now
// (weeks run Monday 00:00 UTC to Monday), oldest first.
func WeeklyPulse(times []time.Time, now time.Time) [PulseWeeks]int {
	return conversations.WeeklyPulse(times, now)
}

// PulseStart is the first instant a weekly pulse ending with the week of now counts.
func PulseStart(now time.Time) time.Time { return conversations.PulseStart(now) }
