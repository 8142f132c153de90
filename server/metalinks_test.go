package server_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// A page's meta-links list the same page in the other languages translations keep it in, seen
// from the source page and from each translation, in the spaces the caller can read.
func TestPageMetaLinksAreTranslations(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	refs := w.edit(t, insertMarkdown("Read me", "Read the page.\n", "read"), insertMarkdown("Other", "Hello.\n", "other"))
	read := refs["read"]
	fr := w.run(t, w.create(t, "fr", nil).Id)
	de := w.run(t, w.create(t, "de", nil).Id)
	frPage := pageAtPath(t, w.testServer, w.admin, fr.Result.Space, "read-me")
	dePage := pageAtPath(t, w.testServer, w.admin, de.Result.Space, "read-me")

	alt := func(space, page string) gen.RevisionPageMetaLinkTarget {
		return gen.RevisionPageMetaLinkTarget{Kind: gen.RevisionPageMetaLinkKindPage, Space: &space, Page: &page}
	}
	wantAlternates := func(path string, want ...gen.RevisionPageMetaLinkTarget) {
		t.Helper()
		got := getJSON[gen.RevisionPageMetaLinks](t, w.testServer, w.admin, path)
		if got.Canonical != nil || !sameTargets(got.Alternates, want) {
			t.Fatalf("%s: %+v, want alternates %+v", path, got, want)
		}
	}
	fromSource := []gen.RevisionPageMetaLinkTarget{alt(fr.Result.Space, frPage), alt(de.Result.Space, dePage)}
	wantAlternates("/spaces/"+w.source.Id+"/content/page/"+read+"/meta-links", fromSource...)
	rev := getJSON[gen.Revision](t, w.testServer, w.admin, "/spaces/"+w.source.Id+"/content").Id
	wantAlternates("/spaces/"+w.source.Id+"/revisions/"+rev+"/page/"+read+"/meta-links", fromSource...)
	cr := sendJSON[gen.ChangeRequest](t, w.testServer, http.StatusCreated, w.admin, "POST", "/spaces/"+w.source.Id+"/change-requests", map[string]any{"subject": "x"})
	wantAlternates(crPath(w.source.Id, cr.Id, "/content/page/"+read+"/meta-links"), fromSource...)
	// From a translation: the source and the other translation.
	wantAlternates("/spaces/"+fr.Result.Space+"/content/page/"+frPage+"/meta-links", alt(w.source.Id, read), alt(de.Result.Space, dePage))

	// A page a revision lacks has none; someone outside the organization sees no page.
	outsider := w.MustCreateUser(t, "out@else.test", "Out")
	w.MustCreateOrg(t, outsider, "Else")
	w.Expect(t, http.StatusNotFound, outsider, "GET", "/spaces/"+w.source.Id+"/content/page/"+read+"/meta-links", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+w.source.Id+"/content/page/missing/meta-links", nil)
}

func pageAtPath(t *testing.T, ts *testServer, u *testUser, spaceID, path string) string {
	t.Helper()
	return getJSON[gen.RevisionPage](t, ts, u, "/spaces/"+spaceID+"/content/path/"+path).Id
}

func sameTargets(got, want []gen.RevisionPageMetaLinkTarget) bool {
	key := func(l []gen.RevisionPageMetaLinkTarget) map[string]bool {
		m := map[string]bool{}
		for _, x := range l {
			m[string(x.Kind)+" "+*x.Space+" "+*x.Page] = true
		}
		return m
	}
	return len(got) == len(want) && reflect.DeepEqual(key(got), key(want))
}
