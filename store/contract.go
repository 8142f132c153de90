package store

import (
	"context"
	"encoding/json"
	"time"
)

// Store is the whole contract: what server, jobs and cmd take. An implementation (store/sqlite)
// satisfies it; store/storetest checks that it keeps it.
type Store interface {
	Users
	Orgs
	Spaces
	Content
	ChangeRequests
	Comments
	Sites
	Jobs
	Admin
}

// PoolStats is the use of one connection pool.
type PoolStats struct {
	InUse     int
	Idle      int
	WaitCount int64
}

// Admin is the upkeep of the store itself: backups, integrity, the clock and what metrics read.
type Admin interface {
	Backup(ctx context.Context, path string) error
	CheckIntegrity(ctx context.Context) error
	Close() error
	// Now is the clock every write and expiry check reads.
	Now() time.Time
	PendingJobs(ctx context.Context) (map[string]int, error)
	PoolStats() map[string]PoolStats
}

// ChangeRequests are a space's change requests: their own revision line, merged into the space.
type ChangeRequests interface {
	CreateChangeRequest(ctx context.Context, spaceID string, userID string, subject string) (*ChangeRequest, error)
	FindChangeRequest(ctx context.Context, spaceID string, idOrNumber string) (*ChangeRequest, error)
	FindChangeRequests(ctx context.Context, f ChangeRequestFilter, p Page) (List[*ChangeRequest], error)
	MergeChangeRequest(ctx context.Context, spaceID string, crID string) (revision string, conflicts bool, err error)
	UpdateChangeRequest(ctx context.Context, spaceID string, id string, upd ChangeRequestUpdate) (*ChangeRequest, error)
	UpdateChangeRequestContent(ctx context.Context, spaceID string, crID string, userID string, changes []PageChange) (*BatchResult, error)
	UpdateChangeRequestFromMain(ctx context.Context, spaceID string, crID string) (string, error)
}

// Comments are the comments and replies on a space or a change request.
type Comments interface {
	DeleteComment(ctx context.Context, scope CommentScope, id string) error
	DeleteReply(ctx context.Context, scope CommentScope, commentID string, id string) error
	FindComment(ctx context.Context, scope CommentScope, id string) (*Comment, error)
	FindCommenters(ctx context.Context, scope CommentScope, orgID string, p Page) (List[*Member], error)
	FindComments(ctx context.Context, scope CommentScope, f CommentFilter, p Page) (List[*Comment], error)
	FindReplies(ctx context.Context, scope CommentScope, commentID string, p Page) (List[*Reply], error)
	FindReply(ctx context.Context, scope CommentScope, commentID string, id string) (*Reply, error)
	PostComment(ctx context.Context, scope CommentScope, nc NewComment) (*Comment, error)
	PostReply(ctx context.Context, scope CommentScope, commentID string, userID string, body string) (*Reply, error)
	UpdateComment(ctx context.Context, scope CommentScope, id string, userID string, upd CommentUpdate) (*Comment, error)
	UpdateReply(ctx context.Context, scope CommentScope, commentID string, id string, userID string, upd CommentUpdate) (*Reply, error)
}

// Content is what a revision holds: pages, files, links, search and templates.
type Content interface {
	ApplyTemplate(ctx context.Context, spaceID string, changes []PageChange, files map[string]string) (revision string, err error)
	CountLinksBrokenSince(ctx context.Context, revisionID string, baseID string) (int, error)
	FindAllFiles(ctx context.Context, revisionID string) ([]*RevisionFile, error)
	FindBacklinks(ctx context.Context, revisionID string, kind string, target string, p Page) (List[string], error)
	FindBlob(ctx context.Context, sha string, name string) (data []byte, contentType string, err error)
	FindFile(ctx context.Context, revisionID string, fileID string) (*RevisionFile, error)
	FindFiles(ctx context.Context, revisionID string, p Page) (List[*RevisionFile], error)
	FindFilesByID(ctx context.Context, revisionID string, ids []string) (map[string]*RevisionFile, error)
	FindLinks(ctx context.Context, revisionID string, f LinkFilter, p Page) (List[*LinkTarget], LinkStats, error)
	FindPage(ctx context.Context, revisionID string, pageID string) (*RevisionPage, error)
	FindPageByPath(ctx context.Context, revisionID string, path string) (*RevisionPage, error)
	FindPagesWithBodies(ctx context.Context, revisionID string, ids []string) ([]*RevisionPage, error)
	FindRevision(ctx context.Context, spaceID string, id string) (*Revision, error)
	FindSubpages(ctx context.Context, revisionID string, page *RevisionPage) ([]*RevisionPage, error)
	SearchOrganization(ctx context.Context, orgID string, query string, p Page) (List[*SearchSpaceHits], error)
	SearchSpace(ctx context.Context, spaceID string, query string, p Page) (List[*SearchPage], error)
}

