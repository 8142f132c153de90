package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
)

// collection reads a collection as u, which must answer 200.
func (w *world) collection(t *testing.T, u *testUser, id string) gen.Collection {
	t.Helper()
	return getJSON[gen.Collection](t, w.testServer, u, "/collections/"+id)
}

// collections reads one page of an organization's collections.
func (w *world) collections(t *testing.T, u *testUser, orgID, query string) gen.CollectionList {
	t.Helper()
	return getJSON[gen.CollectionList](t, w.testServer, u, "/orgs/"+orgID+"/collections"+query)
}

// spacesIn reads one page of the spaces of a collection.
func (w *world) spacesIn(t *testing.T, u *testUser, collectionID, query string) gen.SpaceList {
	t.Helper()
	return getJSON[gen.SpaceList](t, w.testServer, u, "/collections/"+collectionID+"/spaces"+query)
}

// orgSpaces reads one page of the spaces of an organization.
func (w *world) orgSpaces(t *testing.T, u *testUser, orgID, query string) gen.SpaceList {
	t.Helper()
	return getJSON[gen.SpaceList](t, w.testServer, u, "/orgs/"+orgID+"/spaces"+query)
}

// levelText shows a defaultLevel as it was on the wire: a role, "null", or "<absent>".
func (w *world) level(n nullable.Nullable[gen.DefaultLevel]) string {
	if !n.IsSpecified() {
		return "<absent>"
	}
	if n.IsNull() {
		return "null"
	}
	v, _ := n.Get()
	return string(v)
}

func TestCreateCollection(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id

	t.Run("TitleOf50CharactersIsCreatedAtTopLevel", func(t *testing.T) {
		title := strings.Repeat("c", 50)
		c := sendJSON[gen.Collection](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/collections", map[string]any{"title": title})
		if c.Object != "collection" || c.Title != title || c.Organization != org || c.Parent != nil || c.Id == "" {
			t.Fatalf("created %+v", c)
		}
		if c.Urls.Location != testBaseURL+"/v1/collections/"+c.Id {
			t.Fatalf("urls.location = %q", c.Urls.Location)
		}
		if !c.Permissions.View || !c.Permissions.Admin || !c.Permissions.Create || !c.Permissions.ViewInviteLinks {
			t.Fatalf("admin's permissions = %+v", c.Permissions)
		}
		got := w.collection(t, w.admin, c.Id)
		if got.Title != title || got.Parent != nil || w.level(got.DefaultLevel) != w.level(c.DefaultLevel) {
			t.Fatalf("re-read %+v, created %+v", got, c)
		}
	})

	t.Run("NestedUnderParent", func(t *testing.T) {
		parent := w.MustCreateCollection(t, w.admin, org, "Handbook", "")
		child := w.MustCreateCollection(t, w.admin, org, "Onboarding", parent.Id)
		grandchild := w.MustCreateCollection(t, w.admin, org, "Week one", child.Id)
		if got := w.collection(t, w.admin, child.Id); got.Parent == nil || *got.Parent != parent.Id {
			t.Fatalf("child's parent = %v, want %s", got.Parent, parent.Id)
		}
		if got := w.collection(t, w.admin, grandchild.Id); got.Parent == nil || *got.Parent != child.Id {
			t.Fatalf("grandchild's parent = %v, want %s", got.Parent, child.Id)
		}
		all := idsOf(w.collections(t, w.admin, org, "").Items)
		top := idsOf(w.collections(t, w.admin, org, "?nested=false").Items)
		if !w.has(all, child.Id) || !w.has(all, grandchild.Id) || !w.has(all, parent.Id) {
			t.Fatalf("nested list %v misses the new collections", all)
		}
		if w.has(top, child.Id) || w.has(top, grandchild.Id) || !w.has(top, parent.Id) {
			t.Fatalf("top-level list %v", top)
		}
	})

	t.Run("CreatorsPermissionsAreTheOnesARereadShows", func(t *testing.T) {
		// A create member gets the admin level of the parent collection on what they create in it.
		cora := w.MustCreateUser(t, "cora@creators.test", "Cora")
		w.MustAddMember(t, w.admin, org, cora, "create")
		parent := w.MustCreateCollection(t, w.admin, org, "Open house", "")
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+parent.Id, map[string]any{"defaultLevel": "admin"})
		created := w.MustCreateCollection(t, cora, org, "Cora's", parent.Id)
		reread := w.collection(t, cora, created.Id)
		if created.Permissions != reread.Permissions || !reread.Permissions.Admin {
			t.Fatalf("permissions answered %+v, re-read %+v", created.Permissions, reread.Permissions)
		}
		plain := w.MustCreateCollection(t, cora, org, "Cora's plain", "")
		if p := plain.Permissions; p.Admin || !p.Create || !p.View || p != w.collection(t, cora, plain.Id).Permissions {
			t.Fatalf("create member's permissions on a top-level collection: %+v", p)
		}
		sp := w.MustCreateSpace(t, cora, org, "Cora's space", parent.Id)
		if sp.Permissions != w.spaceAs(t, cora, sp.Id).Permissions || !sp.Permissions.Admin {
			t.Fatalf("space permissions answered %+v, re-read %+v", sp.Permissions, w.spaceAs(t, cora, sp.Id).Permissions)
		}
	})

	t.Run("BodyOver1MiBIs413", func(t *testing.T) {
		before := w.collections(t, w.admin, org, "").Count
		body := []byte(`{"title":"` + strings.Repeat("x", 1<<20+1) + `"}`)
		r := w.Expect(t, http.StatusRequestEntityTooLarge, w.admin, "POST", "/orgs/"+org+"/collections", body)
		if msg := r.ErrorMessage(t); msg == "" {
			t.Fatal("413 without a message")
		}
		if after := w.collections(t, w.admin, org, "").Count; after != before {
			t.Fatalf("collections %d -> %d", before, after)
		}
	})
}

