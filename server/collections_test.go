package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
)

// contentWorld is the cast of the collection and space tests: an organization administered by
// admin, with a read member and a guest, and an outsider who administers another organization.
type contentWorld struct {
	*testServer
	admin, reader, guest, outsider *testUser
	org, other                     gen.Organization
}

func newContentWorld(t *testing.T) *contentWorld {
	t.Helper()
	ts := newTestServer(t)
	w := &contentWorld{
		testServer: ts,
		admin:      ts.MustCreateUser(t, "ada@acme.test", "Ada"),
		reader:     ts.MustCreateUser(t, "rita@readers.test", "Rita"),
		guest:      ts.MustCreateUser(t, "gus@guests.test", "Gus"),
		outsider:   ts.MustCreateUser(t, "otto@other.test", "Otto"),
	}
	w.org = ts.MustCreateOrg(t, w.admin, "Acme")
	ts.MustAddMember(t, w.admin, w.org.Id, w.reader, "read")
	ts.MustAddMember(t, w.admin, w.org.Id, w.guest, "")
	w.other = ts.MustCreateOrg(t, w.outsider, "Other Co")
	return w
}

// collection reads a collection as u, which must answer 200.
func (w *contentWorld) collection(t *testing.T, u *testUser, id string) gen.Collection {
	t.Helper()
	var c gen.Collection
	w.Expect(t, http.StatusOK, u, "GET", "/collections/"+id, nil).Decode(t, &c)
	return c
}

// space reads a space as u, which must answer 200.
func (w *contentWorld) space(t *testing.T, u *testUser, id string) gen.Space {
	t.Helper()
	var sp gen.Space
	w.Expect(t, http.StatusOK, u, "GET", "/spaces/"+id, nil).Decode(t, &sp)
	return sp
}

// collections reads one page of an organization's collections.
func (w *contentWorld) collections(t *testing.T, u *testUser, orgID, query string) gen.CollectionList {
	t.Helper()
	var l gen.CollectionList
	w.Expect(t, http.StatusOK, u, "GET", "/orgs/"+orgID+"/collections"+query, nil).Decode(t, &l)
	return l
}

// spacesIn reads one page of the spaces of a collection.
func (w *contentWorld) spacesIn(t *testing.T, u *testUser, collectionID, query string) gen.SpaceList {
	t.Helper()
	var l gen.SpaceList
	w.Expect(t, http.StatusOK, u, "GET", "/collections/"+collectionID+"/spaces"+query, nil).Decode(t, &l)
	return l
}

// orgSpaces reads one page of the spaces of an organization.
func (w *contentWorld) orgSpaces(t *testing.T, u *testUser, orgID, query string) gen.SpaceList {
	t.Helper()
	var l gen.SpaceList
	w.Expect(t, http.StatusOK, u, "GET", "/orgs/"+orgID+"/spaces"+query, nil).Decode(t, &l)
	return l
}

// allCollectionIDs walks every page of a collection list and returns the ids in order, checking
// that each page holds at most limit items and reports the same total, which is what was seen.
func (w *contentWorld) allCollectionIDs(t *testing.T, u *testUser, orgID, query string, limit int) []string {
	t.Helper()
	q := w.query(t, query)
	q.Set("limit", strconv.Itoa(limit))
	var ids []string
	count := -1
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("collection paging does not end")
		}
		l := w.collections(t, u, orgID, "?"+q.Encode())
		if len(l.Items) > limit {
			t.Fatalf("page of %d items, limit %d", len(l.Items), limit)
		}
		if count >= 0 && l.Count != count {
			t.Fatalf("count %d on page %d, %d before", l.Count, pages, count)
		}
		count = l.Count
		ids = append(ids, w.collectionIDs(l.Items)...)
		if l.Next == nil {
			break
		}
		q.Set("page", l.Next.Page)
	}
	if len(ids) != count {
		t.Fatalf("count %d, but %d items listed", count, len(ids))
	}
	return ids
}

