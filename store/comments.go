package store

import (
	"context"
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

// Comments are the comments and replies on a space or a change request.
type Comments interface {
	// DeleteComment deletes a comment with its replies and reactions; a missing one is no error.
	DeleteComment(ctx context.Context, scope CommentScope, id string) error
	// FindComment returns a comment of a scope.
	FindComment(ctx context.Context, scope CommentScope, id string) (*Comment, error)
	// FindCommenters lists the members of an organization who posted a comment or a reply in a scope.
	FindCommenters(ctx context.Context, scope CommentScope, orgID string, p Page) (List[*Member], error)
	// FindComments lists the comments of a scope, newest first unless Asc.
	FindComments(ctx context.Context, scope CommentScope, f CommentFilter, p Page) (List[*Comment], error)
	// PostComment posts a comment in a scope.
	PostComment(ctx context.Context, scope CommentScope, nc NewComment) (*Comment, error)
	// UpdateComment resolves or reopens a comment, changes its body, and applies the caller's
	// reactions. The caller checks who may do what.
	UpdateComment(ctx context.Context, scope CommentScope, id string, userID string, upd CommentUpdate) (*Comment, error)
	// DeleteReply deletes a reply and its reactions; a missing one is no error.
	DeleteReply(ctx context.Context, scope CommentScope, commentID string, id string) error
	// FindReplies lists a comment's replies, oldest first.
	FindReplies(ctx context.Context, scope CommentScope, commentID string, p Page) (List[*Reply], error)
	// FindReply returns a reply of a comment of a scope.
	FindReply(ctx context.Context, scope CommentScope, commentID string, id string) (*Reply, error)
	// PostReply posts a reply to a comment of a scope.
	PostReply(ctx context.Context, scope CommentScope, commentID string, userID string, body string) (*Reply, error)
	// UpdateReply changes a reply's body and applies the caller's reactions; Resolved resolves or
	// reopens the whole thread.
	UpdateReply(ctx context.Context, scope CommentScope, commentID string, id string, userID string, upd CommentUpdate) (*Reply, error)
}
