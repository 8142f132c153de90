package conversations

import "time"

// Part is one part of a conversation. Only messages written by the user (Type "message", Role
// "user") are read; team-member and assistant replies are ignored.
type Part struct {
	Type string
	Role string
	Body string
}

// Conversation is one support conversation. ID is unique within Source; re-ingesting the same
// (Source, ID) replaces the issues taken from it. A zero CreatedAt means "when it was analysed".
type Conversation struct {
	ID        string
	Source    string
	Subject   string
	Parts     []Part
	CreatedAt time.Time
}

// Issue is one problem raised in a conversation; it maps onto the public ConversationIssue.
type Issue struct {
	ID           string
	Title        string
	Summary      string
	Conversation string
	Source       string
	Cluster      string
	CreatedAt    time.Time // the conversation's creation time
	IngestedAt   time.Time // the analysis that produced the issue
	// Text is what the issue's features are computed from (its sentences, and the subject for
	// the first issue of a conversation). Persist it: Restore rebuilds the state from it.
	Text string
}

// Stats are a cluster's counts; they map onto the public schema's stats. quire has no tasks
// attached to clusters, so the Tasks* counts are always zero.
type Stats struct {
	Issues         int
	Conversations  int
	TasksTotal     int
	TasksBacklog   int
	TasksStarted   int
	TasksCompleted int
	TasksCancelled int
}

// Cluster is a group of similar issues, described; it maps onto the public
// ConversationsIssuesCluster.
type Cluster struct {
	ID          string
	Label       string
	Icon        string
	Summary     string
	WeeklyPulse [PulseWeeks]int
	Sources     map[string]int // issues per source
	Stats       Stats
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Issues      []string // member issue IDs, sorted
}

// PulseWeeks is the length of a cluster's weekly pulse.
const PulseWeeks = 13

// Result is what one Analyze call changed.
type Result struct {
	Issues          []Issue   // the issues of the batch's conversations, sorted by ID
	MovedIssues     []Issue   // issues of earlier batches whose cluster merged into another
	RemovedIssues   []string  // issue IDs dropped because their conversation was re-ingested
	Clusters        []Cluster // every cluster whose membership changed, sorted by ID
	DeletedClusters []string  // clusters left empty by re-ingestion
}

// ClusterRecord is the part of a cluster that is not derived from its issues: what Restore needs
// besides the issues.
type ClusterRecord struct {
	ID        string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// State is everything an Analyzer holds, in a form a store can persist and Restore can reload.
type State struct {
	Issues   []Issue
	Clusters []ClusterRecord
	NextSeq  int // the sequence number the next new cluster's ID is made from
}
