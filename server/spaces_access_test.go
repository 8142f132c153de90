package server_test

import (
	"net/http"
	"testing"
)

func TestSpacePermissionsFollowRoles(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id

	t.Run("ReadMemberReadsButCannotWrite", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Plain", "")
		c := w.MustCreateCollection(t, w.admin, org, "Plain collection", "")
		w.spaceAs(t, w.reader, s.Id)
		w.collection(t, w.reader, c.Id)
		for _, req := range []struct {
			method, path string
			body         any
		}{
			{"PATCH", "/spaces/" + s.Id, map[string]any{"title": "X"}},
			{"DELETE", "/spaces/" + s.Id, nil},
			{"POST", "/spaces/" + s.Id + "/move", map[string]any{"parent": c.Id}},
			{"POST", "/spaces/" + s.Id + "/duplicate", nil},
			{"POST", "/orgs/" + org + "/spaces", map[string]any{"title": "X"}},
			{"PATCH", "/collections/" + c.Id, map[string]any{"title": "X"}},
			{"DELETE", "/collections/" + c.Id, nil},
			{"POST", "/collections/" + c.Id + "/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": s.Id}}}},
			{"POST", "/orgs/" + org + "/collections", map[string]any{"title": "X"}},
		} {
			w.Expect(t, http.StatusForbidden, w.reader, req.method, req.path, req.body)
		}
		if got := w.spaceAs(t, w.admin, s.Id); got.Title != "Plain" || got.DeletedAt != nil || got.Parent != nil {
			t.Fatalf("space after refused writes: %+v", got)
		}
		if got := w.collection(t, w.admin, c.Id); got.Title != "Plain collection" {
			t.Fatalf("collection after refused writes: %+v", got)
		}
	})

	t.Run("SpaceDefaultLevelEditGivesAReadMemberEdit", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Open", "")
		w.updateSpace(t, s.Id, map[string]any{"defaultLevel": "edit"})
		p := w.spaceAs(t, w.reader, s.Id).Permissions
		if !p.View || !p.Edit || !p.Comment || !p.Merge || p.Review || p.Admin {
			t.Fatalf("read member on an edit-level space: %+v", p)
		}
		// Edit is not admin: the read member still cannot change the space's settings.
		w.Expect(t, http.StatusForbidden, w.reader, "PATCH", "/spaces/"+s.Id, map[string]any{"title": "X"})
	})

	t.Run("InheritTakesTheLevelOfTheCollectionsAbove", func(t *testing.T) {
		top := w.MustCreateCollection(t, w.admin, org, "Top", "")
		mid := w.MustCreateCollection(t, w.admin, org, "Mid", top.Id)
		s := w.MustCreateSpace(t, w.admin, org, "Deep", mid.Id)
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+top.Id, map[string]any{"defaultLevel": "review"})
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+mid.Id, map[string]any{"defaultLevel": "inherit"})
		w.updateSpace(t, s.Id, map[string]any{"defaultLevel": "inherit"})
		if p := w.spaceAs(t, w.reader, s.Id).Permissions; !p.Review || !p.Edit || p.Admin {
			t.Fatalf("read member under a review-level collection: %+v", p)
		}
		// A null level in between stops the inheritance: members get no access from it.
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+mid.Id, map[string]any{"defaultLevel": nil})
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+s.Id, nil)
		// Moved out to the top level, the space inherits nothing.
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+mid.Id, map[string]any{"defaultLevel": "inherit"})
		w.wantStatus(t, w.moveSpace(t, s.Id, map[string]any{"parent": nil}), http.StatusOK)
		if p := w.spaceAs(t, w.reader, s.Id).Permissions; p.Edit || !p.View {
			t.Fatalf("read member on a top-level inheriting space: %+v", p)
		}
	})

	t.Run("GuestGetsNothingFromADefaultLevel", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Open to members", "")
		w.updateSpace(t, s.Id, map[string]any{"defaultLevel": "edit"})
		w.Expect(t, http.StatusNotFound, w.guest, "GET", "/spaces/"+s.Id, nil)
	})
}