func (w *contentWorld) collectionIDs(items []gen.Collection) []string {
	ids := make([]string, 0, len(items))
	for _, c := range items {
		ids = append(ids, c.Id)
	}
	return ids
}

func (w *contentWorld) spaceIDs(items []gen.Space) []string {
	ids := make([]string, 0, len(items))
	for _, s := range items {
		ids = append(ids, s.Id)
	}
	return ids
}

// levelText shows a defaultLevel as it was on the wire: a role, "null", or "<absent>".
func (w *contentWorld) level(n nullable.Nullable[gen.DefaultLevel]) string {
	if !n.IsSpecified() {
		return "<absent>"
	}
	if n.IsNull() {
		return "null"
	}
	v, _ := n.Get()
	return string(v)
}

func (w *contentWorld) query(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(strings.TrimPrefix(q, "?"))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (w *contentWorld) wantIDs(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

func (w *contentWorld) wantMessage(t *testing.T, r *response, parts ...string) {
	t.Helper()
	msg := r.ErrorMessage(t)
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Fatalf("error message %q does not mention %q", msg, p)
		}
	}
}

func TestCreateCollection(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id

	t.Run("TitleOf50CharactersIsCreatedAtTopLevel", func(t *testing.T) {
		title := strings.Repeat("c", 50)
		var c gen.Collection
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/collections", map[string]any{"title": title}).Decode(t, &c)
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

	t.Run("TitleOf51CharactersIs400NamingTitle", func(t *testing.T) {
		before := w.collections(t, w.admin, org, "").Count
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/collections",
			map[string]any{"title": strings.Repeat("c", 51)})
		w.wantMessage(t, r, "title")
		if after := w.collections(t, w.admin, org, "").Count; after != before {
			t.Fatalf("collections %d -> %d after a refused create", before, after)
		}
	})

	t.Run("NoBodyCreatesUntitled", func(t *testing.T) {
		var c gen.Collection
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/collections", nil).Decode(t, &c)
		if c.Title != "Untitled" {
			t.Fatalf("title = %q", c.Title)
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
		all := w.collectionIDs(w.collections(t, w.admin, org, "").Items)
		top := w.collectionIDs(w.collections(t, w.admin, org, "?nested=false").Items)
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
		if sp.Permissions != w.space(t, cora, sp.Id).Permissions || !sp.Permissions.Admin {
			t.Fatalf("space permissions answered %+v, re-read %+v", sp.Permissions, w.space(t, cora, sp.Id).Permissions)
		}
	})

	t.Run("UnknownParentIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/collections",
			map[string]any{"title": "Lost", "parent": "nosuchcollection"})
		w.wantMessage(t, r, "parent")
	})

	t.Run("ParentInAnotherOrganizationIs400", func(t *testing.T) {
		theirs := w.MustCreateCollection(t, w.outsider, w.other.Id, "Theirs", "")
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/collections",
			map[string]any{"title": "Sneaky", "parent": theirs.Id})
		w.wantMessage(t, r, "parent")
		if l := w.spacesIn(t, w.outsider, theirs.Id, ""); l.Count != 0 {
			t.Fatalf("their collection now has %d spaces", l.Count)
		}
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		before := w.collections(t, w.admin, org, "").Count
		w.Expect(t, http.StatusForbidden, w.reader, "POST", "/orgs/"+org+"/collections", map[string]any{"title": "Mine"})
		if after := w.collections(t, w.admin, org, "").Count; after != before {
			t.Fatalf("collections %d -> %d", before, after)
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", "/orgs/"+org+"/collections", map[string]any{"title": "Mine"})
	})

	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "POST", "/orgs/"+org+"/collections", map[string]any{"title": "Mine"})
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

