package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// matrixWorld is what the access matrix runs in: the world (an admin, an editor, a reader, a
// commenter, a guest, and an outsider who administers an organization of their own) with content
// of every kind for the rows to name.
type matrixWorld struct {
	*world
	garbage            *testUser
	org2               gen.Organization // administered by the admin: where transfers go
	collection         string
	handbook           string            // pages, a file, links between them
	pages              map[string]string // the space's pages by ref: welcome, guide
	file               string
	cr                 string // an open change request on space with a page of its own
	crPage             string
	crWrites           string // the change request content-write cells write into
	spare              string // a space for duplicates, templates and merges
	team               string
	site               string // a published site whose space is a root site space
	siteSpace          string
	sectioned          string // a site with a section in a section group
	section, group     string
	comment, reply     string // on space, by the commenter
	crComment, crReply string // on cr, by the commenter
	n                  int
}

func newMatrixWorld(t *testing.T) *matrixWorld {
	t.Helper()
	w := &matrixWorld{world: newWorld(t)}
	w.garbage = &testUser{Token: "gb_api_nobodywasevergiventhistoken00"}
	w.org2 = w.MustCreateOrg(t, w.admin, "Acme Two")
	w.collection = w.MustCreateCollection(t, w.admin, w.org.Id, "Guides", "").Id

	w.handbook = w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook", "").Id
	seed := w.create(t, w.admin, w.handbook, "Seed")
	res := w.apply(t, w.admin, w.handbook, seed.Id,
		insertFiles(fileUpload("logo.png", "image/png", tinyPNG(t), "logo")),
		insertMarkdown("Welcome", "Read [the guide](/pages/guide).\n\n![Logo](/files/logo)\n", "welcome"),
		insertMarkdown("Guide", "# Guide\n\nThe steps.\n", "guide"),
		insertReusable("Warning", "Mind the gap.\n", "warning"))
	w.merge(t, w.admin, w.handbook, seed.Id)
	w.pages, w.file = res.Refs, res.Refs["logo"]
	w.cr = w.create(t, w.admin, w.handbook, "Open edits").Id
	w.crPage = w.apply(t, w.admin, w.handbook, w.cr, insertMarkdown("Draft", "A draft.\n", "draft")).Refs["draft"]
	w.crWrites = w.create(t, w.admin, w.handbook, "Matrix writes").Id
	w.spare = w.MustCreateSpace(t, w.admin, w.org.Id, "Scratch", "").Id
	w.team = teamCreate(t, w.testServer, w.admin, w.org.Id, "Writers").Id

	var site gen.Site
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites",
		map[string]any{"title": "Docs", "spaces": []string{w.handbook}}).Decode(t, &site)
	w.site = site.Id
	ssl := getJSON[gen.SiteSpaceList](t, w.testServer, w.admin, w.sitePath(w.site, "/site-spaces"))
	w.siteSpace = ssl.Items[0].Id
	w.Expect(t, http.StatusOK, w.admin, "POST", w.sitePath(w.site, "/publish"), nil)
	w.sectioned = w.freshSite(t)
	w.section = w.freshSection(t)
	var g gen.SiteSectionGroup
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.sitePath(w.sectioned, "/section-groups"),
		map[string]any{"title": "Group", "sections": []string{w.section}}).Decode(t, &g)
	w.group = g.Id

	w.comment = w.freshComment(t, w.spaceBase())
	w.reply = w.freshReply(t, w.spaceBase(), w.comment)
	w.crComment = w.freshComment(t, w.crBase())
	w.crReply = w.freshReply(t, w.crBase(), w.crComment)
	return w
}

// callers returns the users of matrixCallers, in its order (nil: no token).
func (w *matrixWorld) callers() []*testUser {
	return []*testUser{nil, w.garbage, w.outsider, w.reader, w.commenter, w.editor, w.admin}
}

// name returns a name no other call returns.
func (w *matrixWorld) name(prefix string) string {
	w.n++
	return fmt.Sprintf("%s %d", prefix, w.n)
}

func (w *matrixWorld) orgPath(rest string) string { return "/orgs/" + w.org.Id + rest }

