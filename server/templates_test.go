package server_test

import (
	"encoding/base64"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// tplApply applies a template to a space as u and wants status.
func tplApply(t *testing.T, w *world, u *testUser, spaceID string, want int, body any) *response {
	t.Helper()
	return w.Expect(t, want, u, "POST", "/spaces/"+spaceID+"/content/template", body)
}

// tplOutline lists a page tree in order as "path: title", subpages after their parent.
func tplOutline(pages []gen.RevisionPage) []string {
	var out []string
	walkPages(pages, func(p gen.RevisionPage, _ string, _ int) { out = append(out, p.Path+": "+p.Title) })
	return out
}

// tplPageIDs indexes a page tree's ids by path.
func tplPageIDs(pages []gen.RevisionPage) map[string]string {
	out := map[string]string{}
	walkPages(pages, func(p gen.RevisionPage, _ string, _ int) { out[p.Path] = p.Id })
	return out
}

// tplWantUnchanged fails unless the space is still at revision rev.
func tplWantUnchanged(t *testing.T, w *world, spaceID, rev string) {
	t.Helper()
	if got := w.space(t, spaceID).Revision; got != rev {
		t.Fatalf("the space moved to revision %s, want it still at %s", got, rev)
	}
}

var tplPageLink = regexp.MustCompile(`\]\(/pages/([^)\s#?]+)\)`)

// tplWantLinksResolved checks that a template's pages (ids by path, the space's only pages) link
// to each other by id, every page linked from another, and no link broken.
func tplWantLinksResolved(t *testing.T, w *world, spaceID string, ids map[string]string) {
	t.Helper()
	byID := map[string]string{}
	for path, id := range ids {
		byID[id] = path
	}
	// The template writes its links with the batch's refs; they are stored as the pages' ids.
	for path, id := range ids {
		md := w.mainMarkdown(t, spaceID, id)
		links := tplPageLink.FindAllStringSubmatch(md, -1)
		if len(links) == 0 {
			t.Fatalf("%s links to no other page:\n%s", path, md)
		}
		for _, l := range links {
			if byID[l[1]] == "" || l[1] == id {
				t.Fatalf("%s links to /pages/%s, not another page of the template", path, l[1])
			}
		}
	}
	l := getJSON[gen.ContentReferenceList](t, w.testServer, w.reader, "/spaces/"+spaceID+"/links")
	if l.Stats.Broken.Total != 0 || l.Count != len(ids) {
		t.Fatalf("space links: %d targets (want each of the %d pages linked), stats %+v", l.Count, len(ids), l.Stats)
	}
	for _, u := range l.Items {
		if u.Status != gen.Ok || u.TargetReference.Page == nil || byID[u.TargetReference.Page.Id] == "" {
			t.Fatalf("link %+v", u)
		}
	}
}

var productGuideOutline = []string{
	"getting-started: Getting started",
	"getting-started/overview: Overview",
	"getting-started/quick-start: Quick start",
	"getting-started/key-concepts: Key concepts",
	"getting-started/troubleshooting: Troubleshooting",
	"getting-started/faq: FAQ",
}

var apiReferenceOutline = []string{
	"api-reference: API reference",
	"api-reference/authentication: Authentication",
	"api-reference/errors: Errors",
	"api-reference/pagination: Pagination",
	"api-reference/rate-limits: Rate limits",
	"api-reference/resources: Resources",
	"api-reference/resources/users: Users",
	"api-reference/resources/projects: Projects",
}

func TestApplyTemplateProductGuide(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	before := w.space(t, sp.Id).Revision

	if r := tplApply(t, w, w.admin, sp.Id, http.StatusNoContent, map[string]any{"id": "product-guide"}); len(r.Body) != 0 {
		t.Fatalf("204 with a body: %s", r.Body)
	}

	pages := w.mainPages(t, sp.Id)
	if got := tplOutline(pages); !reflect.DeepEqual(got, productGuideOutline) {
		t.Fatalf("pages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(productGuideOutline, "\n"))
	}
	if len(pages) != 1 || len(pages[0].Pages) < 4 {
		t.Fatalf("want one Getting started group of at least 4 pages, got %d top-level pages", len(pages))
	}
	if d := pages[0].Description; d == nil || *d == "" {
		t.Fatalf("the group has no description")
	}

	t.Run("NewRevisionWithThePreviousAsParent", func(t *testing.T) {
		after := w.space(t, sp.Id).Revision
		if after == before || after == "" {
			t.Fatalf("space revision %q, before %q", after, before)
		}
		rev := w.mainRevision(t, sp.Id)
		if rev.Id != after || !reflect.DeepEqual(rev.Parents, []string{before}) || rev.Type != gen.RevisionType("edits") {
			t.Fatalf("revision %s (%s) parents %v; want %s with parents [%s]", rev.Id, rev.Type, rev.Parents, after, before)
		}
		if got := tplOutline(rev.Pages); !reflect.DeepEqual(got, productGuideOutline) {
			t.Fatalf("revision pages %v", got)
		}
	})

	ids := tplPageIDs(pages)
	t.Run("MarkdownHasTheTemplateText", func(t *testing.T) {
		md := w.mainMarkdown(t, sp.Id, ids["getting-started/quick-start"])
		for _, want := range []string{"## 1. Create your account", "```sh\nnpm install --global example-cli", "Invite a teammate"} {
			if !strings.Contains(md, want) {
				t.Fatalf("Quick start markdown lacks %q:\n%s", want, md)
			}
		}
		root := w.mainMarkdown(t, sp.Id, ids["getting-started"])
		if strings.Contains(root, "{{") || !strings.HasPrefix(root, "Welcome!") {
			t.Fatalf("without a logo the placeholder should go away:\n%s", root)
		}
	})

	t.Run("LinksResolveToTheNewPages", func(t *testing.T) { tplWantLinksResolved(t, w, sp.Id, ids) })

	t.Run("EveryPageAsADocument", func(t *testing.T) {
		for path, id := range ids {
			p := getJSON[gen.RevisionPage](t, w.testServer, w.reader, "/spaces/"+sp.Id+"/content/page/"+id)
			if p.Document == nil || p.Path != path {
				t.Fatalf("%s: document %v, path %s", path, p.Document, p.Path)
			}
		}
	})

	t.Run("Searchable", func(t *testing.T) {
		l := searchSpace(t, w, w.reader, sp.Id, "troublesh")
		if l.Count < 1 || l.Items[0].Id != ids["getting-started/troubleshooting"] {
			t.Fatalf("search for troublesh: %v", searchTitles(l))
		}
		l = searchSpace(t, w, w.admin, sp.Id, "confirmation email")
		found := false
		for _, p := range l.Items {
			found = found || p.Id == ids["getting-started/quick-start"]
		}
		if !found {
			t.Fatalf("search for confirmation email: %v", searchTitles(l))
		}
	})
}

func TestApplyTemplateAPIReference(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "API", "")
	// An editor may apply a template.
	tplApply(t, w, w.editor, sp.Id, http.StatusNoContent, map[string]any{"id": "api-reference", "params": map[string]any{}})

	pages := w.mainPages(t, sp.Id)
	if got := tplOutline(pages); !reflect.DeepEqual(got, apiReferenceOutline) {
		t.Fatalf("pages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(apiReferenceOutline, "\n"))
	}
	ids := tplPageIDs(pages)
	md := w.mainMarkdown(t, sp.Id, ids["api-reference/resources/projects"])
	for _, want := range []string{"## Create a project", "`POST /projects`", "```sh\ncurl", "```json\n{"} {
		if !strings.Contains(md, want) {
			t.Fatalf("Projects markdown lacks %q:\n%s", want, md)
		}
	}
	if md := w.mainMarkdown(t, sp.Id, ids["api-reference/errors"]); !strings.Contains(md, "| 429    | Too many requests") {
		t.Fatalf("Errors markdown:\n%s", md)
	}
	for path, id := range ids {
		p := getJSON[gen.RevisionPage](t, w.testServer, w.reader, "/spaces/"+sp.Id+"/content/page/"+id+"?format=document")
		if p.Document == nil {
			t.Fatalf("%s: no document", path)
		}
	}
	tplWantLinksResolved(t, w, sp.Id, ids)
	l := searchSpace(t, w, w.admin, sp.Id, "window")
	if l.Count != 1 || l.Items[0].Id != ids["api-reference/rate-limits"] {
		t.Fatalf("search for window: %v", searchTitles(l))
	}
}

func TestApplyTemplateKeepsExistingPages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook", "")
	seeded := w.seed(t, sp.Id, "Intro", "Hello there.\n", "Getting started", "Our own getting started page.\n")
	before := w.space(t, sp.Id).Revision

	tplApply(t, w, w.admin, sp.Id, http.StatusNoContent, map[string]any{"id": "product-guide"})

	pages := w.mainPages(t, sp.Id)
	want := append([]string{"intro: Intro", "getting-started: Getting started"}, strings.Split(
		strings.ReplaceAll(strings.Join(productGuideOutline, "\n"), "getting-started", "getting-started-2"), "\n")...)
	if got := tplOutline(pages); !reflect.DeepEqual(got, want) {
		t.Fatalf("pages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if pages[0].Id != seeded["Intro"] || pages[1].Id != seeded["Getting started"] {
		t.Fatalf("existing pages changed ids: %s %s, want %v", pages[0].Id, pages[1].Id, seeded)
	}
	if md := w.mainMarkdown(t, sp.Id, seeded["Getting started"]); md != "Our own getting started page.\n" {
		t.Fatalf("existing page's markdown changed: %q", md)
	}
	if rev := w.mainRevision(t, sp.Id); !reflect.DeepEqual(rev.Parents, []string{before}) {
		t.Fatalf("parents %v, want [%s]", rev.Parents, before)
	}
	// The existing pages stay searchable next to the template's.
	if l := searchSpace(t, w, w.admin, sp.Id, "hello"); l.Count != 1 || l.Items[0].Id != seeded["Intro"] {
		t.Fatalf("search for hello: %v", searchTitles(l))
	}
}

func TestApplyTemplateTwice(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	tplApply(t, w, w.admin, sp.Id, http.StatusNoContent, map[string]any{"id": "product-guide"})
	tplApply(t, w, w.admin, sp.Id, http.StatusNoContent, map[string]any{"id": "product-guide"})
	second := w.space(t, sp.Id).Revision
	tplApply(t, w, w.admin, sp.Id, http.StatusNoContent, map[string]any{"id": "api-reference"})

	got := tplOutline(w.mainPages(t, sp.Id))
	want := append([]string{}, productGuideOutline...)
	for _, line := range productGuideOutline {
		want = append(want, strings.Replace(line, "getting-started", "getting-started-2", 1))
	}
	want = append(want, apiReferenceOutline...)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rev := w.mainRevision(t, sp.Id); !reflect.DeepEqual(rev.Parents, []string{second}) {
		t.Fatalf("third revision's parents %v, want [%s]", rev.Parents, second)
	}
	// The copies are distinct pages, each indexed: both FAQ pages come first for "faq".
	ids := tplPageIDs(w.mainPages(t, sp.Id))
	l := searchSpace(t, w, w.admin, sp.Id, "faq")
	if len(l.Items) < 2 {
		t.Fatalf("search for faq: %v", searchTitles(l))
	}
	top := map[string]bool{l.Items[0].Id: true, l.Items[1].Id: true}
	if !top[ids["getting-started/faq"]] || !top[ids["getting-started-2/faq"]] {
		t.Fatalf("search for faq: %v", searchTitles(l))
	}
}

func TestApplyTemplateRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	w.seed(t, sp.Id, "Intro", "Hello.\n")
	rev := w.space(t, sp.Id).Revision
	good := map[string]any{"id": "product-guide"}

	t.Run("UnknownTemplate", func(t *testing.T) {
		r := tplApply(t, w, w.admin, sp.Id, http.StatusBadRequest, map[string]any{"id": "cookbook"})
		wantMessage(t, r, "id", "cookbook", "product-guide", "api-reference")
		tplWantUnchanged(t, w, sp.Id, rev)
	})
	t.Run("ContentRefToAMissingFile", func(t *testing.T) {
		body := map[string]any{"id": "product-guide", "params": map[string]any{
			"contentRefs": map[string]any{"logo": map[string]any{"kind": "file", "file": "no-such-file"}}}}
		r := tplApply(t, w, w.admin, sp.Id, http.StatusBadRequest, body)
		wantMessage(t, r, "contentRefs.logo", "no-such-file")
		tplWantUnchanged(t, w, sp.Id, rev)
	})
	t.Run("UnknownContentRef", func(t *testing.T) {
		body := map[string]any{"id": "product-guide", "params": map[string]any{
			"contentRefs": map[string]any{"banner": map[string]any{"kind": "file", "file": "f1"}}}}
		r := tplApply(t, w, w.admin, sp.Id, http.StatusBadRequest, body)
		wantMessage(t, r, "contentRefs.banner", "logo")
		tplWantUnchanged(t, w, sp.Id, rev)
	})
	t.Run("BadBodies", func(t *testing.T) {
		for name, body := range map[string]any{
			"unknown property":        map[string]any{"id": "product-guide", "theme": "dark"},
			"unknown params property": map[string]any{"id": "product-guide", "params": map[string]any{"colors": true}},
			"no id":                   map[string]any{"params": map[string]any{}},
			"empty id":                map[string]any{"id": ""},
			"ref of another kind":     map[string]any{"id": "product-guide", "params": map[string]any{"contentRefs": map[string]any{"logo": map[string]any{"kind": "page", "file": "f1"}}}},
			"ref without a file":      map[string]any{"id": "product-guide", "params": map[string]any{"contentRefs": map[string]any{"logo": map[string]any{"kind": "file"}}}},
			"not json":                []byte("{"),
		} {
			r := w.Do(t, w.admin, "POST", "/spaces/"+sp.Id+"/content/template", body)
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%s: status %d: %s", name, r.Status, r.Body)
			}
		}
		r := tplApply(t, w, w.admin, sp.Id, http.StatusBadRequest, map[string]any{"id": "product-guide", "theme": "dark"})
		wantMessage(t, r, "theme")
		tplWantUnchanged(t, w, sp.Id, rev)
	})
	t.Run("NoToken", func(t *testing.T) {
		tplApply(t, w, nil, sp.Id, http.StatusUnauthorized, good)
	})
	t.Run("ReadMember", func(t *testing.T) {
		tplApply(t, w, w.reader, sp.Id, http.StatusForbidden, good)
		tplWantUnchanged(t, w, sp.Id, rev)
	})
	t.Run("Outsider", func(t *testing.T) {
		tplApply(t, w, w.outsider, sp.Id, http.StatusNotFound, good)
		tplApply(t, w, w.admin, "no-such-space", http.StatusNotFound, good)
		tplWantUnchanged(t, w, sp.Id, rev)
	})
	t.Run("LockedSpace", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"editMode": "locked"})
		rev := w.space(t, sp.Id).Revision
		r := tplApply(t, w, w.admin, sp.Id, http.StatusForbidden, good)
		wantMessage(t, r, "locked")
		tplWantUnchanged(t, w, sp.Id, rev)
		if got := tplOutline(w.mainPages(t, sp.Id)); !reflect.DeepEqual(got, []string{"intro: Intro"}) {
			t.Fatalf("pages of the locked space: %v", got)
		}
		// Unlocked, it takes the template again.
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"editMode": "live"})
		tplApply(t, w, w.admin, sp.Id, http.StatusNoContent, good)
	})
	t.Run("DeletedSpace", func(t *testing.T) {
		other := w.MustCreateSpace(t, w.admin, w.org.Id, "Gone", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+other.Id, nil)
		tplApply(t, w, w.admin, other.Id, http.StatusNotFound, good)
	})
}