func (w *contentWorld) has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestGetCollection(t *testing.T) {
	w := newContentWorld(t)
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

	t.Run("GuestMemberIs403", func(t *testing.T) {
		r := w.Expect(t, http.StatusForbidden, w.guest, "GET", "/collections/"+c.Id, nil)
		if r.ErrorMessage(t) == "" {
			t.Fatal("403 without a message")
		}
	})

	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/collections/nosuchcollection", nil)
	})

	t.Run("OutsiderIs404LikeAnUnknownId", func(t *testing.T) {
		r := w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/collections/"+c.Id, nil)
		unknown := w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/collections/nosuchcollection", nil)
		if r.ErrorMessage(t) != unknown.ErrorMessage(t) {
			t.Fatalf("outsider told %q, unknown id told %q", r.ErrorMessage(t), unknown.ErrorMessage(t))
		}
	})

	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "GET", "/collections/"+c.Id, nil)
	})
}

func TestUpdateCollection(t *testing.T) {
	w := newContentWorld(t)
	c := w.MustCreateCollection(t, w.admin, w.org.Id, "Guides", "")
	path := "/collections/" + c.Id
	patch := func(t *testing.T, body map[string]any) gen.Collection {
		t.Helper()
		var got gen.Collection
		w.Expect(t, http.StatusOK, w.admin, "PATCH", path, body).Decode(t, &got)
		return got
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

	t.Run("TitleOf51CharactersIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, map[string]any{"title": strings.Repeat("t", 51)})
		w.wantMessage(t, r, "title")
		if re := w.collection(t, w.admin, c.Id); re.Title != "Manuals" {
			t.Fatalf("title changed to %q by a refused update", re.Title)
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
		w.wantMessage(t, r, "description")
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
		patch(t, map[string]any{"defaultLevel": nil})
		if p := w.collection(t, w.reader, c.Id).Permissions; !p.View || p.Create {
			t.Fatalf("read member on a no-level collection: %+v", p)
		}
	})

	t.Run("UnknownDefaultLevelIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, map[string]any{"defaultLevel": "owner"})
		w.wantMessage(t, r, "defaultLevel")
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.reader, "PATCH", path, map[string]any{"title": "Hijacked"})
		if re := w.collection(t, w.admin, c.Id); re.Title != "Renamed" {
			t.Fatalf("title = %q", re.Title)
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "PATCH", path, map[string]any{"title": "Hijacked"})
		if re := w.collection(t, w.admin, c.Id); re.Title != "Renamed" {
			t.Fatalf("title = %q", re.Title)
		}
	})

	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "PATCH", "/collections/nosuchcollection", map[string]any{"title": "X"})
	})
}

func TestDeleteCollection(t *testing.T) {
	w := newContentWorld(t)
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
		all := w.collectionIDs(w.collections(t, w.admin, org, "").Items)
		for _, id := range []string{c.Id, nested.Id, deeper.Id} {
			if w.has(all, id) {
				t.Fatalf("deleted collection %s still listed: %v", id, all)
			}
		}
		l := w.orgSpaces(t, w.admin, org, "")
		ids := w.spaceIDs(l.Items)
		if l.Count != before-3 || w.has(ids, s1.Id) || w.has(ids, s2.Id) || w.has(ids, s3.Id) || !w.has(ids, outside.Id) {
			t.Fatalf("org spaces after delete: count %d (was %d), %v", l.Count, before, ids)
		}
		for _, s := range []gen.Space{s1, s2, s3} {
			got := w.space(t, w.admin, s.Id)
			if got.DeletedAt == nil {
				t.Fatalf("space %s of a deleted collection has no deletedAt", s.Title)
			}
		}

		// Restored, they come back at the top level, their collection being gone.
		var restored gen.Space
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s2.Id+"/restore", nil).Decode(t, &restored)
		if restored.DeletedAt != nil || restored.Parent != nil {
			t.Fatalf("restored: deletedAt %v, parent %v", restored.DeletedAt, restored.Parent)
		}
		if ids := w.spaceIDs(w.orgSpaces(t, w.admin, org, "").Items); !w.has(ids, s2.Id) || w.has(ids, s1.Id) {
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
		w.wantIDs(t, "parent's spaces", w.spaceIDs(w.spacesIn(t, w.admin, parent.Id, "").Items), kept.Id)
		if w.space(t, w.admin, gone.Id).DeletedAt == nil {
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
		if w.space(t, w.admin, s.Id).DeletedAt != nil {
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
		w.wantIDs(t, "collection's spaces", w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), s.Id)
	})
}

