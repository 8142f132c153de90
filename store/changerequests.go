package store

import (
	"context"
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
	// Visible keeps only the change requests of spaces a person reads (nil: all).
	Visible *Visible
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

// ChangeRequests are a space's change requests: their own revision line, merged into the space.
type ChangeRequests interface {
	// CreateChangeRequest opens a change request on a space's current revision. Numbers are per
	// space, from 1; the single writer makes max+1 safe under concurrent creation.
	CreateChangeRequest(ctx context.Context, spaceID string, userID string, subject string) (*ChangeRequest, error)
	// CreateChangeRequestAt opens a change request on an earlier revision of the space's content
	// (one its current revision descends from, such as the revision last synced with a git
	// branch): its merge is three-way against that revision, so what the space changed since is
	// kept. EINVALID when the revision is not in the space's history.
	CreateChangeRequestAt(ctx context.Context, spaceID string, userID string, subject string, revisionID string) (*ChangeRequest, error)
	// CreateChangeRequestFromTemplate opens a change request whose first revision adds a
	// template's pages (as ApplyTemplate does), in one transaction: a refused template opens
	// nothing.
	CreateChangeRequestFromTemplate(ctx context.Context, spaceID string, userID string, subject string, changes []PageChange, files map[string]string) (*ChangeRequest, error)
	// FindChangeRequest returns a change request of a space by id or by number.
	FindChangeRequest(ctx context.Context, spaceID string, idOrNumber string) (*ChangeRequest, error)
	// FindChangeRequests lists change requests, newest first.
	FindChangeRequests(ctx context.Context, f ChangeRequestFilter, p Page) (List[*ChangeRequest], error)
	// MergeChangeRequest merges a change request into its space as a user (its mergedBy). With
	// conflicts nothing changes and conflicts is true; otherwise the space's new revision (with
	// both parents) is returned.
	MergeChangeRequest(ctx context.Context, spaceID string, crID string, userID string) (revision string, conflicts bool, err error)
	// UpdateChangeRequest changes a change request's subject, description or status. A merged change
	// request keeps its status.
	UpdateChangeRequest(ctx context.Context, spaceID string, id string, upd ChangeRequestUpdate) (*ChangeRequest, error)
	// UpdateChangeRequestContent applies a batch of page changes to a change request as one new
	// revision, atomically. A revert_page change without a revision reverts to the change request's
	// base.
	UpdateChangeRequestContent(ctx context.Context, spaceID string, crID string, userID string, changes []PageChange) (*BatchResult, error)
	// UpdateChangeRequestFromMain pulls the space's current content into a change request. A
	// conflict is an ECONFLICT error and changes nothing.
	UpdateChangeRequestFromMain(ctx context.Context, spaceID string, crID string) (string, error)
}

// BatchResult is what a content batch wrote.
type BatchResult struct {
	Revision string
	Refs     map[string]string // page and file refs to the ids they were given
	Pages    []PageOutcome     // each page the batch touched once, in the order it first touched it
	Files    []*RevisionFile   // the files inserted, in order
	Reusable []ReusableOutcome // each reusable content the batch touched, in the order it first touched it
	// ChangeRequest is the change request as the batch left it (its new revision and update
	// time): what the API answers, without reading it again.
	ChangeRequest *ChangeRequest
}
