package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// Collections and spaces both live in a collection or at an organization's top level, and are
// created, updated, read, moved (within an organization) and transferred (to another) alike: what
// they share is tested once over both (TestPlaceable, readRefusals). What only one of them does
// stays in its own tests (collections*_test.go, spaces*_test.go).

// placeable is collections or spaces.
type placeable struct {
	kind   string // "collection" or "space": the path's resource and a position pointer's type
	create func(w *world, t testing.TB, title, parent string) string
	count  func(w *world, t *testing.T, u *testUser, orgID string) int // how many an organization lists
}

var placeables = []placeable{
	{
		kind: "collection",
		create: func(w *world, t testing.TB, title, parent string) string {
			return w.MustCreateCollection(t, w.admin, w.org.Id, title, parent).Id
		},
		count: func(w *world, t *testing.T, u *testUser, orgID string) int {
			return w.collections(t, u, orgID, "").Count
		},
	},
	{
		kind: "space",
		create: func(w *world, t testing.TB, title, parent string) string {
			return w.MustCreateSpace(t, w.admin, w.org.Id, title, parent).Id
		},
		count: func(w *world, t *testing.T, u *testUser, orgID string) int { return w.orgSpaces(t, u, orgID, "").Count },
	},
}

// forEachPlaceable runs f as a parallel subtest for collections and one for spaces.
func forEachPlaceable(t *testing.T, f func(t *testing.T, p placeable)) {
	t.Parallel()
	for _, p := range placeables {
		t.Run(p.kind, func(t *testing.T) {
			t.Parallel()
			f(t, p)
		})
	}
}

// path is the path of one of them (with suffix).
func (p placeable) path(id string, suffix ...string) string {
	s := "/" + p.kind + "s/" + id
	for _, x := range suffix {
		s += x
	}
	return s
}

// placementWorld is a world with a collection, holder, for the placeable under test to live in.
type placementWorld struct {
	*world
	p      placeable
	holder string
}

func newPlacementWorld(t *testing.T, p placeable) *placementWorld {
	t.Helper()
	w := newWorld(t)
	return &placementWorld{world: w, p: p, holder: w.MustCreateCollection(t, w.admin, w.org.Id, "Holder", "").Id}
}

// fresh makes one in holder.
func (pw *placementWorld) fresh(t *testing.T, title string) string {
	t.Helper()
	return pw.p.create(pw.world, t, title, pw.holder)
}

// stays fails unless it is still in holder in the world's organization.
func (pw *placementWorld) stays(t *testing.T, id string) {
	t.Helper()
	var got struct {
		Organization string
		Parent       *string
	}
	pw.Expect(t, http.StatusOK, pw.admin, "GET", pw.p.path(id), nil).Decode(t, &got)
	if got.Organization != pw.org.Id || got.Parent == nil || *got.Parent != pw.holder {
		t.Fatalf("%s %s is now in organization %s, parent %v; want %s, %s", pw.p.kind, id, got.Organization, got.Parent, pw.org.Id, pw.holder)
	}
}

// refused sends a request as u, which must answer status (with a message containing each part);
// it then must still be in holder.
func (pw *placementWorld) refused(t *testing.T, id string, status int, u *testUser, op string, body map[string]any, parts ...string) {
	t.Helper()
	wantMessage(t, pw.Expect(t, status, u, "POST", pw.p.path(id, "/"+op), body), parts...)
	pw.stays(t, id)
}

// TestPlaceable runs what collections and spaces share, on one world for each.
func TestPlaceable(t *testing.T) {
	forEachPlaceable(t, func(t *testing.T, p placeable) {
		w := newPlacementWorld(t, p)
		t.Run("Create", func(t *testing.T) { placeableCreate(t, w) })
		t.Run("UpdateRefusals", func(t *testing.T) { placeableUpdateRefusals(t, w) })
		t.Run("MoveRefusals", func(t *testing.T) { placeableMoveRefusals(t, w) })
		t.Run("TransferRefusals", func(t *testing.T) { placeableTransferRefusals(t, w) })
	})
}

// theirsUntouched fails unless refused leaves the outsider's organization with as many
// collections and spaces as before, and their collection theirs without spaces.
func (pw *placementWorld) theirsUntouched(t *testing.T, theirs string, refused func()) {
	t.Helper()
	collections, spaces := pw.collections(t, pw.outsider, pw.other.Id, "").Count, pw.orgSpaces(t, pw.outsider, pw.other.Id, "").Count
	refused()
	if n := pw.collections(t, pw.outsider, pw.other.Id, "").Count; n != collections {
		t.Fatalf("their organization has %d collections, %d before", n, collections)
	}
	if n := pw.orgSpaces(t, pw.outsider, pw.other.Id, "").Count; n != spaces {
		t.Fatalf("their organization has %d spaces, %d before", n, spaces)
	}
	if l := pw.spacesIn(t, pw.outsider, theirs, ""); l.Count != 0 {
		t.Fatalf("their collection has %d spaces", l.Count)
	}
}

