package store

import (
	"encoding/json"
	"time"
)

// ChangeRequest proposes edits to a space: its own revision, started from the space's.
type ChangeRequest struct {
	ID                     string
	SpaceID                string
	Number                 int
	Status                 string // draft | open | archived | merged
	Subject                string
	Description            json.RawMessage // a rich-text document, nil when unset
	CreatedBy              User
	RevisionInitial        string
	RevisionID             string
	RevisionMergedAncestor *string
	RevisionMerged         *string
	MergedAt               *time.Time // when it was merged; nil until then
	MergedBy               *User      // who merged it; nil until then, and for merges before quire recorded it
	Comments               int
	ConversationsCluster   *string
	CreatedAt              time.Time
	UpdatedAt              time.Time
	Outdated               bool // main has moved on since the change request's base
	Links                  []ChangeRequestLink
}

// ChangeRequestLink is an external link of a change request (a ticket, a discussion).
type ChangeRequestLink struct {
	ID    string  `json:"id"`
	URL   string  `json:"url"`
	Title *string `json:"title,omitempty"`
}

// ChangeRequestFilter narrows a change request list; SpaceID or OrganizationID is set.
type ChangeRequestFilter struct {
	SpaceID           string
	OrganizationID    string
	Status            string
	Creator           *string
	Contributor       *string
	RequestedReviewer *string
	IssuesCluster     *string
}

// ChangeRequestUpdate holds the fields to change; nil leaves a field as it is.
type ChangeRequestUpdate struct {
	Subject     *string
	Description json.RawMessage
	Status      *string
	// Links replace the change request's links when not nil. A link whose ID is set must be one
	// the change request has (it keeps that ID); the others are given new IDs.
	Links *[]ChangeRequestLink
}

// Base is the last revision the change request and the space had in common.
func (c *ChangeRequest) Base() string {
	if c.RevisionMergedAncestor != nil {
		return *c.RevisionMergedAncestor
	}
	return c.RevisionInitial
}
