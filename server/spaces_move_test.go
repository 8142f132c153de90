package server_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestMoveSpace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")
	d := w.MustCreateCollection(t, w.admin, org, "Reference", "")
	s1 := w.MustCreateSpace(t, w.admin, org, "One", c.Id)
	s2 := w.MustCreateSpace(t, w.admin, org, "Two", c.Id)
	s3 := w.MustCreateSpace(t, w.admin, org, "Three", c.Id)
	d1 := w.MustCreateSpace(t, w.admin, org, "D one", d.Id)
	d2 := w.MustCreateSpace(t, w.admin, org, "D two", d.Id)
	top := w.MustCreateSpace(t, w.admin, org, "Top", "")
	inC := func(t *testing.T) []string { return idsOf(w.spacesIn(t, w.admin, c.Id, "").Items) }
	inD := func(t *testing.T) []string { return idsOf(w.spacesIn(t, w.admin, d.Id, "").Items) }

	t.Run("BeforeASibling", func(t *testing.T) {
		r := w.moveSpace(t, s3.Id, spaceBefore(s1.Id))
		w.wantStatus(t, r, http.StatusOK)
		var got gen.Space
		r.Decode(t, &got)
		if got.Id != s3.Id || got.Parent == nil || *got.Parent != c.Id {
			t.Fatalf("moved %+v", got)
		}
		wantIDs(t, "c", inC(t), s3.Id, s1.Id, s2.Id)
	})

	t.Run("AfterASibling", func(t *testing.T) {
		w.wantStatus(t, w.moveSpace(t, s3.Id, spaceAfter(s1.Id)), http.StatusOK)
		wantIDs(t, "c", inC(t), s1.Id, s3.Id, s2.Id)
		w.wantStatus(t, w.moveSpace(t, s1.Id, spaceAfter(s2.Id)), http.StatusOK)
		wantIDs(t, "c", inC(t), s3.Id, s2.Id, s1.Id)
		w.wantStatus(t, w.moveSpace(t, s1.Id, spaceBefore(s3.Id)), http.StatusOK)
		wantIDs(t, "c", inC(t), s1.Id, s3.Id, s2.Id)
	})

	t.Run("IntoACollectionAtTheEnd", func(t *testing.T) {
		before := w.orgSpaces(t, w.admin, org, "").Count
		r := w.moveSpace(t, top.Id, map[string]any{"parent": d.Id})
		w.wantStatus(t, r, http.StatusOK)
		var got gen.Space
		r.Decode(t, &got)
		if got.Parent == nil || *got.Parent != d.Id {
			t.Fatalf("parent = %v", got.Parent)
		}
		if re := w.spaceAs(t, w.admin, top.Id); re.Parent == nil || *re.Parent != d.Id {
			t.Fatalf("re-read parent = %v", re.Parent)
		}
		wantIDs(t, "d", inD(t), d1.Id, d2.Id, top.Id)
		if after := w.orgSpaces(t, w.admin, org, "").Count; after != before {
			t.Fatalf("org spaces %d -> %d", before, after)
		}
	})

	t.Run("IntoACollectionAtAPosition", func(t *testing.T) {
		body := spaceBefore(d1.Id)
		body["parent"] = d.Id
		w.wantStatus(t, w.moveSpace(t, s2.Id, body), http.StatusOK)
		wantIDs(t, "d", inD(t), s2.Id, d1.Id, d2.Id, top.Id)
		wantIDs(t, "c", inC(t), s1.Id, s3.Id)
	})

	t.Run("ToTopLevelWithParentNull", func(t *testing.T) {
		r := w.moveSpace(t, top.Id, map[string]any{"parent": nil})
		w.wantStatus(t, r, http.StatusOK)
		var got gen.Space
		r.Decode(t, &got)
		if got.Parent != nil {
			t.Fatalf("parent = %v", *got.Parent)
		}
		if re := w.spaceAs(t, w.admin, top.Id); re.Parent != nil {
			t.Fatalf("re-read parent = %v", *re.Parent)
		}
		wantIDs(t, "d", inD(t), s2.Id, d1.Id, d2.Id)
	})

	t.Run("MoveThatChangesNothingIs400", func(t *testing.T) {
		// d is [s2, d1, d2].
		for _, c := range []struct {
			name string
			id   string
			body map[string]any
		}{
			{"same parent, already last", d2.Id, map[string]any{"parent": d.Id}},
			{"already before its next sibling", s2.Id, spaceBefore(d1.Id)},
			{"already after its previous sibling", d2.Id, spaceAfter(d1.Id)},
			{"same parent and already in place", d1.Id, map[string]any{"parent": d.Id, "position": spaceAfter(s2.Id)["position"]}},
			{"top-level space to the top level, already last", top.Id, map[string]any{"parent": nil}},
		} {
			r := w.moveSpace(t, c.id, c.body)
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%s: status %d: %s", c.name, r.Status, r.Body)
			}
			wantMessage(t, r, "nothing")
		}
		wantIDs(t, "d", inD(t), s2.Id, d1.Id, d2.Id)
	})

	t.Run("NextToItselfIs400", func(t *testing.T) {
		w.wantStatus(t, w.moveSpace(t, d1.Id, spaceBefore(d1.Id)), http.StatusBadRequest)
	})

	t.Run("SiblingUnderAnotherParentIs400", func(t *testing.T) {
		// d1 is in d, not in c where s1 stays.
		r := w.moveSpace(t, s1.Id, spaceBefore(d1.Id))
		w.wantStatus(t, r, http.StatusBadRequest)
		wantMessage(t, r, "position.before")
		// Moving to c's parent (top level) next to a space of c.
		body := spaceAfter(s3.Id)
		body["parent"] = nil
		r = w.moveSpace(t, s1.Id, body)
		w.wantStatus(t, r, http.StatusBadRequest)
		wantMessage(t, r, "position.after")
		wantIDs(t, "c", inC(t), s1.Id, s3.Id)
	})

	t.Run("DeletedSpaceIs404", func(t *testing.T) {
		gone := w.MustCreateSpace(t, w.admin, org, "Gone", c.Id)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+gone.Id, nil)
		w.wantStatus(t, w.moveSpace(t, gone.Id, map[string]any{"parent": d.Id}), http.StatusNotFound)
		// Nor can a live space be placed next to a deleted one.
		w.wantStatus(t, w.moveSpace(t, s3.Id, spaceBefore(gone.Id)), http.StatusBadRequest)
	})
}

