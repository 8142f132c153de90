package store

import (
	"time"
)

// RestoreWindow is how long a deleted space can be restored; after it the purge job removes it.
const RestoreWindow = 7 * 24 * time.Hour

// Space holds pages and files; it lives in an organization, optionally inside a collection.
type Space struct {
	ID                  string
	OrganizationID      string
	ParentID            *string
	Title               string
	Emoji               string
	Icon                *string // an image URL shown instead of the emoji
	Visibility          string
	EditMode            string
	DefaultLevel        Role
	Language            *string
	MergeRules          MergeRules
	RevisionID          string
	Comments            int
	ChangeRequests      int
	ChangeRequestsOpen  int
	ChangeRequestsDraft int
	CreatedAt           time.Time
	UpdatedAt           time.Time
	DeletedAt           *time.Time
}

// SpaceCreate holds the fields a new space starts with.
type SpaceCreate struct {
	Title    string
	Emoji    string
	ParentID *string
	Language *string
	EditMode string
	// Pages the space starts with: a batch of insert_page changes (TemplateChanges makes one),
	// written as its first revision in the same transaction. None: the space starts empty.
	Pages []PageChange
}

// SpaceUpdate holds the fields to change; nil leaves a field as it is.
type SpaceUpdate struct {
	Title           *string
	Emoji           *string
	SetIcon         bool // with Icon: set (nil removes) the space's icon
	Icon            *string
	EditMode        *string
	Language        *string
	MergeRules      *MergeRules
	SetDefaultLevel bool
	DefaultLevel    Role
}