func (w *matrixWorld) sitePath(siteID, rest string) string {
	return "/orgs/" + w.org.Id + "/sites/" + siteID + rest
}

func (w *matrixWorld) spaceBase() string { return "/spaces/" + w.handbook }
func (w *matrixWorld) crBase() string    { return crPath(w.handbook, w.cr) }

// matrixContentBatch is the body of updateChangeRequestContent: the only place the matrix
// spells that operation's body shape.
func matrixContentBatch(changes ...map[string]any) map[string]any {
	return map[string]any{"changes": changes}
}

// status answers the status of a GET as the admin (to tell whether a target is gone).
func (w *matrixWorld) status(t *testing.T, path string) int {
	t.Helper()
	return w.Do(t, w.admin, "GET", path, nil).Status
}

// The fresh targets of the rows that destroy or transform theirs, all created by the admin.

func (w *matrixWorld) freshMember(t *testing.T) *testUser {
	t.Helper()
	w.n++
	u := w.MustCreateUser(t, fmt.Sprintf("member%d@fresh.test", w.n), "Fresh")
	w.MustAddMember(t, w.admin, w.org.Id, u, "read")
	return u
}

func (w *matrixWorld) freshSpace(t *testing.T) string {
	t.Helper()
	return w.MustCreateSpace(t, w.admin, w.org.Id, w.name("Space"), "").Id
}

func (w *matrixWorld) freshCollection(t *testing.T) string {
	t.Helper()
	return w.MustCreateCollection(t, w.admin, w.org.Id, w.name("Collection"), "").Id
}

func (w *matrixWorld) freshSite(t *testing.T) string {
	t.Helper()
	s := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", w.orgPath("/sites"), map[string]any{"title": w.name("Site")})
	return s.Id
}

// freshSiteSpace adds a fresh space to the published site.
func (w *matrixWorld) freshSiteSpace(t *testing.T) string {
	t.Helper()
	ss := sendJSON[gen.SiteSpace](t, w.testServer, http.StatusCreated, w.admin, "POST", w.sitePath(w.site, "/site-spaces"), map[string]any{"spaceId": w.freshSpace(t)})
	return ss.Id
}

// freshSection adds a section showing the handbook to the sectioned site.
func (w *matrixWorld) freshSection(t *testing.T) string {
	t.Helper()
	var sec gen.SiteSection
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.sitePath(w.sectioned, "/sections"),
		map[string]any{"spaceId": w.handbook, "title": w.name("Section")}).Decode(t, &sec)
	return sec.Id
}

func (w *matrixWorld) freshGroup(t *testing.T) string {
	t.Helper()
	g := sendJSON[gen.SiteSectionGroup](t, w.testServer, http.StatusCreated, w.admin, "POST", w.sitePath(w.sectioned, "/section-groups"), map[string]any{"title": w.name("Group")})
	return g.Id
}

// freshComment posts a comment as the commenter in a thread (the space's or a change request's).
func (w *matrixWorld) freshComment(t *testing.T, base string) string {
	t.Helper()
	c := sendJSON[gen.Comment](t, w.testServer, http.StatusOK, w.commenter, "POST", base+"/comments", map[string]any{"body": map[string]any{"markdown": w.name("Comment")}})
	return c.Id
}

// freshReply replies to a comment as the commenter.
func (w *matrixWorld) freshReply(t *testing.T, base, comment string) string {
	t.Helper()
	r := sendJSON[gen.CommentReply](t, w.testServer, http.StatusOK, w.commenter, "POST", base+"/comments/"+comment+"/replies", map[string]any{"body": map[string]any{"markdown": w.name("Reply")}})
	return r.Id
}

// freshMergeable opens a change request on the spare space with a page to merge.
func (w *matrixWorld) freshMergeable(t *testing.T) string {
	t.Helper()
	cr := w.create(t, w.admin, w.spare, w.name("Merge"))
	w.apply(t, w.admin, w.spare, cr.Id, insertMarkdown(w.name("Merged page"), "Merged.\n", "p"))
	return cr.Id
}
