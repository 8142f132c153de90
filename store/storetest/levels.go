package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// levels: a content default level of `inherit` resolves through the collections above it; a
// level set on the way stops it, and a chain ending in no level gives none.
func levels(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	outer, err := w.st.CreateCollection(ctx, w.org, "Outer", nil)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := w.st.CreateCollection(ctx, w.org, "Inner", &outer.ID)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := w.st.CreateSpace(ctx, w.org, w.user, store.SpaceCreate{Title: "Deep", ParentID: &inner.ID})
	if err != nil {
		t.Fatal(err)
	}
	setCollection := func(id string, level store.Role) {
		t.Helper()
		if _, err := w.st.UpdateCollection(ctx, id, store.CollectionUpdate{SetDefaultLevel: true, DefaultLevel: level}); err != nil {
			t.Fatal(err)
		}
	}
	setSpace := func(level store.Role) {
		t.Helper()
		if _, err := w.st.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{SetDefaultLevel: true, DefaultLevel: level}); err != nil {
			t.Fatal(err)
		}
	}
	resolved := func() store.Role {
		t.Helper()
		got, err := w.st.FindSpace(ctx, sp.ID)
		if err != nil {
			t.Fatal(err)
		}
		l, err := w.st.CollectionLevels(ctx, w.org)
		if err != nil {
			t.Fatal(err)
		}
		return l.Resolve(got.DefaultLevel, got.ParentID)
	}
	setCollection(outer.ID, store.RoleComment)
	setCollection(inner.ID, store.LevelInherit)
	setSpace(store.LevelInherit)
	if got := resolved(); got != store.RoleComment {
		t.Fatalf("inherit through two collections: %q, want comment", got)
	}
	setCollection(inner.ID, store.RoleEdit)
	if got := resolved(); got != store.RoleEdit {
		t.Fatalf("a level on the way: %q, want edit", got)
	}
	setCollection(inner.ID, store.LevelInherit)
	setCollection(outer.ID, store.RoleGuest)
	if got := resolved(); got != store.RoleGuest {
		t.Fatalf("a chain ending in no level: %q, want none", got)
	}
	setSpace(store.RoleRead)
	if got := resolved(); got != store.RoleRead {
		t.Fatalf("the space's own level: %q, want read", got)
	}
}
