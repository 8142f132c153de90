package server_test

import (
	"net/http"
	"net/url"
	"testing"
)

func TestListCollectionsInOrganization(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	a := w.MustCreateCollection(t, w.admin, org, "A", "")
	a1 := w.MustCreateCollection(t, w.admin, org, "A1", a.Id)
	b := w.MustCreateCollection(t, w.admin, org, "B", "")
	a2 := w.MustCreateCollection(t, w.admin, org, "A2", a.Id)
	c := w.MustCreateCollection(t, w.admin, org, "C", "")
	theirs := w.MustCreateCollection(t, w.outsider, w.other.Id, "Theirs", "")

	t.Run("NestedByDefault", func(t *testing.T) {
		l := w.collections(t, w.admin, org, "")
		if l.Count != 5 || l.Next != nil {
			t.Fatalf("count %d, next %v", l.Count, l.Next)
		}
		wantIDs(t, "collections", idsOf(l.Items), a.Id, a1.Id, b.Id, a2.Id, c.Id)
	})

	t.Run("NestedFalseListsOnlyTopLevel", func(t *testing.T) {
		l := w.collections(t, w.admin, org, "?nested=false")
		if l.Count != 3 {
			t.Fatalf("count %d, want 3", l.Count)
		}
		wantIDs(t, "top-level collections", idsOf(l.Items), a.Id, b.Id, c.Id)
	})

	t.Run("PagesOfOne", func(t *testing.T) {
		first := w.collections(t, w.admin, org, "?limit=1")
		if len(first.Items) != 1 || first.Count != 5 || first.Next == nil || first.Next.Page == "" {
			t.Fatalf("first page: %d items, count %d, next %v", len(first.Items), first.Count, first.Next)
		}
		second := w.collections(t, w.admin, org, "?limit=1&page="+url.QueryEscape(first.Next.Page))
		if len(second.Items) != 1 || second.Items[0].Id != a1.Id || second.Count != 5 {
			t.Fatalf("second page: %v, count %d", idsOf(second.Items), second.Count)
		}
		wantIDs(t, "all pages", w.listAll(t, w.admin, "/orgs/"+org+"/collections"+"", 1), a.Id, a1.Id, b.Id, a2.Id, c.Id)
		wantIDs(t, "all top-level pages", w.listAll(t, w.admin, "/orgs/"+org+"/collections"+"?nested=false", 1), a.Id, b.Id, c.Id)
		wantIDs(t, "pages of two", w.listAll(t, w.admin, "/orgs/"+org+"/collections"+"", 2), a.Id, a1.Id, b.Id, a2.Id, c.Id)
	})

	t.Run("LastPageHasNoNext", func(t *testing.T) {
		l := w.collections(t, w.admin, org, "?limit=5")
		if len(l.Items) != 5 || l.Next != nil {
			t.Fatalf("%d items, next %v", len(l.Items), l.Next)
		}
	})

	t.Run("BadCursorIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/orgs/"+org+"/collections?page=notacursor", nil)
		wantMessage(t, r, "page")
	})

	t.Run("LimitOver1000Is400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/orgs/"+org+"/collections?limit=1001", nil)
		wantMessage(t, r, "limit")
	})

	t.Run("ReadMemberSeesThemWithReadPermissions", func(t *testing.T) {
		l := w.collections(t, w.reader, org, "")
		wantIDs(t, "reader's list", idsOf(l.Items), a.Id, a1.Id, b.Id, a2.Id, c.Id)
		for _, it := range l.Items {
			if !it.Permissions.View || it.Permissions.Admin {
				t.Fatalf("read member's permissions on %s: %+v", it.Title, it.Permissions)
			}
		}
	})

	t.Run("GuestSeesNone", func(t *testing.T) {
		// A guest cannot read any of them (GET answers 403), so the list shows none, as the
		// organization's space list does.
		l := w.collections(t, w.guest, org, "")
		if l.Count != 0 || len(l.Items) != 0 || l.Next != nil {
			t.Fatalf("guest sees count %d, %v", l.Count, idsOf(l.Items))
		}
	})

	t.Run("AnotherOrganizationsCollectionsAreNotListed", func(t *testing.T) {
		if ids := idsOf(w.collections(t, w.admin, org, "").Items); w.has(ids, theirs.Id) {
			t.Fatalf("list %v includes the other organization's collection", ids)
		}
		wantIDs(t, "their list", idsOf(w.collections(t, w.outsider, w.other.Id, "").Items), theirs.Id)
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/orgs/"+org+"/collections", nil)
	})

	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "GET", "/orgs/"+org+"/collections", nil)
	})
}