func (w *world) has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestGetCollection(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	c := w.MustCreateCollection(t, w.admin, w.org.Id, "Guides", "")

	t.Run("AdminReadsIt", func(t *testing.T) {
		got := w.collection(t, w.admin, c.Id)
		if got.Id != c.Id || got.Title != "Guides" || got.Organization != w.org.Id || got.Object != "collection" {
			t.Fatalf("got %+v", got)
		}
		if got.Urls.App == "" || !strings.HasPrefix(got.Urls.App, testBaseURL+"/") {
			t.Fatalf("urls.app = %q", got.Urls.App)
		}
	})

	t.Run("ReadMemberCanViewButNotAdminister", func(t *testing.T) {
		got := w.collection(t, w.reader, c.Id)
		p := got.Permissions
		if !p.View || p.Admin || p.Create || p.ViewInviteLinks {
			t.Fatalf("read member's permissions = %+v", p)
		}
	})

	w.readRefusals(t, placeables[0], c.Id)
}

func TestUpdateCollection(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	c := w.MustCreateCollection(t, w.admin, w.org.Id, "Guides", "")
	path := "/collections/" + c.Id
	patch := func(t *testing.T, body map[string]any) gen.Collection {
		t.Helper()
		return sendJSON[gen.Collection](t, w.testServer, http.StatusOK, w.admin, "PATCH", path, body)
	}

	t.Run("Title", func(t *testing.T) {
		got := patch(t, map[string]any{"title": "Manuals"})
		if got.Title != "Manuals" {
			t.Fatalf("title = %q", got.Title)
		}
		if re := w.collection(t, w.admin, c.Id); re.Title != "Manuals" {
			t.Fatalf("re-read title = %q", re.Title)
		}
	})

	t.Run("DescriptionOf100CharactersIsAccepted", func(t *testing.T) {
		d := strings.Repeat("d", 100)
		got := patch(t, map[string]any{"description": d})
		if got.Description == nil || *got.Description != d {
			t.Fatalf("description = %v", got.Description)
		}
		if re := w.collection(t, w.admin, c.Id); re.Description == nil || *re.Description != d || re.Title != "Manuals" {
			t.Fatalf("re-read %+v", re)
		}
	})

	t.Run("DescriptionOf101CharactersIs400NamingDescription", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, map[string]any{"description": strings.Repeat("d", 101)})
		wantMessage(t, r, "description")
		if re := w.collection(t, w.admin, c.Id); re.Description == nil || len(*re.Description) != 100 {
			t.Fatalf("description changed by a refused update: %v", re.Description)
		}
	})

	t.Run("DefaultLevelSetThenLeftAloneThenNulled", func(t *testing.T) {
		if got := patch(t, map[string]any{"defaultLevel": "edit"}); w.level(got.DefaultLevel) != "edit" {
			t.Fatalf("defaultLevel = %s after setting edit", w.level(got.DefaultLevel))
		}
		// A body without defaultLevel leaves it as it is.
		got := patch(t, map[string]any{"title": "Renamed"})
		if w.level(got.DefaultLevel) != "edit" || got.Title != "Renamed" {
			t.Fatalf("after a title-only update: defaultLevel %s, title %q", w.level(got.DefaultLevel), got.Title)
		}
		if re := w.collection(t, w.admin, c.Id); w.level(re.DefaultLevel) != "edit" {
			t.Fatalf("re-read defaultLevel = %s", w.level(re.DefaultLevel))
		}
		// An explicit null sets null.
		if got := patch(t, map[string]any{"defaultLevel": nil}); w.level(got.DefaultLevel) != "null" {
			t.Fatalf("defaultLevel = %s after null", w.level(got.DefaultLevel))
		}
		if re := w.collection(t, w.admin, c.Id); w.level(re.DefaultLevel) != "null" || re.Title != "Renamed" {
			t.Fatalf("re-read defaultLevel %s, title %q", w.level(re.DefaultLevel), re.Title)
		}
	})

	t.Run("DefaultLevelRaisesAReadMembersPermissions", func(t *testing.T) {
		patch(t, map[string]any{"defaultLevel": "create"})
		if p := w.collection(t, w.reader, c.Id).Permissions; !p.View || !p.Create || p.Admin {
			t.Fatalf("read member on a create-level collection: %+v", p)
		}
		// null is no access by default: the collection is not shown to a member granted nothing.
		patch(t, map[string]any{"defaultLevel": nil})
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/collections/"+c.Id, nil)
	})
}

