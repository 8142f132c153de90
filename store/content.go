package store

import (
	"context"
)

// Content is what a revision holds: pages, files, links, search and templates.
type Content interface {
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
	// FindReusableContent returns a reusable content of a revision with its markdown.
	FindReusableContent(ctx context.Context, revisionID string, id string) (*ReusableContent, error)
	// FindReusableContents returns every reusable content of a revision with its markdown, in the
	// order they were created.
	FindReusableContents(ctx context.Context, revisionID string) ([]*ReusableContent, error)
	// FindPageByPath returns the page at a path of a revision, with its body.
	FindPageByPath(ctx context.Context, revisionID string, path string) (*RevisionPage, error)
	// FindPagesWithBodies returns pages of a revision with their bodies, in one query, in the order
	// of ids. Ids the revision does not hold are left out (the result may be shorter than ids).
	// Callers with many pages ask in batches, so that only one batch of bodies is held at a time.
	FindPagesWithBodies(ctx context.Context, revisionID string, ids []string) ([]*RevisionPage, error)
	// FindDocument returns a document (a page body, by the id pages carry as BodyID) that a page
	// of one of the space's revisions holds, with the path of one such page (to resolve its
	// relative links from). A body the space's content never held is not found.
	FindDocument(ctx context.Context, spaceID string, bodyID int64) (*Document, error)
	// FindRevision returns a revision of a space with its pages (without bodies).
	// FindRevisionHeader returns a revision of a space without its pages.
	FindRevisionHeader(ctx context.Context, spaceID string, id string) (*Revision, error)
	FindRevision(ctx context.Context, spaceID string, id string) (*Revision, error)
	// FindSubpages returns the pages under a page (by its path) in tree order, without bodies. Paths
	// are unique in a revision and a subpage's path extends its parent's with "/", so the subtree is
	// one range of the path index.
	FindSubpages(ctx context.Context, revisionID string, page *RevisionPage) ([]*RevisionPage, error)
	// SearchOrganization searches the current content of every space of an organization: spaces
	// ranked by their best page, each with its best pages; only the spaces vis lets a person read
	// (nil: all).
	SearchOrganization(ctx context.Context, orgID string, query string, vis *Visible, p Page) (List[*SearchSpaceHits], error)
	// SearchSpace searches the current content of a space, best pages first. When all the words
	// together find nothing, the last one also matches as a prefix; then any of them is enough.
	// The search reads a bounded number of matches (Count counts their pages), and a query
	// matching that many is not ranked: its pages come in the order they were indexed.
	SearchSpace(ctx context.Context, spaceID string, query string, p Page) (List[*SearchPage], error)
}

// Document is a page body as FindDocument answers it.
type Document struct {
	Markdown string
	PagePath string
}