// Jobs is the durable job queue and the settings the runner keeps.
type Jobs interface {
	DueJobs(ctx context.Context, limit int) ([]Job, error)
	EnqueueJob(ctx context.Context, kind string, payload string, runAt time.Time) error
	EnsureJob(ctx context.Context, kind string) error
	EnsureSetting(ctx context.Context, key string, value string) (string, error)
	FinishJob(ctx context.Context, j Job, runErr error, retryAt time.Time, maxAttempts int, next *time.Time) error
	Setting(ctx context.Context, key string) (string, error)
}

// Orgs are organizations, their members, teams and invites.
type Orgs interface {
	CreateOrganization(ctx context.Context, title string, creatorID string) (*Organization, error)
	CreateTeam(ctx context.Context, orgID string, callerID string, title string, members []string) (*Team, error)
	DeleteInvite(ctx context.Context, orgID string, inviteID string) error
	DeleteTeam(ctx context.Context, orgID string, teamID string) error
	FindAgentInstructions(ctx context.Context, orgID string) (*AgentInstructions, error)
	FindMember(ctx context.Context, orgID string, userID string) (*Member, error)
	FindMemberRole(ctx context.Context, orgID string, userID string) (Role, error)
	FindMembers(ctx context.Context, orgID string, f MemberFilter, p Page) (List[*Member], error)
	FindOrganizationByID(ctx context.Context, id string) (*Organization, error)
	FindOrganizationForMember(ctx context.Context, id string, userID string) (*Organization, error)
	FindOrganizationsByEmailDomain(ctx context.Context, domain string, userID string) ([]*Organization, error)
	FindOrganizationsForUser(ctx context.Context, userID string, p Page) (List[*Organization], error)
	FindTeam(ctx context.Context, orgID string, teamID string, callerID string) (*Team, error)
	FindTeams(ctx context.Context, orgID string, callerID string, f TeamFilter, p Page) (List[*Team], error)
	FindTeamsForMember(ctx context.Context, orgID string, userID string, callerID string, title string, p Page) (List[*MemberTeam], error)
	JoinOrganization(ctx context.Context, orgID string, u *User) error
	RemoveMember(ctx context.Context, orgID string, userID string) error
	SetMemberSSO(ctx context.Context, orgID string, userID string) (*Member, error)
	TouchMember(ctx context.Context, orgID string, userID string) (*Member, error)
	UpdateAgentInstructions(ctx context.Context, orgID string, userID string, doc json.RawMessage) (*AgentInstructions, error)
	UpdateMemberRole(ctx context.Context, orgID string, userID string, role Role) (*Member, error)
	UpdateOrganization(ctx context.Context, id string, callerID string, upd OrganizationUpdate) (*Organization, error)
	UpdateTeam(ctx context.Context, orgID string, teamID string, callerID string, title string) (*Team, error)
}