func TestDeleteCollection(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id

	t.Run("SpacesInsideBecomeDeletedAndRestorable", func(t *testing.T) {
		outside := w.MustCreateSpace(t, w.admin, org, "Outside", "")
		c := w.MustCreateCollection(t, w.admin, org, "Doomed", "")
		nested := w.MustCreateCollection(t, w.admin, org, "Doomed too", c.Id)
		deeper := w.MustCreateCollection(t, w.admin, org, "Doomed three", nested.Id)
		s1 := w.MustCreateSpace(t, w.admin, org, "In c", c.Id)
		s2 := w.MustCreateSpace(t, w.admin, org, "In nested", nested.Id)
		s3 := w.MustCreateSpace(t, w.admin, org, "In deeper", deeper.Id)
		before := w.orgSpaces(t, w.admin, org, "").Count

		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/collections/"+c.Id, nil)

		for _, id := range []string{c.Id, nested.Id, deeper.Id} {
			w.Expect(t, http.StatusNotFound, w.admin, "GET", "/collections/"+id, nil)
			w.Expect(t, http.StatusNotFound, w.admin, "GET", "/collections/"+id+"/spaces", nil)
		}
		all := idsOf(w.collections(t, w.admin, org, "").Items)
		for _, id := range []string{c.Id, nested.Id, deeper.Id} {
			if w.has(all, id) {
				t.Fatalf("deleted collection %s still listed: %v", id, all)
			}
		}
		l := w.orgSpaces(t, w.admin, org, "")
		ids := idsOf(l.Items)
		if l.Count != before-3 || w.has(ids, s1.Id) || w.has(ids, s2.Id) || w.has(ids, s3.Id) || !w.has(ids, outside.Id) {
			t.Fatalf("org spaces after delete: count %d (was %d), %v", l.Count, before, ids)
		}
		for _, s := range []gen.Space{s1, s2, s3} {
			got := w.spaceAs(t, w.admin, s.Id)
			if got.DeletedAt == nil {
				t.Fatalf("space %s of a deleted collection has no deletedAt", s.Title)
			}
		}

		// Restored, they come back at the top level, their collection being gone.
		restored := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "POST", "/spaces/"+s2.Id+"/restore", nil)
		if restored.DeletedAt != nil || restored.Parent != nil {
			t.Fatalf("restored: deletedAt %v, parent %v", restored.DeletedAt, restored.Parent)
		}
		if ids := idsOf(w.orgSpaces(t, w.admin, org, "").Items); !w.has(ids, s2.Id) || w.has(ids, s1.Id) {
			t.Fatalf("org spaces after restoring one: %v", ids)
		}
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s1.Id+"/restore", nil)
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s3.Id+"/restore", nil)
		if l := w.orgSpaces(t, w.admin, org, ""); l.Count != before {
			t.Fatalf("org spaces after restoring all: %d, want %d", l.Count, before)
		}
	})

	t.Run("NestedCollectionAloneLeavesItsParent", func(t *testing.T) {
		parent := w.MustCreateCollection(t, w.admin, org, "Parent", "")
		child := w.MustCreateCollection(t, w.admin, org, "Child", parent.Id)
		kept := w.MustCreateSpace(t, w.admin, org, "Kept", parent.Id)
		gone := w.MustCreateSpace(t, w.admin, org, "Gone", child.Id)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/collections/"+child.Id, nil)
		w.collection(t, w.admin, parent.Id)
		wantIDs(t, "parent's spaces", idsOf(w.spacesIn(t, w.admin, parent.Id, "").Items), kept.Id)
		if w.spaceAs(t, w.admin, gone.Id).DeletedAt == nil {
			t.Fatal("space of the deleted child is not deleted")
		}
	})

	t.Run("UnknownIdIs204", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/collections/nosuchcollection", nil)
	})

	t.Run("DeletingTwiceIs204", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Twice", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/collections/"+c.Id, nil)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/collections/"+c.Id, nil)
	})

	t.Run("ReadMemberIs403AndNothingIsDeleted", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Protected", "")
		s := w.MustCreateSpace(t, w.admin, org, "Protected space", c.Id)
		w.Expect(t, http.StatusForbidden, w.reader, "DELETE", "/collections/"+c.Id, nil)
		w.collection(t, w.admin, c.Id)
		if w.spaceAs(t, w.admin, s.Id).DeletedAt != nil {
			t.Fatal("space deleted by a refused delete")
		}
	})

	t.Run("OutsiderIsAnsweredAsForAnUnknownIdAndNothingIsDeleted", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Not theirs", "")
		s := w.MustCreateSpace(t, w.admin, org, "Not theirs either", c.Id)
		// The answer must not reveal that the collection exists: it is what an unknown id gets.
		unknown := w.Do(t, w.outsider, "DELETE", "/collections/nosuchcollection", nil)
		r := w.Do(t, w.outsider, "DELETE", "/collections/"+c.Id, nil)
		if r.Status != unknown.Status || string(r.Body) != string(unknown.Body) {
			t.Fatalf("outsider's delete answered %d %s, an unknown id %d %s", r.Status, r.Body, unknown.Status, unknown.Body)
		}
		w.collection(t, w.admin, c.Id)
		wantIDs(t, "collection's spaces", idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), s.Id)
	})
}