func TestTransferSpace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	second := w.MustCreateOrg(t, w.admin, "Acme Labs") // the admin administers it too
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")

	t.Run("ToAnOrganizationTheCallerAdministers", func(t *testing.T) {
		stays := w.MustCreateSpace(t, w.admin, org, "Stays", c.Id)
		s := w.MustCreateSpace(t, w.admin, org, "Moving", c.Id)
		got := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "POST", "/spaces/"+s.Id+"/transfer", map[string]any{"organization": second.Id})
		if got.Id != s.Id || got.Organization != second.Id || got.Parent != nil || got.Title != "Moving" {
			t.Fatalf("transferred %+v", got)
		}
		if re := w.spaceAs(t, w.admin, s.Id); re.Organization != second.Id || re.Parent != nil {
			t.Fatalf("re-read %+v", re)
		}
		wantIDs(t, "second org's spaces", idsOf(w.orgSpaces(t, w.admin, second.Id, "").Items), s.Id)
		if ids := idsOf(w.orgSpaces(t, w.admin, org, "").Items); w.has(ids, s.Id) || !w.has(ids, stays.Id) {
			t.Fatalf("first org's spaces %v", ids)
		}
		wantIDs(t, "c", idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), stays.Id)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+s.Id, nil)
	})

	t.Run("DeletedSpaceIs404", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Gone", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/spaces/"+s.Id+"/transfer", map[string]any{"organization": second.Id})
		if re := w.spaceAs(t, w.admin, s.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
	})
}

func TestListSpacesInOrganization(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")
	var want []string
	for i, parent := range []string{"", c.Id, "", c.Id, ""} {
		want = append(want, w.MustCreateSpace(t, w.admin, org, "Space "+string(rune('A'+i)), parent).Id)
	}
	theirs := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "")
	walk := func(t *testing.T, u *testUser, limit int, wantCount int) []string {
		t.Helper()
		var ids []string
		q := url.Values{"limit": {strconv.Itoa(limit)}}
		for i := 0; ; i++ {
			if i > 20 {
				t.Fatal("paging does not end")
			}
			l := w.orgSpaces(t, u, org, "?"+q.Encode())
			if l.Count != wantCount || len(l.Items) > limit {
				t.Fatalf("page %d: count %d (want %d), %d items", i, l.Count, wantCount, len(l.Items))
			}
			ids = append(ids, idsOf(l.Items)...)
			if l.Next == nil {
				return ids
			}
			q.Set("page", l.Next.Page)
		}
	}

	t.Run("AllInOnePage", func(t *testing.T) {
		l := w.orgSpaces(t, w.admin, org, "")
		if l.Count != 5 || l.Next != nil {
			t.Fatalf("count %d, next %v", l.Count, l.Next)
		}
		wantIDs(t, "spaces", idsOf(l.Items), want...)
	})

	t.Run("PagesOfTwo", func(t *testing.T) {
		first := w.orgSpaces(t, w.admin, org, "?limit=2")
		if len(first.Items) != 2 || first.Next == nil || first.Count != 5 {
			t.Fatalf("first page: %d items, next %v, count %d", len(first.Items), first.Next, first.Count)
		}
		wantIDs(t, "pages of two", walk(t, w.admin, 2, 5), want...)
		wantIDs(t, "pages of one", walk(t, w.admin, 1, 5), want...)
	})

	t.Run("DeletedSpacesAreExcluded", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+want[1], nil)
		rest := append([]string{want[0]}, want[2:]...)
		wantIDs(t, "pages of two", walk(t, w.admin, 2, 4), rest...)
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+want[1]+"/restore", nil)
		wantIDs(t, "after restore", walk(t, w.admin, 10, 5), want...)
	})

	t.Run("AnotherOrganizationsSpacesAreNotListed", func(t *testing.T) {
		if w.has(walk(t, w.admin, 10, 5), theirs.Id) {
			t.Fatal("list includes the other organization's space")
		}
		wantIDs(t, "their list", idsOf(w.orgSpaces(t, w.outsider, w.other.Id, "").Items), theirs.Id)
	})

	t.Run("ReadMemberSeesThemWithReadPermissions", func(t *testing.T) {
		l := w.orgSpaces(t, w.reader, org, "")
		wantIDs(t, "reader's list", idsOf(l.Items), want...)
		for _, s := range l.Items {
			if !s.Permissions.View || s.Permissions.Edit || s.Permissions.Admin {
				t.Fatalf("reader's permissions on %s: %+v", s.Title, s.Permissions)
			}
		}
	})

	t.Run("GuestSeesNone", func(t *testing.T) {
		l := w.orgSpaces(t, w.guest, org, "")
		if l.Count != 0 || len(l.Items) != 0 {
			t.Fatalf("guest sees count %d, %d items", l.Count, len(l.Items))
		}
	})

	t.Run("BadCursorIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/orgs/"+org+"/spaces?page=notacursor", nil)
		wantMessage(t, r, "page")
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/orgs/"+org+"/spaces", nil)
	})

	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "GET", "/orgs/"+org+"/spaces", nil)
	})
}
