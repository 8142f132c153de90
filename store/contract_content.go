package store

import (
	"context"
)

// Spaces are spaces and collections, with their moves, transfers and restores.
type Spaces interface {
	// CollectionLevels returns, for every collection of an organization, its parent and default
	// level, so content levels can be resolved through `inherit` without a query per item.
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
	FindCollections(ctx context.Context, orgID string, nested bool, p Page) (List[*Collection], error)
	// FindSpace returns a space, deleted or not, whatever its organization: the caller checks access.
	FindSpace(ctx context.Context, id string) (*Space, error)
	// FindSpaceForUser returns a space with the user's membership of its organization, in one
	// query: the hot path of every space request. member is false when the user is not a member.
	FindSpaceForUser(ctx context.Context, id string, userID string) (sp *Space, role Role, member bool, err error)
	// FindSpaces lists an organization's spaces that are not deleted, oldest first (newest first when
	// desc).
	FindSpaces(ctx context.Context, orgID string, desc bool, p Page) (List[*Space], error)
	// FindSpacesInCollection lists the spaces directly in a collection, in their order.
	FindSpacesInCollection(ctx context.Context, collectionID string, p Page) (List[*Space], error)
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

// Content is what a revision holds: pages, files, links, search and templates.
type Content interface {
	// AddSectionToGroup moves a section of the site to the end of a group (where it stays when it
	// is already in it).
	AddSectionToGroup(ctx context.Context, siteID string, groupID string, sectionID string) (*SiteSectionGroup, error)
	// AddSiteSectionGroup adds a group at the end of its parent and moves the given sections into
	// it, in order.
	AddSiteSectionGroup(ctx context.Context, siteID string, c SiteSectionGroupCreate) (*SiteSectionGroup, error)
	// ApplyTemplate adds a template's pages (the batch TemplateChanges made) to a space's current
	// content as one new revision, whose parent is the revision it replaces, and brings the search
	// index up to date. The existing pages are left as they are; links written with the batch's refs
	// (/pages/<ref>) are stored with the ids the refs were given. files are the contentRefs the batch
	// was made with (name to file id): each must be a file of the space's current revision, else the
	// whole template is refused (EINVALID naming the ref). A locked space refuses it. With crID
	// (an id or a number) the pages go into that change request's content instead, which must
	// take changes (open or draft).
	ApplyTemplate(ctx context.Context, spaceID string, crID string, changes []PageChange, files map[string]string) (revision string, err error)
	// CountLinksBrokenSince counts the broken links of a revision that were not broken (or not
	// there) in another: the links a change request broke.
	CountLinksBrokenSince(ctx context.Context, revisionID string, baseID string) (int, error)
	// DeleteReply deletes a reply and its reactions; a missing one is no error.
	DeleteReply(ctx context.Context, scope CommentScope, commentID string, id string) error
	// DeleteSiteSectionGroup deletes a group; its sections and subgroups take its place in its
	// parent, in order. Deleting a missing one is no error.
	DeleteSiteSectionGroup(ctx context.Context, siteID string, id string) error
	// FindAllFiles returns every file of a revision, by id.
	FindAllFiles(ctx context.Context, revisionID string) ([]*RevisionFile, error)
	// FindBacklinks lists the pages of a revision that link to a page or a file, by page id: the
	// page versions holding such a link, kept when they are the versions the revision holds.
	FindBacklinks(ctx context.Context, revisionID string, kind string, target string, p Page) (List[string], error)
	// FindBlob returns the bytes stored under a SHA-256 (hex) and a content type a revision gave
	// them under that name, for serving a download URL.
	FindBlob(ctx context.Context, sha string, name string) (data []byte, contentType string, err error)
	// FindFile returns a file of a revision.
	FindFile(ctx context.Context, revisionID string, fileID string) (*RevisionFile, error)
	// FindFiles lists the files of a revision, by id.
	FindFiles(ctx context.Context, revisionID string, p Page) (List[*RevisionFile], error)
	// FindFilesByID returns the files of a revision with the given ids.
	FindFilesByID(ctx context.Context, revisionID string, ids []string) (map[string]*RevisionFile, error)
	// FindLinks lists the targets of a revision's links, by kind and target, with the stats of all
	// of them (whatever the status filter).
	FindLinks(ctx context.Context, revisionID string, f LinkFilter, p Page) (List[*LinkTarget], LinkStats, error)
	// FindPage returns a page of a revision with its body.
	FindPage(ctx context.Context, revisionID string, pageID string) (*RevisionPage, error)
	// FindPageByPath returns the page at a path of a revision, with its body.
	FindPageByPath(ctx context.Context, revisionID string, path string) (*RevisionPage, error)
	// FindPagesWithBodies returns pages of a revision with their bodies, in one query, in the order
	// of ids. Ids the revision does not hold are left out (the result may be shorter than ids).
	// Callers with many pages ask in batches, so that only one batch of bodies is held at a time.
	FindPagesWithBodies(ctx context.Context, revisionID string, ids []string) ([]*RevisionPage, error)
	// FindReplies lists a comment's replies, oldest first.
	FindReplies(ctx context.Context, scope CommentScope, commentID string, p Page) (List[*Reply], error)
	// FindReply returns a reply of a comment of a scope.
	FindReply(ctx context.Context, scope CommentScope, commentID string, id string) (*Reply, error)
	// FindRevision returns a revision of a space with its pages (without bodies).
	FindRevision(ctx context.Context, spaceID string, id string) (*Revision, error)
	// FindSubpages returns the pages under a page (by its path) in tree order, without bodies. Paths
	// are unique in a revision and a subpage's path extends its parent's with "/", so the subtree is
	// one range of the path index.
	FindSubpages(ctx context.Context, revisionID string, page *RevisionPage) ([]*RevisionPage, error)
	// PostReply posts a reply to a comment of a scope.
	PostReply(ctx context.Context, scope CommentScope, commentID string, userID string, body string) (*Reply, error)
	// RemoveSectionFromGroup moves a section of a group to the end of the site root; a section that
	// is not in the group stays where it is.
	RemoveSectionFromGroup(ctx context.Context, siteID string, groupID string, sectionID string) error
	// SearchOrganization searches the current content of every space of an organization: spaces
	// ranked by their best page, each with its best pages.
	SearchOrganization(ctx context.Context, orgID string, query string, p Page) (List[*SearchSpaceHits], error)
	// SearchSpace searches the current content of a space, best pages first. When all the words
	// together find nothing, the last one also matches as a prefix; then any of them is enough.
	SearchSpace(ctx context.Context, spaceID string, query string, p Page) (List[*SearchPage], error)
	// UpdateReply changes a reply's body and applies the caller's reactions; Resolved resolves or
	// reopens the whole thread.
	UpdateReply(ctx context.Context, scope CommentScope, commentID string, id string, userID string, upd CommentUpdate) (*Reply, error)
	// UpdateSiteSectionGroup applies an update.
	UpdateSiteSectionGroup(ctx context.Context, siteID string, id string, upd SiteSectionGroupUpdate) (*SiteSectionGroup, error)
}

// ChangeRequests are a space's change requests: their own revision line, merged into the space.
type ChangeRequests interface {
	// CreateChangeRequest opens a change request on a space's current revision. Numbers are per
	// space, from 1; the single writer makes max+1 safe under concurrent creation.
	CreateChangeRequest(ctx context.Context, spaceID string, userID string, subject string) (*ChangeRequest, error)
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
}

// Sites are published sites, their site spaces, sections and section groups.
type Sites interface {
	// AddSiteSection adds a section at the end of the site root with a space as its first site
	// space. The first section of a site whose spaces are at its root first gathers them into a
	// default section titled after the site, so a site has sections or root site spaces, not both.
	AddSiteSection(ctx context.Context, siteID string, c SiteSectionCreate) (*SiteSection, error)
	// AddSiteSpace adds a live space of the site's organization to a section (nil: the default
	// section, or the root of a site without sections); a page it names must be the space's.
	AddSiteSpace(ctx context.Context, siteID string, c SiteSpaceCreate) (*SiteSpace, error)
	// CreateSite creates a site; each of c.Spaces, which must be live spaces of the organization,
	// becomes a site space at the root, in order, the first one the default.
	CreateSite(ctx context.Context, orgID string, c SiteCreate) (*Site, error)
	// DeleteSite deletes a site with its structure. Deleting a missing site is no error.
	DeleteSite(ctx context.Context, id string) error
	// DeleteSiteSection deletes a section with its site spaces; a default section gives way to the
	// next in the structure's order. Deleting a missing one is no error.
	DeleteSiteSection(ctx context.Context, siteID string, id string) error
	// DeleteSiteSpace removes a site space; a default gives way to the next. Deleting a missing
	// one is no error.
	DeleteSiteSpace(ctx context.Context, siteID string, id string) error
	// FindSite returns a site, whatever its organization: the caller checks access.
	FindSite(ctx context.Context, id string) (*Site, error)
	// FindSiteByHostname returns the site with a hostname (as stored: lowercase), whatever its
	// organization: the published web serves it at that host.
	FindSiteByHostname(ctx context.Context, hostname string) (*Site, error)
	// FindSiteSection returns a section of a site with its site spaces.
	FindSiteSection(ctx context.Context, siteID string, id string) (*SiteSection, error)
	// FindSiteSectionGroup returns a section group of a site.
	FindSiteSectionGroup(ctx context.Context, siteID string, id string) (*SiteSectionGroup, error)
	// FindSiteSectionGroups lists a site's section groups in the structure's order.
	FindSiteSectionGroups(ctx context.Context, siteID string, p Page) (List[*SiteSectionGroup], error)
	// FindSiteSections lists a site's sections, with their site spaces, in the structure's order.
	FindSiteSections(ctx context.Context, siteID string, p Page) (List[*SiteSection], error)
	// FindSiteSectionsOf returns, by id, the sections (without their site spaces) the given site
	// spaces are in, in one query.
	FindSiteSectionsOf(ctx context.Context, siteID string, spaces []*SiteSpace) (map[string]*SiteSection, error)
	// FindSiteSpace returns a site space of a site.
	FindSiteSpace(ctx context.Context, siteID string, id string) (*SiteSpace, error)
	// FindSiteSpaces lists a site's site spaces in the structure's order.
	FindSiteSpaces(ctx context.Context, siteID string, f SiteSpaceFilter, p Page) (List[*SiteSpace], error)
	// FindSiteStructure reads a site's whole structure in three queries: groups, sections, and
	// site spaces with their spaces. An unknown site has an empty structure.
	FindSiteStructure(ctx context.Context, siteID string) (*SiteStructure, error)
	// FindSites lists an organization's sites, oldest first.
	FindSites(ctx context.Context, orgID string, f SiteFilter, p Page) (List[*Site], error)
	// MoveSiteSection moves a section among the sections and groups of its parent, next to another
	// section of that parent.
	MoveSiteSection(ctx context.Context, siteID string, id string, m SiteMove) (*SiteSection, error)
	// MoveSiteSpace moves a site space among the site spaces of its container.
	MoveSiteSpace(ctx context.Context, siteID string, id string, m SiteMove) (*SiteSpace, error)
	// SetDefaultSiteSection makes a section the site's default section.
	SetDefaultSiteSection(ctx context.Context, siteID string, sectionID string) error
	// SetDefaultSiteSpace makes a site space the site's default: the default of its container and,
	// when it is in a section, that section the default section.
	SetDefaultSiteSpace(ctx context.Context, siteID string, siteSpaceID string) error
	// SetSiteAdaptiveSchema validates and stores a site's visitor schema (see ParseAdaptiveSchema).
	SetSiteAdaptiveSchema(ctx context.Context, id string, schema map[string]any) (*Site, error)
	// SetSitePublished publishes or unpublishes a site.
	SetSitePublished(ctx context.Context, id string, published bool) (*Site, error)
	// UpdateSite applies an update. A hostname another site has is a conflict; default site space or
	// section ids that are not the site's are invalid.
	UpdateSite(ctx context.Context, id string, upd SiteUpdate) (*Site, error)
	// UpdateSiteSection applies an update. A path another section of the site has is a conflict;
	// a default site space that is not the section's is invalid.
	UpdateSiteSection(ctx context.Context, siteID string, id string, upd SiteSectionUpdate) (*SiteSection, error)
	// UpdateSiteSpace applies an update. A path another site space of the container has is a
	// conflict; a space that is not live in the site's organization is invalid.
	UpdateSiteSpace(ctx context.Context, siteID string, id string, upd SiteSpaceUpdate) (*SiteSpace, error)
}
