package server_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/markdown"
)

func TestContentReadChangeRequestAndSpaceRevisions(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space := f.MustCreateSpace(t, f.admin, f.org.Id, "Handbook", "")
	sid := space.Id
	initial := getJSON[gen.Revision](t, f.testServer, f.admin, "/spaces/"+sid+"/content")
	if initial.Id != space.Revision || len(initial.Pages) != 0 || initial.Object != "revision" {
		t.Fatalf("initial revision %+v", initial)
	}
	cr := f.create(t, f.admin, sid, "Edits")
	crRev := getJSON[gen.Revision](t, f.testServer, f.admin, "/spaces/"+sid+"/change-requests/"+cr.Id+"/content")
	if crRev.Id != initial.Id || len(crRev.Pages) != 0 {
		t.Fatalf("change request's first revision %+v", crRev)
	}

	res1 := f.apply(t, f.admin, space.Id, cr.Id, insertPage("Home", "ref", "home", "document", markdownDoc("Home page.\n")),
		insertPage("Sub", "ref", "sub", "into", "home"))
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/change-requests/"+cr.Id+"/content", nil).Decode(t, &crRev)
	if crRev.Id != res1.Revision || !reflect.DeepEqual(crRev.Parents, []string{initial.Id}) {
		t.Fatalf("first batch's revision %s parents %v, want %s with parents [%s]", crRev.Id, crRev.Parents, res1.Revision, initial.Id)
	}
	res2 := f.apply(t, f.admin, space.Id, cr.Id, insertPage("About"))

	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/change-requests/"+cr.Id+"/content", nil).Decode(t, &crRev)
	if crRev.Id != res2.Revision || crRev.Type != "edits" || !reflect.DeepEqual(crRev.Parents, []string{res1.Revision}) {
		t.Fatalf("revision %s type %s parents %v, want %s with parents [%s]", crRev.Id, crRev.Type, crRev.Parents, res2.Revision, res1.Revision)
	}
	wantOutline(t, "change request revision", crRev.Pages, "home Home", "  home/sub Sub", "about About")
	if crRev.Pages[0].Pages[0].Id != res1.Refs["sub"] || crRev.Pages[0].Markdown != nil || crRev.Pages[0].Document != nil {
		t.Fatalf("revision pages %+v", crRev.Pages[0])
	}
	if crRev.Files == nil || crRev.Variables == nil || crRev.CreatedAt.IsZero() {
		t.Fatalf("revision %+v", crRev)
	}
	getJSON[gen.Revision](t, f.testServer, f.admin, "/spaces/"+sid+"/change-requests/"+cr.Id+"/content")

	// The space's content has not moved.
	cur := getJSON[gen.Revision](t, f.testServer, f.admin, "/spaces/"+sid+"/content")
	if cur.Id != initial.Id || len(cur.Pages) != 0 {
		t.Fatalf("current revision before merge %s with %d pages", cur.Id, len(cur.Pages))
	}
	wantOutline(t, "space pages before merge", f.pageTree(t, f.admin, "/spaces/"+sid))
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/"+sid+"/content/page/"+res1.Refs["home"], nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/"+sid+"/content/path/home", nil)

	merged := f.merged(t, sid, cr.Id)
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/content", nil).Decode(t, &cur)
	if cur.Id != merged || cur.Type != "merge" {
		t.Fatalf("current revision %s (%s), merge wrote %s", cur.Id, cur.Type, merged)
	}
	if len(cur.Parents) != 2 || !(cur.Parents[0] == initial.Id && cur.Parents[1] == res2.Revision ||
		cur.Parents[1] == initial.Id && cur.Parents[0] == res2.Revision) {
		t.Fatalf("merge parents %v, want %s and %s", cur.Parents, initial.Id, res2.Revision)
	}
	if cur.MergedFrom == nil || cur.MergedFrom.Id != cr.Id {
		t.Fatalf("mergedFrom %+v", cur.MergedFrom)
	}
	wantOutline(t, "current revision after merge", cur.Pages, "home Home", "  home/sub Sub", "about About")
	wantOutline(t, "space pages after merge", f.pageTree(t, f.admin, "/spaces/"+sid), "home Home", "  home/sub Sub", "about About")
	p := getJSON[gen.RevisionPage](t, f.testServer, f.admin, "/spaces/"+sid+"/content/page/"+res1.Refs["home"]+"?format=markdown")
	if p.Markdown == nil || *p.Markdown != "Home page.\n" {
		t.Fatalf("merged page markdown %v", p.Markdown)
	}
	if sp := f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid, nil).Map(t); sp["revision"] != merged {
		t.Fatalf("space revision %v, merge wrote %s", sp["revision"], merged)
	}
}