func placeableMoveRefusals(t *testing.T, w *placementWorld) {
	p := w.p
	item := w.fresh(t, "Item")
	target := w.MustCreateCollection(t, w.admin, w.org.Id, "Target", "")

	t.Run("UnknownParentIs400", func(t *testing.T) {
		w.refused(t, item, http.StatusBadRequest, w.admin, "move", map[string]any{"parent": "nosuchcollection"}, "parent")
	})
	t.Run("ParentInAnotherOrganizationIs400", func(t *testing.T) {
		theirs := w.MustCreateCollection(t, w.outsider, w.other.Id, "Theirs", "")
		w.theirsUntouched(t, theirs.Id, func() {
			w.refused(t, item, http.StatusBadRequest, w.admin, "move", map[string]any{"parent": theirs.Id})
		})
	})
	t.Run("PointerWithoutIdIs400", func(t *testing.T) {
		for _, side := range []string{"before", "after"} {
			body := map[string]any{"position": map[string]any{side: map[string]any{"type": p.kind}}}
			w.refused(t, item, http.StatusBadRequest, w.admin, "move", body, "position."+side)
		}
	})
	t.Run("ReadMemberIs403", func(t *testing.T) {
		for _, parent := range []any{nil, target.Id} {
			w.refused(t, item, http.StatusForbidden, w.reader, "move", map[string]any{"parent": parent})
		}
	})
	t.Run("OutsiderIs404", func(t *testing.T) {
		w.refused(t, item, http.StatusNotFound, w.outsider, "move", map[string]any{"parent": nil})
	})
	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "POST", p.path("nosuch"+p.kind, "/move"), map[string]any{"parent": nil})
	})
}

func placeableTransferRefusals(t *testing.T, w *placementWorld) {
	p := w.p
	// The admin also administers a second organization, and is a create member of a third.
	second := w.MustCreateOrg(t, w.admin, "Acme Labs")
	carol := w.MustCreateUser(t, "carol@third.test", "Carol")
	third := w.MustCreateOrg(t, carol, "Third")
	w.MustAddMember(t, carol, third.Id, w.admin, "create")
	to := func(orgID string) map[string]any { return map[string]any{"organization": orgID} }

	t.Run("SameOrganizationIs400", func(t *testing.T) {
		w.refused(t, w.fresh(t, "Home"), http.StatusBadRequest, w.admin, "transfer", to(w.org.Id), "organization")
	})
	t.Run("OrganizationWhereCallerIsNotAdminIs403", func(t *testing.T) {
		w.refused(t, w.fresh(t, "Not there"), http.StatusForbidden, w.admin, "transfer", to(third.Id))
		if n := p.count(w.world, t, carol, third.Id); n != 0 {
			t.Fatalf("third organization has %d %ss", n, p.kind)
		}
	})
	t.Run("OrganizationCallerIsNotInIs400", func(t *testing.T) {
		before := p.count(w.world, t, w.outsider, w.other.Id)
		w.refused(t, w.fresh(t, "Not theirs"), http.StatusBadRequest, w.admin, "transfer", to(w.other.Id), "organization")
		if n := p.count(w.world, t, w.outsider, w.other.Id); n != before {
			t.Fatalf("other organization has %d %ss, %d before", n, p.kind, before)
		}
	})
	t.Run("UnknownOrganizationIs400", func(t *testing.T) {
		w.refused(t, w.fresh(t, "Nowhere"), http.StatusBadRequest, w.admin, "transfer", to("nosuchorg"))
	})
	t.Run("ReadMemberIs403", func(t *testing.T) {
		w.refused(t, w.fresh(t, "Kept"), http.StatusForbidden, w.reader, "transfer", to(second.Id))
	})
	t.Run("OutsiderIs404", func(t *testing.T) {
		w.refused(t, w.fresh(t, "Coveted"), http.StatusNotFound, w.outsider, "transfer", to(w.other.Id))
	})
}