func TestListCollectionsInOrganization(t *testing.T) {
	w := newContentWorld(t)
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
		w.wantIDs(t, "collections", w.collectionIDs(l.Items), a.Id, a1.Id, b.Id, a2.Id, c.Id)
	})

	t.Run("NestedFalseListsOnlyTopLevel", func(t *testing.T) {
		l := w.collections(t, w.admin, org, "?nested=false")
		if l.Count != 3 {
			t.Fatalf("count %d, want 3", l.Count)
		}
		w.wantIDs(t, "top-level collections", w.collectionIDs(l.Items), a.Id, b.Id, c.Id)
	})

	t.Run("PagesOfOne", func(t *testing.T) {
		first := w.collections(t, w.admin, org, "?limit=1")
		if len(first.Items) != 1 || first.Count != 5 || first.Next == nil || first.Next.Page == "" {
			t.Fatalf("first page: %d items, count %d, next %v", len(first.Items), first.Count, first.Next)
		}
		second := w.collections(t, w.admin, org, "?limit=1&page="+url.QueryEscape(first.Next.Page))
		if len(second.Items) != 1 || second.Items[0].Id != a1.Id || second.Count != 5 {
			t.Fatalf("second page: %v, count %d", w.collectionIDs(second.Items), second.Count)
		}
		w.wantIDs(t, "all pages", w.allCollectionIDs(t, w.admin, org, "", 1), a.Id, a1.Id, b.Id, a2.Id, c.Id)
		w.wantIDs(t, "all top-level pages", w.allCollectionIDs(t, w.admin, org, "?nested=false", 1), a.Id, b.Id, c.Id)
		w.wantIDs(t, "pages of two", w.allCollectionIDs(t, w.admin, org, "", 2), a.Id, a1.Id, b.Id, a2.Id, c.Id)
	})

	t.Run("LastPageHasNoNext", func(t *testing.T) {
		l := w.collections(t, w.admin, org, "?limit=5")
		if len(l.Items) != 5 || l.Next != nil {
			t.Fatalf("%d items, next %v", len(l.Items), l.Next)
		}
	})

	t.Run("BadCursorIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/orgs/"+org+"/collections?page=notacursor", nil)
		w.wantMessage(t, r, "page")
	})

	t.Run("LimitOver1000Is400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/orgs/"+org+"/collections?limit=1001", nil)
		w.wantMessage(t, r, "limit")
	})

	t.Run("ReadMemberSeesThemWithReadPermissions", func(t *testing.T) {
		l := w.collections(t, w.reader, org, "")
		w.wantIDs(t, "reader's list", w.collectionIDs(l.Items), a.Id, a1.Id, b.Id, a2.Id, c.Id)
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
			t.Fatalf("guest sees count %d, %v", l.Count, w.collectionIDs(l.Items))
		}
	})

	t.Run("AnotherOrganizationsCollectionsAreNotListed", func(t *testing.T) {
		if ids := w.collectionIDs(w.collections(t, w.admin, org, "").Items); w.has(ids, theirs.Id) {
			t.Fatalf("list %v includes the other organization's collection", ids)
		}
		w.wantIDs(t, "their list", w.collectionIDs(w.collections(t, w.outsider, w.other.Id, "").Items), theirs.Id)
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/orgs/"+org+"/collections", nil)
	})

	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "GET", "/orgs/"+org+"/collections", nil)
	})
}