func TestListSpacesInCollection(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")
	s1 := w.MustCreateSpace(t, w.admin, org, "One", c.Id)
	s2 := w.MustCreateSpace(t, w.admin, org, "Two", c.Id)
	s3 := w.MustCreateSpace(t, w.admin, org, "Three", c.Id)
	top := w.MustCreateSpace(t, w.admin, org, "Top", "")
	sub := w.MustCreateCollection(t, w.admin, org, "Sub", c.Id)
	inSub := w.MustCreateSpace(t, w.admin, org, "In sub", sub.Id)
	path := "/collections/" + c.Id + "/spaces"

	t.Run("OnlyTheSpacesDirectlyInItInCreationOrder", func(t *testing.T) {
		l := w.spacesIn(t, w.admin, c.Id, "")
		if l.Count != 3 {
			t.Fatalf("count %d", l.Count)
		}
		wantIDs(t, "spaces", idsOf(l.Items), s1.Id, s2.Id, s3.Id)
		for _, s := range l.Items {
			if s.Parent == nil || *s.Parent != c.Id {
				t.Fatalf("space %s has parent %v", s.Title, s.Parent)
			}
		}
		if w.has(idsOf(l.Items), top.Id) || w.has(idsOf(l.Items), inSub.Id) {
			t.Fatal("list includes a space not directly in the collection")
		}
	})

	t.Run("OrderFollowsMoves", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s3.Id+"/move",
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": s1.Id}}})
		wantIDs(t, "after moving three before one", idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), s3.Id, s1.Id, s2.Id)
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s3.Id+"/move",
			map[string]any{"position": map[string]any{"after": map[string]any{"type": "space", "space": s2.Id}}})
		wantIDs(t, "after moving three after two", idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), s1.Id, s2.Id, s3.Id)
		// Positions are shared with collections: a space can go before the nested collection.
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s1.Id+"/move",
			map[string]any{"position": map[string]any{"after": map[string]any{"type": "collection", "collection": sub.Id}}})
		wantIDs(t, "after moving one after the sub-collection", idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), s2.Id, s3.Id, s1.Id)
	})

	t.Run("PagesOfOneFollowTheOrder", func(t *testing.T) {
		var ids []string
		q := "?limit=1"
		for i := 0; ; i++ {
			if i > 10 {
				t.Fatal("paging does not end")
			}
			l := w.spacesIn(t, w.admin, c.Id, q)
			if l.Count != 3 || len(l.Items) != 1 {
				t.Fatalf("page %d: %d items, count %d", i, len(l.Items), l.Count)
			}
			ids = append(ids, l.Items[0].Id)
			if l.Next == nil {
				break
			}
			q = "?limit=1&page=" + url.QueryEscape(l.Next.Page)
		}
		wantIDs(t, "paged spaces", ids, s2.Id, s3.Id, s1.Id)
	})

	t.Run("DeletedSpacesAreNotListed", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s3.Id, nil)
		l := w.spacesIn(t, w.admin, c.Id, "")
		if l.Count != 2 {
			t.Fatalf("count %d", l.Count)
		}
		wantIDs(t, "spaces", idsOf(l.Items), s2.Id, s1.Id)
	})

	t.Run("ReadMemberCanList", func(t *testing.T) {
		wantIDs(t, "reader's list", idsOf(w.spacesIn(t, w.reader, c.Id, "").Items), s2.Id, s1.Id)
	})

	t.Run("GuestMemberIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.guest, "GET", path, nil)
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", path, nil)
	})

	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/collections/nosuchcollection/spaces", nil)
	})

	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "GET", path, nil)
	})
}
