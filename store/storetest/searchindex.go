package storetest

import (
	"context"
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