func TestListSpacesInCollection(t *testing.T) {
	w := newContentWorld(t)
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
		w.wantIDs(t, "spaces", w.spaceIDs(l.Items), s1.Id, s2.Id, s3.Id)
		for _, s := range l.Items {
			if s.Parent == nil || *s.Parent != c.Id {
				t.Fatalf("space %s has parent %v", s.Title, s.Parent)
			}
		}
		if w.has(w.spaceIDs(l.Items), top.Id) || w.has(w.spaceIDs(l.Items), inSub.Id) {
			t.Fatal("list includes a space not directly in the collection")
		}
	})

	t.Run("OrderFollowsMoves", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s3.Id+"/move",
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": s1.Id}}})
		w.wantIDs(t, "after moving three before one", w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), s3.Id, s1.Id, s2.Id)
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s3.Id+"/move",
			map[string]any{"position": map[string]any{"after": map[string]any{"type": "space", "space": s2.Id}}})
		w.wantIDs(t, "after moving three after two", w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), s1.Id, s2.Id, s3.Id)
		// Positions are shared with collections: a space can go before the nested collection.
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s1.Id+"/move",
			map[string]any{"position": map[string]any{"after": map[string]any{"type": "collection", "collection": sub.Id}}})
		w.wantIDs(t, "after moving one after the sub-collection", w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), s2.Id, s3.Id, s1.Id)
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
		w.wantIDs(t, "paged spaces", ids, s2.Id, s3.Id, s1.Id)
	})

	t.Run("DeletedSpacesAreNotListed", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s3.Id, nil)
		l := w.spacesIn(t, w.admin, c.Id, "")
		if l.Count != 2 {
			t.Fatalf("count %d", l.Count)
		}
		w.wantIDs(t, "spaces", w.spaceIDs(l.Items), s2.Id, s1.Id)
	})

	t.Run("ReadMemberCanList", func(t *testing.T) {
		w.wantIDs(t, "reader's list", w.spaceIDs(w.spacesIn(t, w.reader, c.Id, "").Items), s2.Id, s1.Id)
	})

	t.Run("GuestMemberIs403", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.guest, "GET", path, nil)
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