// Sites are published sites, their site spaces, sections and section groups.
type Sites interface {
	AddSectionToGroup(ctx context.Context, siteID string, groupID string, sectionID string) (*SiteSectionGroup, error)
	AddSiteSection(ctx context.Context, siteID string, c SiteSectionCreate) (*SiteSection, error)
	AddSiteSectionGroup(ctx context.Context, siteID string, c SiteSectionGroupCreate) (*SiteSectionGroup, error)
	AddSiteSpace(ctx context.Context, siteID string, spaceID string, sectionID *string) (*SiteSpace, error)
	CreateSite(ctx context.Context, orgID string, c SiteCreate) (*Site, error)
	DeleteSite(ctx context.Context, id string) error
	DeleteSiteSection(ctx context.Context, siteID string, id string) error
	DeleteSiteSectionGroup(ctx context.Context, siteID string, id string) error
	DeleteSiteSpace(ctx context.Context, siteID string, id string) error
	FindSite(ctx context.Context, id string) (*Site, error)
	FindSiteSection(ctx context.Context, siteID string, id string) (*SiteSection, error)
	FindSiteSectionGroup(ctx context.Context, siteID string, id string) (*SiteSectionGroup, error)
	FindSiteSectionGroups(ctx context.Context, siteID string, p Page) (List[*SiteSectionGroup], error)
	FindSiteSections(ctx context.Context, siteID string, p Page) (List[*SiteSection], error)
	FindSiteSectionsOf(ctx context.Context, siteID string, spaces []*SiteSpace) (map[string]*SiteSection, error)
	FindSiteSpace(ctx context.Context, siteID string, id string) (*SiteSpace, error)
	FindSiteSpaces(ctx context.Context, siteID string, f SiteSpaceFilter, p Page) (List[*SiteSpace], error)
	FindSiteStructure(ctx context.Context, siteID string) (*SiteStructure, error)
	FindSites(ctx context.Context, orgID string, f SiteFilter, p Page) (List[*Site], error)
	MoveSiteSection(ctx context.Context, siteID string, id string, m SiteMove) (*SiteSection, error)
	MoveSiteSpace(ctx context.Context, siteID string, id string, m SiteMove) (*SiteSpace, error)
	RemoveSectionFromGroup(ctx context.Context, siteID string, groupID string, sectionID string) error
	SetDefaultSiteSection(ctx context.Context, siteID string, sectionID string) error
	SetDefaultSiteSpace(ctx context.Context, siteID string, siteSpaceID string) error
	SetSiteAdaptiveSchema(ctx context.Context, id string, schema map[string]any) (*Site, error)
	SetSitePublished(ctx context.Context, id string, published bool) (*Site, error)
	UpdateSite(ctx context.Context, id string, upd SiteUpdate) (*Site, error)
	UpdateSiteSection(ctx context.Context, siteID string, id string, upd SiteSectionUpdate) (*SiteSection, error)
	UpdateSiteSectionGroup(ctx context.Context, siteID string, id string, upd SiteSectionGroupUpdate) (*SiteSectionGroup, error)
	UpdateSiteSpace(ctx context.Context, siteID string, id string, upd SiteSpaceUpdate) (*SiteSpace, error)
}

// Spaces are spaces and collections, with their moves, transfers and restores.
type Spaces interface {
	CollectionLevels(ctx context.Context, orgID string) (Levels, error)
	CreateCollection(ctx context.Context, orgID string, title string, parent *string) (*Collection, error)
	CreateSpace(ctx context.Context, orgID string, creatorID string, c SpaceCreate) (*Space, error)
	DeleteCollection(ctx context.Context, id string) error
	DeleteSpace(ctx context.Context, id string) error
	DuplicateSpace(ctx context.Context, id string, creatorID string) (*Space, error)
	FindCollection(ctx context.Context, id string) (*Collection, error)
	FindCollections(ctx context.Context, orgID string, nested bool, p Page) (List[*Collection], error)
	FindSpace(ctx context.Context, id string) (*Space, error)
	FindSpaceForUser(ctx context.Context, id string, userID string) (sp *Space, role Role, member bool, err error)
	FindSpaces(ctx context.Context, orgID string, desc bool, p Page) (List[*Space], error)
	FindSpacesInCollection(ctx context.Context, collectionID string, p Page) (List[*Space], error)
	MoveCollection(ctx context.Context, id string, m Move) (*Collection, error)
	MoveSpace(ctx context.Context, id string, m Move) (*Space, error)
	PurgeDeletedSpaces(ctx context.Context) (int, error)
	RestoreSpace(ctx context.Context, id string) (*Space, error)
	SpaceTitles(ctx context.Context, ids []string) (map[string]string, error)
	TransferCollection(ctx context.Context, id string, targetOrgID string) (*Collection, error)
	TransferSpace(ctx context.Context, id string, targetOrgID string) (*Space, error)
	UpdateCollection(ctx context.Context, id string, upd CollectionUpdate) (*Collection, error)
	UpdateSpace(ctx context.Context, id string, upd SpaceUpdate) (*Space, error)
}

// Users are users and their API tokens.
type Users interface {
	CreateToken(ctx context.Context, email string, name string) (string, *Token, error)
	CreateUser(ctx context.Context, u *User) (token string, err error)
	FindTokens(ctx context.Context, email string) ([]*Token, error)
	FindUserByToken(ctx context.Context, token string) (*User, time.Time, error)
	RevokeToken(ctx context.Context, id string) error
	TouchToken(ctx context.Context, token string) error
}
