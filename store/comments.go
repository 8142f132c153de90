package store

import (
	"time"
)

// CommentScope is where a comment thread lives: a space's content, or a change request's.
type CommentScope struct {
	SpaceID         string
	ChangeRequestID *string
}

// Comment is a comment with its replies' summary and its reactions.
type Comment struct {
	ID              string
	Scope           CommentScope
	RevisionID      string
	PageID          *string
	NodeID          *string
	TableRecord     *string
	TableDefinition *string
	PostedBy        User
	Body            string
	PostedAt        time.Time
	EditedAt        *time.Time
	ResolvedAt      *time.Time
	ResolvedBy      *User
	Replies         int
	Repliers        []Replier
	Reactions       []Reaction
}

// Reply is a reply to a comment.
type Reply struct {
	ID        string
	CommentID string
	PostedBy  User
	Body      string
	PostedAt  time.Time
	EditedAt  *time.Time
	Reactions []Reaction
}

// Replier is a user who replied to a comment: how often, and when last.
type Replier struct {
	User      User
	Count     int
	UpdatedAt time.Time
}

// Reaction is one emoji with the users who reacted with it, first reaction first.
type Reaction struct {
	Emoji string
	Users []ReactionUser
}

// ReactionUser is a user's reaction.
type ReactionUser struct {
	User      User
	ReactedAt time.Time
}

// NewComment is what posting a comment needs.
type NewComment struct {
	RevisionID      string
	PageID          *string
	NodeID          *string
	TableRecord     *string
	TableDefinition *string
	UserID          string
	Body            string
}

// CommentFilter narrows a comment list.
type CommentFilter struct {
	Status  string // all | open | resolved
	PageID  *string
	Authors []string
	Asc     bool
}

// Update changes a comment or a reply; nil leaves a field as it is.
type CommentUpdate struct {
	Resolved *bool
	Body     *string
	Added    []string
	Removed  []string
}