func contentNodeTypes(nodes []*markdown.Node) []string {
	out := []string{}
	for _, n := range nodes {
		if n.Type != "" {
			out = append(out, n.Type)
		} else {
			out = append(out, n.Object)
		}
	}
	return out
}

func contentChildren(n *markdown.Node) []*markdown.Node { return n.Nodes }

// contentText is the text of a document node's leaves, through its descendants.
func contentText(n *markdown.Node) string { return markdown.Text([]*markdown.Node{n}) }

// contentCheckDocument checks the document form of contentDocMarkdown.
func contentCheckDocument(t *testing.T, p gen.RevisionPage) {
	t.Helper()
	if p.Markdown != nil {
		t.Fatalf("document form also answered markdown")
	}
	d := p.Document
	if d == nil || d.Object != "document" {
		t.Fatalf("document %+v", d)
	}
	got := contentNodeTypes(d.Nodes)
	want := []string{"heading-1", "paragraph", "list-unordered", "code", "images"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("blocks %v, want %v", got, want)
	}
	for _, n := range d.Nodes {
		if n.Object != "block" || n.Key == "" {
			t.Fatalf("block %+v", n)
		}
	}
	if got := contentText(d.Nodes[0]); got != "Getting started" {
		t.Fatalf("heading text %q", got)
	}
	if got := contentText(d.Nodes[1]); got != "Read the API docs first." {
		t.Fatalf("paragraph text %q", got)
	}
	if got := contentText(d.Nodes[3]); got != "fmt.Println(\"hi\")return" {
		t.Fatalf("code text %q", got)
	}
	para := contentChildren(d.Nodes[1])
	var link *markdown.Node
	for _, n := range para {
		if n.Object == "inline" && n.Type == "link" {
			link = n
		}
	}
	if link == nil || link.Data == nil {
		t.Fatalf("no link inline in %v", contentNodeTypes(para))
	}
	if ref, _ := link.Data["ref"].(map[string]any); ref["kind"] != "url" || ref["url"] != "https://api.example.com/docs" {
		t.Fatalf("link data %v", link.Data)
	}
	if items := contentNodeTypes(contentChildren(d.Nodes[2])); !reflect.DeepEqual(items, []string{"list-item", "list-item"}) {
		t.Fatalf("list items %v", items)
	}
	code := d.Nodes[3]
	if code.Data["syntax"] != "go" {
		t.Fatalf("code data %v", code.Data)
	}
	if lines := contentNodeTypes(contentChildren(code)); !reflect.DeepEqual(lines, []string{"code-line", "code-line"}) {
		t.Fatalf("code lines %v", lines)
	}
	imgs := contentChildren(d.Nodes[4])
	if len(imgs) != 1 || imgs[0].Type != "image" {
		t.Fatalf("images %v", contentNodeTypes(imgs))
	}
}