func TestApplyTemplateWithLogo(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	// A file of the space: uploaded through a merged change request.
	cr := w.create(t, w.admin, sp.Id, "Logo")
	res := w.apply(t, w.admin, sp.Id, cr.Id, map[string]any{"operation": "insert_files", "files": []any{map[string]any{
		"name": "logo.svg", "contentType": "image/svg+xml", "ref": "logo",
		"base64": base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)),
	}}})
	w.merge(t, w.admin, sp.Id, cr.Id)
	fileID := res.Refs["logo"]
	if fileID == "" {
		t.Fatalf("no file id for the upload: %+v", res.Refs)
	}
	// A file only in an open change request is not the space's.
	other := w.create(t, w.admin, sp.Id, "Other logo")
	otherRes := w.apply(t, w.admin, sp.Id, other.Id, map[string]any{"operation": "insert_files", "files": []any{map[string]any{
		"name": "other.svg", "contentType": "image/svg+xml", "ref": "other",
		"base64": base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg" id="o"/>`)),
	}}})
	logo := func(id string) map[string]any {
		return map[string]any{"id": "api-reference", "params": map[string]any{
			"contentRefs": map[string]any{"logo": map[string]any{"kind": "file", "file": id}}}}
	}
	rev := w.space(t, sp.Id).Revision
	r := tplApply(t, w, w.admin, sp.Id, http.StatusBadRequest, logo(otherRes.Refs["other"]))
	wantMessage(t, r, "contentRefs.logo")
	tplWantUnchanged(t, w, sp.Id, rev)

	tplApply(t, w, w.admin, sp.Id, http.StatusNoContent, logo(fileID))
	ids := tplPageIDs(w.mainPages(t, sp.Id))
	md := w.mainMarkdown(t, sp.Id, ids["api-reference"])
	if !strings.HasPrefix(md, "![Logo](/files/"+fileID+")\n\n") {
		t.Fatalf("the root page does not open with the logo:\n%s", md)
	}
	// The file stays in the new revision and the logo is a working file link.
	if revision := w.mainRevision(t, sp.Id); len(revision.Files) != 1 || revision.Files[0].Id != fileID {
		t.Fatalf("files of the new revision: %+v", revision.Files)
	}
	l := getJSON[gen.ContentReferenceList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/links")
	found := false
	for _, u := range l.Items {
		if u.TargetReference.File != nil && u.TargetReference.File.Id == fileID {
			found = u.Status == gen.Ok
		}
	}
	if !found || l.Stats.Broken.Total != 0 {
		t.Fatalf("space links: %+v", l)
	}
}