func TestMoveCollection(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id
	move := func(id string, body map[string]any) (int, *response) {
		r := w.Do(t, w.admin, "POST", "/collections/"+id+"/move", body)
		return r.Status, r
	}
	before := func(kind, id string) map[string]any {
		return map[string]any{"position": map[string]any{"before": map[string]any{"type": kind, kind: id}}}
	}
	after := func(kind, id string) map[string]any {
		return map[string]any{"position": map[string]any{"after": map[string]any{"type": kind, kind: id}}}
	}

	t.Run("IntoAnotherCollection", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "A", "")
		b := w.MustCreateCollection(t, w.admin, org, "B", "")
		inA := w.MustCreateSpace(t, w.admin, org, "In A", a.Id)
		var got gen.Collection
		w.Expect(t, http.StatusOK, w.admin, "POST", "/collections/"+a.Id+"/move", map[string]any{"parent": b.Id}).Decode(t, &got)
		if got.Parent == nil || *got.Parent != b.Id || got.Id != a.Id {
			t.Fatalf("moved: %+v", got)
		}
		if re := w.collection(t, w.admin, a.Id); re.Parent == nil || *re.Parent != b.Id {
			t.Fatalf("re-read parent %v", re.Parent)
		}
		if top := w.collectionIDs(w.collections(t, w.admin, org, "?nested=false").Items); w.has(top, a.Id) {
			t.Fatalf("moved collection still at top level: %v", top)
		}
		// Its spaces travel with it.
		w.wantIDs(t, "A's spaces", w.spaceIDs(w.spacesIn(t, w.admin, a.Id, "").Items), inA.Id)
	})

	t.Run("ToTopLevelWithParentNull", func(t *testing.T) {
		p := w.MustCreateCollection(t, w.admin, org, "P", "")
		n := w.MustCreateCollection(t, w.admin, org, "N", p.Id)
		var got gen.Collection
		w.Expect(t, http.StatusOK, w.admin, "POST", "/collections/"+n.Id+"/move", map[string]any{"parent": nil}).Decode(t, &got)
		if got.Parent != nil {
			t.Fatalf("parent = %v after moving to the top level", *got.Parent)
		}
		if re := w.collection(t, w.admin, n.Id); re.Parent != nil {
			t.Fatalf("re-read parent %v", *re.Parent)
		}
		if top := w.collectionIDs(w.collections(t, w.admin, org, "?nested=false").Items); !w.has(top, n.Id) {
			t.Fatalf("top-level list %v misses the moved collection", top)
		}
	})

	t.Run("IntoItselfIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Self", "")
		status, r := move(a.Id, map[string]any{"parent": a.Id})
		if status != http.StatusBadRequest {
			t.Fatalf("status %d: %s", status, r.Body)
		}
		w.wantMessage(t, r, "parent")
		if re := w.collection(t, w.admin, a.Id); re.Parent != nil {
			t.Fatalf("parent = %v", *re.Parent)
		}
	})

	t.Run("IntoItsDescendantIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Root", "")
		child := w.MustCreateCollection(t, w.admin, org, "Child", a.Id)
		grandchild := w.MustCreateCollection(t, w.admin, org, "Grandchild", child.Id)
		for _, target := range []string{child.Id, grandchild.Id} {
			status, r := move(a.Id, map[string]any{"parent": target})
			if status != http.StatusBadRequest {
				t.Fatalf("moving into a descendant: status %d: %s", status, r.Body)
			}
			w.wantMessage(t, r, "descendant")
		}
		if re := w.collection(t, w.admin, a.Id); re.Parent != nil {
			t.Fatalf("root now has parent %v", *re.Parent)
		}
		if re := w.collection(t, w.admin, child.Id); re.Parent == nil || *re.Parent != a.Id {
			t.Fatalf("child's parent = %v", re.Parent)
		}
	})

	t.Run("MoveThatChangesNothingIs400", func(t *testing.T) {
		p := w.MustCreateCollection(t, w.admin, org, "Holder", "")
		x := w.MustCreateCollection(t, w.admin, org, "X", p.Id)
		y := w.MustCreateCollection(t, w.admin, org, "Y", p.Id)
		// X is already under p, and already just before Y; Y is already last.
		for _, c := range []struct {
			name string
			id   string
			body map[string]any
		}{
			{"x already before y", x.Id, before("collection", y.Id)},
			{"y already after x", y.Id, after("collection", x.Id)},
			{"y already last under its parent", y.Id, map[string]any{"parent": p.Id}},
			{"y already last, no parent given", y.Id, map[string]any{"position": map[string]any{}}},
		} {
			status, r := move(c.id, c.body)
			if status != http.StatusBadRequest {
				t.Fatalf("%s: status %d: %s", c.name, status, r.Body)
			}
			w.wantMessage(t, r, "nothing")
		}
		// A real reorder then makes the same request a no-change one: the order was recorded.
		w.Expect(t, http.StatusOK, w.admin, "POST", "/collections/"+y.Id+"/move", before("collection", x.Id))
		if status, r := move(y.Id, before("collection", x.Id)); status != http.StatusBadRequest {
			t.Fatalf("repeating a reorder: status %d: %s", status, r.Body)
		}
		w.Expect(t, http.StatusOK, w.admin, "POST", "/collections/"+x.Id+"/move", before("collection", y.Id))
	})

	t.Run("UnknownParentIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Wanderer", "")
		status, r := move(a.Id, map[string]any{"parent": "nosuchcollection"})
		if status != http.StatusBadRequest {
			t.Fatalf("status %d: %s", status, r.Body)
		}
		w.wantMessage(t, r, "parent")
	})

	t.Run("ParentInAnotherOrganizationIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Emigrant", "")
		theirs := w.MustCreateCollection(t, w.outsider, w.other.Id, "Theirs", "")
		status, r := move(a.Id, map[string]any{"parent": theirs.Id})
		if status != http.StatusBadRequest {
			t.Fatalf("status %d: %s", status, r.Body)
		}
		if re := w.collection(t, w.admin, a.Id); re.Parent != nil || re.Organization != org {
			t.Fatalf("after refused move: %+v", re)
		}
	})

	t.Run("PositionNamingASiblingUnderAnotherParentIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Mover", "")
		elsewhere := w.MustCreateCollection(t, w.admin, org, "Elsewhere", "")
		deep := w.MustCreateCollection(t, w.admin, org, "Deep", elsewhere.Id)
		deepSpace := w.MustCreateSpace(t, w.admin, org, "Deep space", elsewhere.Id)
		for _, body := range []map[string]any{before("collection", deep.Id), after("space", deepSpace.Id)} {
			status, r := move(a.Id, body)
			if status != http.StatusBadRequest {
				t.Fatalf("status %d: %s", status, r.Body)
			}
			w.wantMessage(t, r, "position")
		}
		if re := w.collection(t, w.admin, a.Id); re.Parent != nil {
			t.Fatalf("parent = %v", *re.Parent)
		}
	})

	t.Run("PositionPointerWithoutIdIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Pointerless", "")
		status, r := move(a.Id, map[string]any{"position": map[string]any{"before": map[string]any{"type": "collection"}}})
		if status != http.StatusBadRequest {
			t.Fatalf("status %d: %s", status, r.Body)
		}
		w.wantMessage(t, r, "position.before")
	})

	t.Run("BeforeAndAfterTogetherIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Both", "")
		b := w.MustCreateCollection(t, w.admin, org, "Other", "")
		status, r := move(a.Id, map[string]any{"position": map[string]any{
			"before": map[string]any{"type": "collection", "collection": b.Id},
			"after":  map[string]any{"type": "collection", "collection": b.Id},
		}})
		if status != http.StatusBadRequest {
			t.Fatalf("status %d: %s", status, r.Body)
		}
	})

	t.Run("EmptyBodyIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Empty", "")
		status, r := move(a.Id, map[string]any{})
		if status != http.StatusBadRequest {
			t.Fatalf("status %d: %s", status, r.Body)
		}
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Fixed", "")
		b := w.MustCreateCollection(t, w.admin, org, "Target", "")
		w.Expect(t, http.StatusForbidden, w.reader, "POST", "/collections/"+a.Id+"/move", map[string]any{"parent": b.Id})
		if re := w.collection(t, w.admin, a.Id); re.Parent != nil {
			t.Fatalf("parent = %v", *re.Parent)
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Guarded", "")
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", "/collections/"+a.Id+"/move", map[string]any{"parent": nil})
	})

	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/collections/nosuchcollection/move", map[string]any{"parent": nil})
	})
}

