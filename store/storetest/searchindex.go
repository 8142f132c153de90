package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/quire-docs/quire/store"
)

// searchIndexUpkeep: a sound index checks clean, words with diacritics are found without them
// (and the other way round), and a rebuild leaves every answer as it was.
func searchIndexUpkeep(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	w.commit(sp.ID, insert("c", "Café crème", "Señor Müller orders a crème brûlée.\n\n## Später\n\nÀ bientôt, naïve résumé."),
		insert("z", "Zebras", "The zebra grazes."))
	searches := map[string]string{"cafe": "Café crème", "CAFÉ": "Café crème", "brulee": "Café crème",
		"spater": "Café crème", "resume naive": "Café crème", "zebra": "Zebras"}
	expect := func(when string) {
		t.Helper()
		for q, title := range searches {
			l, err := w.st.SearchSpace(ctx, sp.ID, q, store.Page{})
			if err != nil || len(l.Items) != 1 || l.Items[0].Title != title {
				t.Fatalf("%s: search %q: %+v, %v; want %q", when, q, l.Items, err, title)
			}
		}
	}
	expect("indexed by the merge")
	r, err := w.st.CheckSearchIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r.NeedsRebuild() || r.Pages != 2 || r.Spaces != 1 || r.Sections < 3 || r.Backend != w.st.Backend() {
		t.Fatalf("check of a sound index: %+v", r)
	}
	rebuilt, err := w.st.RebuildSearchIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rebuilt.Pages != r.Pages || rebuilt.Sections != r.Sections || rebuilt.Spaces != r.Spaces {
		t.Fatalf("rebuild indexed %+v; the index held %+v", rebuilt, r)
	}
	expect("after a rebuild")
}

// SearchIndexRepair is the check and the rebuild against a damaged index: corrupt damages the
// index of the space it is given as only the backend can (raw SQL); the check must say so, and a
// rebuild must mend it, so that search finds what it found before.
func SearchIndexRepair(t *testing.T, st store.Store, corrupt func(t *testing.T, spaceID string)) {
	ctx := context.Background()
	o := MustOwner(t, st, "repair@example.com")
	w := &world{t: t, st: st, owner: o, user: o.User.ID, org: o.Org.ID}
	damaged, sound := w.space("Damaged"), w.space("Sound")
	w.commit(damaged.ID, insert("a", "Über die Brücke", "Die Brücke führt über den Fluss.\n\n## Zurück\n\nDer Weg zurück."))
	w.commit(sound.ID, insert("b", "Elsewhere", "Nothing about bridges."))
	find := func(q string) int {
		t.Helper()
		l, err := st.SearchSpace(ctx, damaged.ID, q, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		return len(l.Items)
	}
	if find("brucke") != 1 || find("zuruck") != 1 {
		t.Fatal("the page is not found before the damage")
	}
	corrupt(t, damaged.ID)
	r, err := st.CheckSearchIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !r.NeedsRebuild() {
		t.Fatalf("the check found nothing wrong with a damaged index: %+v", r)
	}
	if st.Backend() == "postgres" && !slices.Equal(r.StaleSpaces, []string{damaged.ID}) {
		t.Fatalf("the check names spaces %v, want only the damaged %s", r.StaleSpaces, damaged.ID)
	}
	t.Logf("check of the damaged index: %+v", r)
	if _, err := st.RebuildSearchIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if r, err = st.CheckSearchIndex(ctx); err != nil || r.NeedsRebuild() {
		t.Fatalf("check after the rebuild: %+v, %v", r, err)
	}
	if find("brucke") != 1 || find("zuruck") != 1 {
		t.Fatal("the rebuilt index does not find the page")
	}
}

// searchSectionsOfBatches: the sections a merge indexes are those of the pages as merged, though
// the batches that wrote them already read their markdown: a body replaced by a later batch, a
// title changed after its body was written, the same body under two titles, a page written by
// one batch and merged by a later change request.
func searchSectionsOfBatches(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	cr, res := w.edit(sp.ID, insert("a", "Alpha", "Intro words.\n\n## Bravo heading\n\nBravo text."),
		insert("c", "Old name", "Zulu text.\n\n## Yankee\n\nYankee text."),
		insert("d", "Delta", "Zulu text.\n\n## Yankee\n\nYankee text."))
	a, c := res.Refs["a"], res.Refs["c"]
	rename := store.PageChange{Type: "update_page", Page: str(c), Title: str("New name"), Slug: str("old-name")}
	if _, err := w.st.UpdateChangeRequestContent(ctx, sp.ID, cr, w.user, []store.PageChange{
		update(a, "Intro words.\n\n## Charlie {#see-charlie}\n\nCharlie text."), rename}); err != nil {
		t.Fatal(err)
	}
	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, cr, w.user); err != nil || conflicts {
		t.Fatalf("merge: %v (conflicts %v)", err, conflicts)
	}
	sections := func(q string) map[string]store.SearchSection {
		t.Helper()
		l, err := w.st.SearchSpace(ctx, sp.ID, q, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]store.SearchSection{}
		for _, p := range l.Items {
			for _, s := range p.Sections {
				if s.Matched {
					out[p.Title+"/"+s.Title] = s
				}
			}
		}
		return out
	}
	if got := sections("bravo"); len(got) != 0 {
		t.Fatalf("the replaced body is indexed: %+v", got)
	}
	if got := sections("charlie"); len(got) != 1 || got["Alpha/Charlie"].Anchor != "see-charlie" {
		t.Fatalf("search charlie: %+v; want Alpha's section Charlie anchored see-charlie", got)
	}
	if got := sections("zulu"); len(got) != 2 || got["New name/New name"].Body == "" || got["Delta/Delta"].Body == "" {
		t.Fatalf("search zulu: %+v; want the first sections of New name and Delta", got)
	}
	// A page written and merged by a later change request.
	w.commit(sp.ID, insert("e", "Echo", "Intro.\n\n## Foxtrot\n\nFoxtrot text."))
	if got := sections("foxtrot"); len(got) != 1 || got["Echo/Foxtrot"].Anchor != "foxtrot" {
		t.Fatalf("search foxtrot: %+v", got)
	}
	if r, err := w.st.CheckSearchIndex(ctx); err != nil || r.NeedsRebuild() || r.Pages != 4 {
		t.Fatalf("check: %+v, %v", r, err)
	}
}