func TestContentReadPages(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	sid := space.Id
	res := f.apply(t, f.admin, space.Id, cr.Id,
		insertPage("Guide", "ref", "guide", "document", markdownDoc("---\ntitle: Guide\n---\n"+contentDocMarkdown)),
		insertPage("Install", "ref", "install", "into", "guide", "document", markdownDoc("Install *it*.\n")),
		insertPage("On Linux", "ref", "linux", "into", "install"),
		insertPage("FAQ", "ref", "faq"),
	)
	guide, install := res.Refs["guide"], res.Refs["install"]
	crBase := "/spaces/" + sid + "/change-requests/" + cr.Id + "/content/"
	spBase := "/spaces/" + sid + "/content/"

	check := func(t *testing.T, base string) {
		t.Run("MarkdownIsExact", func(t *testing.T) {
			p := getJSON[gen.RevisionPage](t, f.testServer, f.admin, base+"page/"+guide+"?format=markdown")
			if p.Markdown == nil || *p.Markdown != contentDocMarkdown || p.Document != nil {
				t.Fatalf("markdown %v document %v", p.Markdown, p.Document)
			}
			if p.Id != guide || p.Title != "Guide" || p.Path != "guide" {
				t.Fatalf("page %+v", p)
			}
		})
		t.Run("DocumentByDefaultAndOnRequest", func(t *testing.T) {
			for _, q := range []string{"", "?format=document"} {
				p := getJSON[gen.RevisionPage](t, f.testServer, f.admin, base+"page/"+guide+q)
				contentCheckDocument(t, p)
			}
		})
		t.Run("SubpagesAreIncluded", func(t *testing.T) {
			p := getJSON[gen.RevisionPage](t, f.testServer, f.admin, base+"page/"+guide)
			wantOutline(t, "guide's subpages", p.Pages, "guide/install Install", "  guide/install/on-linux On Linux")
			if p.Pages[0].Id != install || p.Pages[0].Document != nil || p.Pages[0].Markdown != nil {
				t.Fatalf("subpage %+v", p.Pages[0])
			}
			leaf := getJSON[gen.RevisionPage](t, f.testServer, f.admin, base+"page/"+res.Refs["linux"])
			if len(leaf.Pages) != 0 || leaf.Path != "guide/install/on-linux" || leaf.Document == nil {
				t.Fatalf("leaf %+v", leaf)
			}
			// An empty page answers an empty document.
			if len(leaf.Document.Nodes) != 0 {
				t.Fatalf("empty page's document %+v", leaf.Document)
			}
		})
		t.Run("ByPath", func(t *testing.T) {
			p := getJSON[gen.RevisionPage](t, f.testServer, f.admin, base+"path/guide%2Finstall?format=markdown")
			if p.Id != install || p.Markdown == nil || *p.Markdown != "Install *it*.\n" {
				t.Fatalf("by encoded path %+v", p)
			}
			wantOutline(t, "install's subpages", p.Pages, "guide/install/on-linux On Linux")
			var deep, faq, g gen.RevisionPage
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"path/guide%2Finstall%2Fon-linux", nil).Decode(t, &deep)
			if deep.Id != res.Refs["linux"] {
				t.Fatalf("deep path %+v", deep)
			}
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"path/faq", nil).Decode(t, &faq)
			if faq.Id != res.Refs["faq"] || faq.Document == nil || faq.Markdown != nil {
				t.Fatalf("by one-segment path %+v", faq)
			}
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"path/guide", nil).Decode(t, &g)
			contentCheckDocument(t, g)
		})
		t.Run("NestedPathWithRawSlashes", func(t *testing.T) {
			// Sent with real slashes the path spans several segments; quire still finds the page.
			p := getJSON[gen.RevisionPage](t, f.testServer, f.admin, base+"path/guide/install/on-linux?format=markdown")
			if p.Id != res.Refs["linux"] || p.Markdown == nil {
				t.Fatalf("by raw path %+v", p)
			}
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/guide/install/nope", nil)
		})
		t.Run("Unknown", func(t *testing.T) {
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"page/no-such-page", nil)
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/no-such-path", nil)
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/guide%2Fnope", nil)
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/install", nil) // not at the top level
		})
		t.Run("FormatHTMLIs400", func(t *testing.T) {
			r := f.Expect(t, http.StatusBadRequest, f.admin, "GET", base+"page/"+guide+"?format=html", nil)
			if !strings.Contains(r.ErrorMessage(t), "format") {
				t.Fatalf("message %q", r.ErrorMessage(t))
			}
			f.Expect(t, http.StatusBadRequest, f.admin, "GET", base+"path/guide?format=html", nil)
		})
		t.Run("Access", func(t *testing.T) {
			for _, path := range []string{base + "page/" + guide, base + "path/guide", base + "pages"} {
				f.Expect(t, http.StatusOK, f.reader, "GET", path, nil)
				f.Expect(t, http.StatusNotFound, f.guest, "GET", path, nil)
				f.Expect(t, http.StatusNotFound, f.outsider, "GET", path, nil)
				f.Expect(t, http.StatusUnauthorized, nil, "GET", path, nil)
			}
			p := getJSON[gen.RevisionPage](t, f.testServer, f.reader, base+"page/"+guide+"?format=markdown")
			if p.Markdown == nil || *p.Markdown != contentDocMarkdown {
				t.Fatalf("reader's markdown %v", p.Markdown)
			}
		})
	}
	t.Run("ChangeRequest", func(t *testing.T) { check(t, crBase) })

	// The revision reads need the same access.
	for _, path := range []string{"/spaces/" + sid + "/change-requests/" + cr.Id + "/content", "/spaces/" + sid + "/content"} {
		f.Expect(t, http.StatusOK, f.reader, "GET", path, nil)
		f.Expect(t, http.StatusNotFound, f.guest, "GET", path, nil)
		f.Expect(t, http.StatusNotFound, f.outsider, "GET", path, nil)
	}
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/"+sid+"/change-requests/no-such-cr/content", nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/"+sid+"/change-requests/no-such-cr/content/pages", nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/no-such-space/content", nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/no-such-space/content/pages", nil)

	f.merged(t, sid, cr.Id)
	t.Run("Space", func(t *testing.T) { check(t, spBase) })
	wantOutline(t, "reader's listing", f.pageTree(t, f.reader, "/spaces/"+sid),
		"guide Guide", "  guide/install Install", "    guide/install/on-linux On Linux", "faq FAQ")
}

