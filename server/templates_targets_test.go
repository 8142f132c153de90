package server_test

import (
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// Templates applied where 0.202.0 lets a client name one besides applyTemplateToSpace: a new
// space's first content (createSpace), a new change request's (createChangeRequest), and an open
// change request's (applyTemplateToSpace with changeRequestId).

// spaceCount is how many spaces the organization lists.
func (w *world) spaceCount(t *testing.T) int {
	t.Helper()
	return getJSON[gen.SpaceList](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/spaces").Count
}

func wantTplOutline(t *testing.T, what string, pages []gen.RevisionPage, want []string) {
	t.Helper()
	if got := tplOutline(pages); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s pages:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCreateSpaceFromTemplate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := "/orgs/" + w.org.Id + "/spaces"

	sp := sendJSON[gen.Space](t, w.testServer, http.StatusCreated, w.admin, "POST", path,
		map[string]any{"title": "API", "template": map[string]any{"id": "api-reference"}})
	pages := w.mainPages(t, sp.Id)
	wantTplOutline(t, "new space", pages, apiReferenceOutline)
	if rev := w.mainRevision(t, sp.Id); rev.Id != sp.Revision {
		t.Fatalf("answered revision %s, current %s", sp.Revision, rev.Id)
	}
	tplWantLinksResolved(t, w, sp.Id, tplPageIDs(pages))
	if l := searchSpace(t, w, w.reader, sp.Id, "pagination"); l.Count < 1 {
		t.Fatalf("the template's pages are not searchable: %v", searchTitles(l))
	}

	t.Run("Empty", func(t *testing.T) {
		sp := sendJSON[gen.Space](t, w.testServer, http.StatusCreated, w.admin, "POST", path, map[string]any{"title": "Blank", "empty": true})
		if pages := w.mainPages(t, sp.Id); len(pages) != 0 {
			t.Fatalf("an empty space has %d pages", len(pages))
		}
	})
	t.Run("Refused", func(t *testing.T) {
		before := w.spaceCount(t)
		for name, c := range map[string]struct {
			body  map[string]any
			parts []string
		}{
			"unknown template":       {map[string]any{"template": map[string]any{"id": "cookbook"}}, []string{"template.id", "cookbook", "product-guide"}},
			"a file of no space":     {map[string]any{"template": map[string]any{"id": "product-guide", "params": map[string]any{"contentRefs": map[string]any{"logo": map[string]any{"kind": "file", "file": "f1"}}}}}, []string{"template.params.contentRefs"}},
			"a file it does not use": {map[string]any{"template": map[string]any{"id": "product-guide", "params": map[string]any{"contentRefs": map[string]any{"banner": map[string]any{"kind": "file", "file": "f1"}}}}}, []string{"template.params.contentRefs.banner"}},
			"empty and a template":   {map[string]any{"empty": true, "template": map[string]any{"id": "product-guide"}}, []string{"empty", "template"}},
			"empty false":            {map[string]any{"empty": false}, []string{"empty"}},
			"template without id":    {map[string]any{"template": map[string]any{}}, []string{"id"}},
		} {
			r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", path, c.body)
			if msg := r.ErrorMessage(t); !containsAll(msg, c.parts) {
				t.Fatalf("%s: message %q, want %q", name, msg, c.parts)
			}
		}
		if after := w.spaceCount(t); after != before {
			t.Fatalf("refused creations made %d spaces", after-before)
		}
	})
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func TestCreateChangeRequestFromTemplate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	w.seed(t, sp.Id, "Intro", "Hello.\n")
	mainRev := w.space(t, sp.Id).Revision
	path := "/spaces/" + sp.Id + "/change-requests"

	cr := sendJSON[gen.ChangeRequest](t, w.testServer, http.StatusCreated, w.editor, "POST", path,
		map[string]any{"subject": "Add a guide", "template": map[string]any{"id": "product-guide"}})
	if cr.Subject != "Add a guide" || cr.Revision == cr.RevisionInitial || cr.RevisionInitial != mainRev {
		t.Fatalf("change request %+v", cr)
	}
	wantTplOutline(t, "change request", w.crPages(t, sp.Id, cr.Id), append([]string{"intro: Intro"}, productGuideOutline...))
	if w.space(t, sp.Id).Revision != mainRev {
		t.Fatalf("the template went into the space's content")
	}
	w.merged(t, sp.Id, cr.Id)
	wantTplOutline(t, "merged space", w.mainPages(t, sp.Id), append([]string{"intro: Intro"}, productGuideOutline...))

	t.Run("Refused", func(t *testing.T) {
		before := w.list(t, w.admin, path).Count
		for name, c := range map[string]struct {
			body  map[string]any
			parts []string
		}{
			"unknown template": {map[string]any{"template": map[string]any{"id": "cookbook"}}, []string{"template.id", "cookbook"}},
			"a missing file":   {map[string]any{"template": map[string]any{"id": "product-guide", "params": map[string]any{"contentRefs": map[string]any{"logo": map[string]any{"kind": "file", "file": "no-such-file"}}}}}, []string{"template.params.contentRefs.logo", "no-such-file"}},
		} {
			r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", path, c.body)
			if msg := r.ErrorMessage(t); !containsAll(msg, c.parts) {
				t.Fatalf("%s: message %q, want %q", name, msg, c.parts)
			}
		}
		if after := w.list(t, w.admin, path).Count; after != before {
			t.Fatalf("refused creations opened %d change requests", after-before)
		}
		w.Expect(t, http.StatusForbidden, w.reader, "POST", path, map[string]any{"template": map[string]any{"id": "product-guide"}})
	})
}

func TestApplyTemplateToChangeRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	w.seed(t, sp.Id, "Intro", "Hello.\n")
	mainRev := w.space(t, sp.Id).Revision
	cr := w.create(t, w.editor, sp.Id, "Reference")

	tplApply(t, w, w.editor, sp.Id, http.StatusNoContent, map[string]any{"id": "api-reference", "changeRequestId": cr.Id})
	wantTplOutline(t, "change request", w.crPages(t, sp.Id, cr.Id), append([]string{"intro: Intro"}, apiReferenceOutline...))
	if w.space(t, sp.Id).Revision != mainRev {
		t.Fatalf("the template went into the space's content")
	}
	// By number too: a second copy of the template goes after the first.
	tplApply(t, w, w.editor, sp.Id, http.StatusNoContent, map[string]any{"id": "product-guide", "changeRequestId": strconv.Itoa(cr.Number)})
	if n := len(w.crPages(t, sp.Id, cr.Id)); n != 3 {
		t.Fatalf("%d top-level pages after the second template, want 3", n)
	}

	t.Run("Refused", func(t *testing.T) {
		crRev := w.get(t, sp.Id, cr.Id).Revision
		r := tplApply(t, w, w.admin, sp.Id, http.StatusBadRequest, map[string]any{"id": "api-reference", "changeRequestId": "nosuch"})
		wantMessage(t, r, "changeRequestId", "nosuch")
		r = tplApply(t, w, w.admin, sp.Id, http.StatusBadRequest, map[string]any{"id": "cookbook", "changeRequestId": cr.Id})
		wantMessage(t, r, "id", "cookbook")
		r = tplApply(t, w, w.admin, sp.Id, http.StatusBadRequest, map[string]any{"id": "product-guide", "changeRequestId": cr.Id,
			"params": map[string]any{"contentRefs": map[string]any{"logo": map[string]any{"kind": "file", "file": "no-such-file"}}}})
		wantMessage(t, r, "contentRefs.logo")
		if got := w.get(t, sp.Id, cr.Id).Revision; got != crRev {
			t.Fatalf("a refused template moved the change request to %s", got)
		}
		w.merged(t, sp.Id, cr.Id)
		rev := w.space(t, sp.Id).Revision
		r = tplApply(t, w, w.admin, sp.Id, http.StatusConflict, map[string]any{"id": "api-reference", "changeRequestId": cr.Id})
		wantMessage(t, r, "merged")
		tplWantUnchanged(t, w, sp.Id, rev)
	})
}
