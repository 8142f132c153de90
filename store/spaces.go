package store

import (
	"context"
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

// Spaces are spaces and collections, with their moves, transfers and restores.
type Spaces interface {
	// CollectionLevels returns, for every collection of an organization, its parent and default
	// level, so content levels can be resolved through `inherit` without a query per item. The
	// answer may be shared with other callers: read it, never change it.
	CollectionLevels(ctx context.Context, orgID string) (Levels, error)
	// CreateCollection creates a collection at the end of its parent (or of the top level).
	CreateCollection(ctx context.Context, orgID string, title string, parent *string) (*Collection, error)
	// CreateSpace creates a space at the end of its parent collection (or of the top level).
	CreateSpace(ctx context.Context, orgID string, creatorID string, c SpaceCreate) (*Space, error)
	// DeleteCollection deletes a collection and the collections under it; the spaces in them are
	// soft-deleted (restorable, at the top level, for 7 days). Deleting a missing one is no error.
	DeleteCollection(ctx context.Context, id string) error
	// DeleteSpace soft-deletes a space: hidden from lists, restorable for RestoreWindow, then purged.
	// Deleting a missing or already deleted space is no error.
	DeleteSpace(ctx context.Context, id string) error
	// DuplicateSpace copies a space's settings into a new space placed right after it.
	DuplicateSpace(ctx context.Context, id string, creatorID string) (*Space, error)
	// FindCollection returns a collection, whatever its organization: the caller checks access.
	FindCollection(ctx context.Context, id string) (*Collection, error)
	// FindCollections lists an organization's collections, oldest first; only top-level ones unless
	// nested.
	// nested; only those vis lets a person read (nil: all).
	FindCollections(ctx context.Context, orgID string, nested bool, vis *Visible, p Page) (List[*Collection], error)
	// FindSpace returns a space, deleted or not, whatever its organization: the caller checks access.
	FindSpace(ctx context.Context, id string) (*Space, error)
	// FindSpaceForUser returns a space with the user's membership of its organization, in one
	// query: the hot path of every space request. member is false when the user is not a member.
	FindSpaceForUser(ctx context.Context, id string, userID string) (sp *Space, role Role, member bool, err error)
	// FindSpaces lists an organization's spaces that are not deleted, oldest first (newest first when
	// desc); only those vis lets a person read (nil: all).
	FindSpaces(ctx context.Context, orgID string, desc bool, vis *Visible, p Page) (List[*Space], error)
	// FindSpacesInCollection lists the spaces directly in a collection, in their order; only those
	// vis lets a person read (nil: all).
	FindSpacesInCollection(ctx context.Context, collectionID string, vis *Visible, p Page) (List[*Space], error)
	// MoveCollection moves a collection; a collection cannot go into itself or a descendant.
	MoveCollection(ctx context.Context, id string, m Move) (*Collection, error)
	// MoveSpace moves a space to another parent or position.
	MoveSpace(ctx context.Context, id string, m Move) (*Space, error)
	// PurgeDeletedSpaces removes for good the spaces deleted more than RestoreWindow ago, with the
	// content only they used (see purgeContent).
	PurgeDeletedSpaces(ctx context.Context) (int, error)
	// RestoreSpace brings back a space deleted less than RestoreWindow ago, at the end of its parent.
	RestoreSpace(ctx context.Context, id string) (*Space, error)
	// SpaceTitles returns the titles of spaces by id, in one query.
	SpaceTitles(ctx context.Context, ids []string) (map[string]string, error)
	// TransferCollection moves a collection, with everything under it, to the top level of another
	// organization.
	TransferCollection(ctx context.Context, id string, targetOrgID string) (*Collection, error)
	// TransferSpace moves a space to the top level of another organization.
	TransferSpace(ctx context.Context, id string, targetOrgID string) (*Space, error)
	// UpdateCollection applies an update.
	UpdateCollection(ctx context.Context, id string, upd CollectionUpdate) (*Collection, error)
	// UpdateSpace applies an update to a space that is not deleted.
	UpdateSpace(ctx context.Context, id string, upd SpaceUpdate) (*Space, error)
}