func TestContentDuplicateSpaceCopiesContent(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	sid := space.Id
	res := f.apply(t, f.admin, space.Id, cr.Id,
		insertPage("Intro", "ref", "intro", "document", markdownDoc("Hello **world**\n")),
		insertPage("Details", "ref", "details", "into", "intro", "document", markdownDoc("More.\n")),
		insertPage("Appendix"),
	)
	f.merged(t, sid, cr.Id)
	orig := f.pageTree(t, f.admin, "/spaces/"+sid)

	dup := sendJSON[gen.Space](t, f.testServer, http.StatusOK, f.admin, "POST", "/spaces/"+sid+"/duplicate", nil)
	if dup.Id == sid {
		t.Fatal("duplicate has the original's id")
	}
	copied := f.pageTree(t, f.admin, "/spaces/"+dup.Id)
	if !reflect.DeepEqual(outline(copied), outline(orig)) {
		t.Fatalf("copy's pages %q, original's %q", outline(copied), outline(orig))
	}
	cp := getJSON[gen.RevisionPage](t, f.testServer, f.admin, "/spaces/"+dup.Id+"/content/path/intro%2Fdetails?format=markdown")
	if cp.Markdown == nil || *cp.Markdown != "More.\n" {
		t.Fatalf("copied markdown %v", cp.Markdown)
	}

	// Edit the copy through its own change request.
	dcr := f.create(t, f.admin, dup.Id, "Edits")
	if dcr.Number != 1 {
		t.Fatalf("copy's first change request number %d", dcr.Number)
	}
	intro := copied[0]
	f.apply(t, f.admin, dup.Id, dcr.Id,
		updatePage(intro.Id, "title", "Welcome", "document", markdownDoc("Changed\n")),
		deletePage(copied[1].Id),
		insertPage("Copy only"),
	)
	f.merged(t, dup.Id, dcr.Id)
	wantOutline(t, "edited copy", f.pageTree(t, f.admin, "/spaces/"+dup.Id),
		"intro Welcome", "  intro/details Details", "copy-only Copy only")

	// The original is as it was.
	wantOutline(t, "original", f.pageTree(t, f.admin, "/spaces/"+sid), outline(orig)...)
	op := getJSON[gen.RevisionPage](t, f.testServer, f.admin, "/spaces/"+sid+"/content/page/"+res.Refs["intro"]+"?format=markdown")
	if op.Title != "Intro" || op.Markdown == nil || *op.Markdown != "Hello **world**\n" {
		t.Fatalf("original page %s %v", op.Title, op.Markdown)
	}
	// An open change request of the original still sees the original's content.
	ocr := f.create(t, f.admin, sid, "Edits")
	wantOutline(t, "original's new change request", f.crPages(t, space.Id, ocr.Id), outline(orig)...)
}