// TestAnotherOrganizationsContentIsInvisible checks every collection and space operation as a
// user of another organization: each answers as for an id that does not exist, and nothing
// changes.
func TestAnotherOrganizationsContentIsInvisible(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Private", "")
	s := w.MustCreateSpace(t, w.admin, org, "Private space", c.Id)
	deleted := w.MustCreateSpace(t, w.admin, org, "Deleted", "")
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+deleted.Id, nil)
	theirs := w.MustCreateCollection(t, w.outsider, w.other.Id, "Theirs", "")

	for _, req := range []struct {
		name, method, path string
		body               any
	}{
		{"GetCollection", "GET", "/collections/" + c.Id, nil},
		{"UpdateCollection", "PATCH", "/collections/" + c.Id, map[string]any{"title": "Mine"}},
		{"ListSpacesInCollection", "GET", "/collections/" + c.Id + "/spaces", nil},
		{"MoveCollection", "POST", "/collections/" + c.Id + "/move", map[string]any{"parent": theirs.Id}},
		{"TransferCollection", "POST", "/collections/" + c.Id + "/transfer", map[string]any{"organization": w.other.Id}},
		{"ListCollections", "GET", "/orgs/" + org + "/collections", nil},
		{"CreateCollection", "POST", "/orgs/" + org + "/collections", map[string]any{"title": "Mine"}},
		{"GetSpace", "GET", "/spaces/" + s.Id, nil},
		{"GetDeletedSpace", "GET", "/spaces/" + deleted.Id, nil},
		{"UpdateSpace", "PATCH", "/spaces/" + s.Id, map[string]any{"title": "Mine"}},
		{"DuplicateSpace", "POST", "/spaces/" + s.Id + "/duplicate", nil},
		{"RestoreSpace", "POST", "/spaces/" + deleted.Id + "/restore", nil},
		{"MoveSpace", "POST", "/spaces/" + s.Id + "/move", map[string]any{"parent": nil}},
		{"TransferSpace", "POST", "/spaces/" + s.Id + "/transfer", map[string]any{"organization": w.other.Id}},
		{"ListSpaces", "GET", "/orgs/" + org + "/spaces", nil},
		{"CreateSpace", "POST", "/orgs/" + org + "/spaces", map[string]any{"title": "Mine"}},
	} {
		t.Run(req.name+"Is404", func(t *testing.T) {
			w.Expect(t, http.StatusNotFound, w.outsider, req.method, req.path, req.body)
		})
	}
	// Deleting what one cannot see answers what deleting nothing answers, and deletes nothing.
	t.Run("DeleteSpaceAnswersAsForAnUnknownId", func(t *testing.T) {
		unknown := w.Do(t, w.outsider, "DELETE", "/spaces/nosuchspace", nil)
		r := w.Do(t, w.outsider, "DELETE", "/spaces/"+s.Id, nil)
		if r.Status != unknown.Status || string(r.Body) != string(unknown.Body) {
			t.Fatalf("answered %d %s, an unknown id %d %s", r.Status, r.Body, unknown.Status, unknown.Body)
		}
	})
	t.Run("DeleteCollectionAnswersAsForAnUnknownId", func(t *testing.T) {
		unknown := w.Do(t, w.outsider, "DELETE", "/collections/nosuchcollection", nil)
		r := w.Do(t, w.outsider, "DELETE", "/collections/"+c.Id, nil)
		if r.Status != unknown.Status || string(r.Body) != string(unknown.Body) {
			t.Fatalf("answered %d %s, an unknown id %d %s", r.Status, r.Body, unknown.Status, unknown.Body)
		}
	})

	t.Run("NothingChangedForTheOwner", func(t *testing.T) {
		gotC := w.collection(t, w.admin, c.Id)
		if gotC.Title != "Private" || gotC.Organization != org || gotC.Parent != nil {
			t.Fatalf("collection %+v", gotC)
		}
		gotS := w.spaceAs(t, w.admin, s.Id)
		if gotS.Title != "Private space" || gotS.Organization != org || gotS.Parent == nil || *gotS.Parent != c.Id || gotS.DeletedAt != nil {
			t.Fatalf("space %+v", gotS)
		}
		if gotD := w.spaceAs(t, w.admin, deleted.Id); gotD.DeletedAt == nil {
			t.Fatal("deleted space restored")
		}
		wantIDs(t, "org spaces", idsOf(w.orgSpaces(t, w.admin, org, "").Items), s.Id)
		wantIDs(t, "org collections", idsOf(w.collections(t, w.admin, org, "").Items), c.Id)
		wantIDs(t, "their collections", idsOf(w.collections(t, w.outsider, w.other.Id, "").Items), theirs.Id)
		if l := w.orgSpaces(t, w.outsider, w.other.Id, ""); l.Count != 0 {
			t.Fatalf("their organization has %d spaces", l.Count)
		}
	})
}