func TestTransferCollection(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id
	// The admin also administers a second organization, and is a create member of a third.
	second := w.MustCreateOrg(t, w.admin, "Acme Labs")
	carol := w.MustCreateUser(t, "carol@third.test", "Carol")
	third := w.MustCreateOrg(t, carol, "Third")
	w.MustAddMember(t, carol, third.Id, w.admin, "create")
	transfer := func(t *testing.T, u *testUser, id, target string) *response {
		t.Helper()
		return w.Do(t, u, "POST", "/collections/"+id+"/transfer", map[string]any{"organization": target})
	}

	t.Run("ToAnOrganizationTheCallerAdministers", func(t *testing.T) {
		holder := w.MustCreateCollection(t, w.admin, org, "Holder", "")
		c := w.MustCreateCollection(t, w.admin, org, "Moving", holder.Id)
		nested := w.MustCreateCollection(t, w.admin, org, "Moving nested", c.Id)
		s1 := w.MustCreateSpace(t, w.admin, org, "S1", c.Id)
		s2 := w.MustCreateSpace(t, w.admin, org, "S2", nested.Id)
		stays := w.MustCreateSpace(t, w.admin, org, "Stays", holder.Id)

		r := transfer(t, w.admin, c.Id, second.Id)
		if r.Status != http.StatusOK {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		var got gen.Collection
		r.Decode(t, &got)
		if got.Organization != second.Id || got.Parent != nil || got.Id != c.Id {
			t.Fatalf("transferred: %+v", got)
		}
		if re := w.collection(t, w.admin, nested.Id); re.Organization != second.Id || re.Parent == nil || *re.Parent != c.Id {
			t.Fatalf("nested after transfer: %+v", re)
		}
		for _, s := range []gen.Space{s1, s2} {
			if re := w.space(t, w.admin, s.Id); re.Organization != second.Id || re.Parent == nil || *re.Parent != *s.Parent {
				t.Fatalf("space %s after transfer: organization %s, parent %v", s.Title, re.Organization, re.Parent)
			}
		}
		w.wantIDs(t, "transferred collection's spaces", w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), s1.Id)
		w.wantIDs(t, "second org's collections", w.collectionIDs(w.collections(t, w.admin, second.Id, "").Items), c.Id, nested.Id)
		w.wantIDs(t, "second org's top-level collections", w.collectionIDs(w.collections(t, w.admin, second.Id, "?nested=false").Items), c.Id)
		w.wantIDs(t, "first org's collections", w.collectionIDs(w.collections(t, w.admin, org, "").Items), holder.Id)
		w.wantIDs(t, "second org's spaces", w.spaceIDs(w.orgSpaces(t, w.admin, second.Id, "").Items), s1.Id, s2.Id)
		w.wantIDs(t, "first org's spaces", w.spaceIDs(w.orgSpaces(t, w.admin, org, "").Items), stays.Id)
		w.wantIDs(t, "holder's spaces", w.spaceIDs(w.spacesIn(t, w.admin, holder.Id, "").Items), stays.Id)
		// The read member of the first organization no longer sees it.
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/collections/"+c.Id, nil)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+s1.Id, nil)
	})

	t.Run("SameOrganizationIs400", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Home", "")
		r := transfer(t, w.admin, c.Id, org)
		if r.Status != http.StatusBadRequest {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		w.wantMessage(t, r, "organization")
	})

	t.Run("OrganizationWhereCallerIsNotAdminIs403", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Not there", "")
		if r := transfer(t, w.admin, c.Id, third.Id); r.Status != http.StatusForbidden {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		if re := w.collection(t, w.admin, c.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
		if l := w.collections(t, carol, third.Id, ""); l.Count != 0 {
			t.Fatalf("third organization has %d collections", l.Count)
		}
	})

	t.Run("OrganizationCallerIsNotInIs400", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Not theirs", "")
		r := transfer(t, w.admin, c.Id, w.other.Id)
		if r.Status != http.StatusBadRequest {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		w.wantMessage(t, r, "organization")
		if re := w.collection(t, w.admin, c.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
		if l := w.collections(t, w.outsider, w.other.Id, ""); l.Count != 0 {
			t.Fatalf("other organization has %d collections", l.Count)
		}
	})

	t.Run("UnknownOrganizationIs400", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Nowhere", "")
		if r := transfer(t, w.admin, c.Id, "nosuchorg"); r.Status != http.StatusBadRequest {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Kept", "")
		if r := transfer(t, w.reader, c.Id, second.Id); r.Status != http.StatusForbidden {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		if re := w.collection(t, w.admin, c.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Coveted", "")
		if r := transfer(t, w.outsider, c.Id, w.other.Id); r.Status != http.StatusNotFound {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		if re := w.collection(t, w.admin, c.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
	})
}
