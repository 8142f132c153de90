package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// revisionReads: a revision's header is found only in its own space; a document (a page body)
// only in a space whose content held it — a duplicate reads its original's bodies up to the
// revision it was duplicated at, not the original's later ones; semantic changes of a merge.
func revisionReads(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	refs := w.commit(sp.ID, insert("a", "Alpha", "First body.\n"), insert("b", "Beta", "Beta body.\n"))
	rev1 := w.current(sp.ID)
	other := w.space("Other")

	if h, err := w.st.FindRevisionHeader(ctx, sp.ID, rev1.ID); err != nil || h.ID != rev1.ID || len(h.Pages) != 0 || h.ChangeRequestID == nil {
		t.Fatalf("header %+v %v", h, err)
	}
	_, err := w.st.FindRevisionHeader(ctx, other.ID, rev1.ID)
	wantCode(t, err, store.ENOTFOUND)

	alpha, err := w.st.FindPage(ctx, rev1.ID, refs["a"])
	if err != nil {
		t.Fatal(err)
	}
	if d, err := w.st.FindDocument(ctx, sp.ID, alpha.BodyID); err != nil || d.Markdown != "First body.\n" || d.PagePath != "alpha" {
		t.Fatalf("document %+v %v", d, err)
	}
	_, err = w.st.FindDocument(ctx, other.ID, alpha.BodyID)
	wantCode(t, err, store.ENOTFOUND)

	dup, err := w.st.DuplicateSpace(ctx, sp.ID, w.user)
	if err != nil {
		t.Fatal(err)
	}
	w.commit(sp.ID, store.PageChange{Type: "update_page", Page: str(refs["a"]), Markdown: str("Later body.\n")})
	rev2 := w.current(sp.ID)
	later, err := w.st.FindPage(ctx, rev2.ID, refs["a"])
	if err != nil {
		t.Fatal(err)
	}
	if d, err := w.st.FindDocument(ctx, dup.ID, alpha.BodyID); err != nil || d.Markdown != "First body.\n" {
		t.Fatalf("the duplicate's inherited document %+v %v", d, err)
	}
	_, err = w.st.FindDocument(ctx, dup.ID, later.BodyID)
	wantCode(t, err, store.ENOTFOUND)

	files2, err := w.st.FindAllFiles(ctx, rev2.ID)
	if err != nil {
		t.Fatal(err)
	}
	changes := store.SemanticChanges(rev1.Pages, rev2.Pages, nil, files2)
	if len(changes) != 1 || changes[0].Kind != store.PageEdited || changes[0].Page.ID != refs["a"] || !store.EditsOf(changes[0].Before, changes[0].Page).Body {
		t.Fatalf("changes of the edit %+v", changes)
	}
}

// pageAlternates: the pages translations made of a page, and from a translated page its source
// and the source's other translations; nothing across organizations.
func pageAlternates(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	src, fr, de := w.space("Docs"), w.space("Docs (fr)"), w.space("Docs (de)")
	for _, tr := range []struct {
		lang   string
		result *store.Space
		pages  []store.TranslatedPage
	}{
		{"fr", fr, []store.TranslatedPage{{SourcePageID: "s1", ResultPageID: "f1", SourceHash: "h"}, {SourcePageID: "s2", ResultPageID: "f2", SourceHash: "h"}}},
		{"de", de, []store.TranslatedPage{{SourcePageID: "s1", ResultPageID: "d1", SourceHash: "h"}}},
	} {
		x, err := w.st.CreateTranslation(ctx, w.org, store.TranslationCreate{SourceSpaceID: src.ID, SourceLanguage: "en", Language: tr.lang, CreatedBy: w.user})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.st.SetTranslationResultSpace(ctx, x.ID, tr.result.ID); err != nil {
			t.Fatal(err)
		}
		if err := w.st.FinishTranslationRun(ctx, x.ID, store.TranslationRun{Upsert: tr.pages}); err != nil {
			t.Fatal(err)
		}
	}
	want := func(space, page string, refs ...store.PageRef) {
		t.Helper()
		got, err := w.st.FindPageAlternates(ctx, w.org, space, page)
		if err != nil || len(got) != len(refs) {
			t.Fatalf("alternates of %s/%s: %+v %v, want %+v", space, page, got, err, refs)
		}
		seen := map[store.PageRef]bool{}
		for _, r := range got {
			seen[r] = true
		}
		for _, r := range refs {
			if !seen[r] {
				t.Fatalf("alternates of %s/%s: %+v, want %+v", space, page, got, refs)
			}
		}
	}
	want(src.ID, "s1", store.PageRef{SpaceID: fr.ID, PageID: "f1"}, store.PageRef{SpaceID: de.ID, PageID: "d1"})
	want(src.ID, "s2", store.PageRef{SpaceID: fr.ID, PageID: "f2"})
	want(fr.ID, "f1", store.PageRef{SpaceID: src.ID, PageID: "s1"}, store.PageRef{SpaceID: de.ID, PageID: "d1"})
	want(fr.ID, "f2", store.PageRef{SpaceID: src.ID, PageID: "s2"})
	want(src.ID, "s3")
	other, err := w.st.CreateOrganization(ctx, "Other", w.user)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := w.st.FindPageAlternates(ctx, other.ID, src.ID, "s1"); err != nil || len(got) != 0 {
		t.Fatalf("another organization's alternates %+v %v", got, err)
	}
}