// searchEditedPages: a page whose body alone changes keeps its place in the index, and its
// sections are those of its new body only, however many it had before.
func searchEditedPages(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	refs := w.commit(sp.ID, insert("a", "Alpha", "Intro.\n\n## Bravo\n\nBravo text.\n\n## Delta\n\nDelta text."),
		insert("b", "Beta", "Beta text."))
	a := refs["a"]
	found := func(q string) []string {
		t.Helper()
		l, err := w.st.SearchSpace(ctx, sp.ID, q, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range l.Items {
			for _, s := range p.Sections {
				if s.Matched {
					out = append(out, p.Title+"/"+s.Title)
				}
			}
			if len(p.Sections) == 0 || p.MatchedTitle {
				out = append(out, p.Title)
			}
		}
		return out
	}
	w.commit(sp.ID, update(a, "Intro.\n\n## Charlie\n\nCharlie text."))
	for q, want := range map[string]string{"bravo": "[]", "delta": "[]", "charlie": "[Alpha/Charlie]"} {
		if got := fmt.Sprint(found(q)); got != want {
			t.Fatalf("after the first edit, search %s: %s, want %s", q, got, want)
		}
	}
	w.commit(sp.ID, update(a, "Echo text only."))
	for q, want := range map[string]string{"charlie": "[]", "echo": "[Alpha/Alpha]", "beta": "[Beta/Beta Beta]"} {
		if got := fmt.Sprint(found(q)); got != want {
			t.Fatalf("after the second edit, search %s: %s, want %s", q, got, want)
		}
	}
	if got := found("alpha"); len(got) == 0 || got[0] != "Alpha" && got[0] != "Alpha/Alpha" {
		t.Fatalf("search alpha: %v; the edited page's title is no longer found", got)
	}
	if r, err := w.st.CheckSearchIndex(ctx); err != nil || r.NeedsRebuild() || r.Pages != 2 {
		t.Fatalf("check: %+v, %v", r, err)
	}
}