// TestContentOperationsNeedAToken checks that every collection and space operation answers 401
// without a token.
func TestContentOperationsNeedAToken(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "C", "")
	s := w.MustCreateSpace(t, w.admin, org, "S", c.Id)
	for _, req := range []struct{ method, path string }{
		{"GET", "/orgs/" + org + "/collections"},
		{"POST", "/orgs/" + org + "/collections"},
		{"GET", "/collections/" + c.Id},
		{"PATCH", "/collections/" + c.Id},
		{"DELETE", "/collections/" + c.Id},
		{"GET", "/collections/" + c.Id + "/spaces"},
		{"POST", "/collections/" + c.Id + "/move"},
		{"POST", "/collections/" + c.Id + "/transfer"},
		{"GET", "/orgs/" + org + "/spaces"},
		{"POST", "/orgs/" + org + "/spaces"},
		{"GET", "/spaces/" + s.Id},
		{"PATCH", "/spaces/" + s.Id},
		{"DELETE", "/spaces/" + s.Id},
		{"POST", "/spaces/" + s.Id + "/duplicate"},
		{"POST", "/spaces/" + s.Id + "/restore"},
		{"POST", "/spaces/" + s.Id + "/move"},
		{"POST", "/spaces/" + s.Id + "/transfer"},
	} {
		r := w.Expect(t, http.StatusUnauthorized, nil, req.method, req.path, nil)
		if r.ErrorMessage(t) == "" {
			t.Fatalf("%s %s: 401 without a message", req.method, req.path)
		}
	}
	if got := w.spaceAs(t, w.admin, s.Id); got.DeletedAt != nil {
		t.Fatal("space deleted without a token")
	}
	w.collection(t, w.admin, c.Id)
}

// A collection's default level can grant the create role: a read member then creates inside that
// collection (as its permissions.create says), but still not at the organization's top level.
func TestCreateInsideACollectionThatGrantsCreate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ts := w.testServer
	open := ts.MustCreateCollection(t, w.admin, w.org.Id, "Open", "")
	ts.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+open.Id, map[string]any{"defaultLevel": "create"})

	c := ts.Expect(t, http.StatusOK, w.reader, "GET", "/collections/"+open.Id, nil).Map(t)
	if c["permissions"].(map[string]any)["create"] != true {
		t.Fatalf("permissions = %v", c["permissions"])
	}
	ts.Expect(t, http.StatusCreated, w.reader, "POST", "/orgs/"+w.org.Id+"/spaces", map[string]any{"title": "Notes", "parent": open.Id})
	ts.Expect(t, http.StatusCreated, w.reader, "POST", "/orgs/"+w.org.Id+"/collections", map[string]any{"title": "Sub", "parent": open.Id})
	ts.Expect(t, http.StatusForbidden, w.reader, "POST", "/orgs/"+w.org.Id+"/spaces", map[string]any{"title": "Top"})
	ts.Expect(t, http.StatusForbidden, w.reader, "POST", "/orgs/"+w.org.Id+"/collections", map[string]any{"title": "Top"})
}