// readRefusals runs the refusals a read of a collection or space shares: a guest member granted
// nothing is answered 404 with a message (as if it did not exist), an unknown id 404, an outsider 404 in the very words an unknown id
// gets, and a request without a token 401.
func (w *world) readRefusals(t *testing.T, p placeable, id string) {
	t.Helper()
	path, unknown := p.path(id), p.path("nosuch"+p.kind)
	t.Run("GuestMemberIs404", func(t *testing.T) {
		if wantMessage(t, w.Expect(t, http.StatusNotFound, w.guest, "GET", path, nil)) == "" {
			t.Fatal("404 without a message")
		}
	})
	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "GET", unknown, nil)
	})
	t.Run("OutsiderIs404LikeAnUnknownId", func(t *testing.T) {
		r := wantMessage(t, w.Expect(t, http.StatusNotFound, w.outsider, "GET", path, nil))
		if u := wantMessage(t, w.Expect(t, http.StatusNotFound, w.outsider, "GET", unknown, nil)); r != u {
			t.Fatalf("outsider told %q, unknown id told %q", r, u)
		}
	})
	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "GET", path, nil)
	})
}

func placeableCreate(t *testing.T, w *placementWorld) {
	p := w.p
	path := "/orgs/" + w.org.Id + "/" + p.kind + "s"
	// refused creates as u, which must be answered status (with a message containing each
	// part) and create nothing.
	refused := func(t *testing.T, status int, u *testUser, body map[string]any, parts ...string) {
		t.Helper()
		before := p.count(w.world, t, w.admin, w.org.Id)
		r := w.Expect(t, status, u, "POST", path, body)
		if u != nil {
			wantMessage(t, r, parts...)
		}
		if after := p.count(w.world, t, w.admin, w.org.Id); after != before {
			t.Fatalf("%ss %d -> %d", p.kind, before, after)
		}
	}

	t.Run("TitleOf51CharactersIs400NamingTitle", func(t *testing.T) {
		refused(t, http.StatusBadRequest, w.admin, map[string]any{"title": strings.Repeat("t", 51)}, "title")
	})
	t.Run("NoBodyCreatesUntitled", func(t *testing.T) {
		if got := sendJSON[struct{ Title string }](t, w.testServer, http.StatusCreated, w.admin, "POST", path, nil); got.Title != "Untitled" {
			t.Fatalf("title = %q", got.Title)
		}
	})
	t.Run("UnknownParentIs400", func(t *testing.T) {
		refused(t, http.StatusBadRequest, w.admin, map[string]any{"title": "Lost", "parent": "nosuchcollection"}, "parent")
	})
	t.Run("ParentInAnotherOrganizationIs400", func(t *testing.T) {
		theirs := w.MustCreateCollection(t, w.outsider, w.other.Id, "Theirs", "")
		w.theirsUntouched(t, theirs.Id, func() {
			refused(t, http.StatusBadRequest, w.admin, map[string]any{"title": "Sneaky", "parent": theirs.Id}, "parent")
		})
	})
	t.Run("ReadMemberIs403", func(t *testing.T) {
		refused(t, http.StatusForbidden, w.reader, map[string]any{"title": "Mine"})
	})
	t.Run("OutsiderIs404", func(t *testing.T) {
		refused(t, http.StatusNotFound, w.outsider, map[string]any{"title": "Mine"})
	})
	t.Run("NoTokenIs401", func(t *testing.T) {
		refused(t, http.StatusUnauthorized, nil, map[string]any{"title": "Mine"})
	})
}

func placeableUpdateRefusals(t *testing.T, w *placementWorld) {
	p := w.p
	id := p.create(w.world, t, "Kept", "")
	// refused updates as u, which must be answered status (with a message containing each
	// part) and leave the title as it was.
	refused := func(t *testing.T, status int, u *testUser, body map[string]any, parts ...string) {
		t.Helper()
		wantMessage(t, w.Expect(t, status, u, "PATCH", p.path(id), body), parts...)
		if got := getJSON[struct{ Title string }](t, w.testServer, w.admin, p.path(id)); got.Title != "Kept" {
			t.Fatalf("title = %q", got.Title)
		}
	}

	t.Run("TitleOf51CharactersIs400", func(t *testing.T) {
		refused(t, http.StatusBadRequest, w.admin, map[string]any{"title": strings.Repeat("t", 51)}, "title")
	})
	t.Run("UnknownDefaultLevelIs400", func(t *testing.T) {
		refused(t, http.StatusBadRequest, w.admin, map[string]any{"defaultLevel": "owner"}, "defaultLevel")
	})
	t.Run("ReadMemberIs403", func(t *testing.T) {
		refused(t, http.StatusForbidden, w.reader, map[string]any{"title": "Hijacked"})
	})
	t.Run("OutsiderIs404", func(t *testing.T) {
		refused(t, http.StatusNotFound, w.outsider, map[string]any{"title": "Hijacked"})
	})
	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "PATCH", p.path("nosuch"+p.kind), map[string]any{"title": "X"})
	})
}
