package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/quire-docs/quire/store"
)

// glossary: an organization's glossary takes batches all or none, lists oldest first or by a
// language's term (entries without one first) in pages, and stays the organization's.
func glossary(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	list := func(orderBy string) []string {
		t.Helper()
		var ids []string
		page := store.Page{Limit: 2}
		for {
			l, err := w.st.FindGlossaryEntries(ctx, w.org, orderBy, page)
			if err != nil {
				t.Fatal(err)
			}
			if l.Count != 3 {
				t.Fatalf("count %d", l.Count)
			}
			for _, e := range l.Items {
				ids = append(ids, e.Translations["en"])
			}
			if l.Next == "" {
				return ids
			}
			page.Cursor = l.Next
		}
	}
	if err := w.st.UpdateGlossary(ctx, w.org, []store.GlossaryOperation{
		{Type: "insert", Translations: map[string]string{"en": "Space", "fr": "Espace"}},
		{Type: "insert", Translations: map[string]string{"en": "Change request", "fr": "Demande de modification"}},
		{Type: "insert", Translations: map[string]string{"en": "Quire"}},
	}); err != nil {
		t.Fatal(err)
	}
	// Oldest first; entries of one batch share their creation time, then go by id.
	if got := list(""); len(got) != 3 || !slices.Contains(got, "Space") || !slices.Contains(got, "Quire") || !slices.Contains(got, "Change request") {
		t.Fatalf("oldest first: %q", got)
	}
	if got := list("fr"); len(got) != 3 || got[0] != "Quire" || got[1] != "Demande de modification" && got[1] != "Change request" || got[2] != "Space" {
		t.Fatalf("by the French term: %q", got)
	}
	all, err := w.st.FindAllGlossaryEntries(ctx, w.org)
	if err != nil || len(all) != 3 {
		t.Fatalf("all %d %v", len(all), err)
	}
	byTerm := map[string]*store.GlossaryEntry{}
	for _, e := range all {
		byTerm[e.Translations["en"]] = e
	}
	space := byTerm["Space"]

	// An update replaces the terms (and the order reads the new ones); a delete removes the entry.
	if err := w.st.UpdateGlossary(ctx, w.org, []store.GlossaryOperation{
		{Type: "update", ID: space.ID, Translations: map[string]string{"en": "Space", "fr": "Zone"}},
		{Type: "delete", ID: byTerm["Quire"].ID},
		{Type: "insert", Translations: map[string]string{"en": "Page", "de": "Seite"}},
	}); err != nil {
		t.Fatal(err)
	}
	got, err := w.st.FindGlossaryEntry(ctx, w.org, space.ID)
	if err != nil || got.Translations["fr"] != "Zone" || len(got.Translations) != 2 || !got.CreatedAt.Equal(space.CreatedAt) {
		t.Fatalf("updated %+v %v", got, err)
	}
	if got := list("fr"); got[0] != "Page" || got[1] != "Change request" || got[2] != "Space" {
		t.Fatalf("by the French term after the update: %q", got)
	}

	// A batch naming an entry the organization lacks changes nothing and names the operation.
	other, err := w.st.CreateOrganization(ctx, "Other", w.user)
	if err != nil {
		t.Fatal(err)
	}
	err = w.st.UpdateGlossary(ctx, other.ID, []store.GlossaryOperation{
		{Type: "insert", Translations: map[string]string{"en": "Lost"}},
		{Type: "delete", ID: space.ID},
	})
	wantCode(t, err, store.EINVALID)
	if e, ok := err.(*store.Error); !ok || e.Field != "operations[1].id" {
		t.Fatalf("the refusal names %v", err)
	}
	_, err = w.st.FindGlossaryEntry(ctx, other.ID, space.ID)
	wantCode(t, err, store.ENOTFOUND)
	if l, err := w.st.FindGlossaryEntries(ctx, other.ID, "", store.Page{}); err != nil || l.Count != 0 {
		t.Fatalf("the refused batch wrote %+v %v", l, err)
	}
}
