package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestMoveCollection(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	// refused moves a collection as the admin, which must be answered 400 with a message
	// containing each part.
	refused := func(t *testing.T, id string, body map[string]any, parts ...string) {
		t.Helper()
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/collections/"+id+"/move", body), parts...)
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
		got := sendJSON[gen.Collection](t, w.testServer, http.StatusOK, w.admin, "POST", "/collections/"+a.Id+"/move", map[string]any{"parent": b.Id})
		if got.Parent == nil || *got.Parent != b.Id || got.Id != a.Id {
			t.Fatalf("moved: %+v", got)
		}
		if re := w.collection(t, w.admin, a.Id); re.Parent == nil || *re.Parent != b.Id {
			t.Fatalf("re-read parent %v", re.Parent)
		}
		if top := idsOf(w.collections(t, w.admin, org, "?nested=false").Items); w.has(top, a.Id) {
			t.Fatalf("moved collection still at top level: %v", top)
		}
		// Its spaces travel with it.
		wantIDs(t, "A's spaces", idsOf(w.spacesIn(t, w.admin, a.Id, "").Items), inA.Id)
	})

	t.Run("ToTopLevelWithParentNull", func(t *testing.T) {
		p := w.MustCreateCollection(t, w.admin, org, "P", "")
		n := w.MustCreateCollection(t, w.admin, org, "N", p.Id)
		got := sendJSON[gen.Collection](t, w.testServer, http.StatusOK, w.admin, "POST", "/collections/"+n.Id+"/move", map[string]any{"parent": nil})
		if got.Parent != nil {
			t.Fatalf("parent = %v after moving to the top level", *got.Parent)
		}
		if re := w.collection(t, w.admin, n.Id); re.Parent != nil {
			t.Fatalf("re-read parent %v", *re.Parent)
		}
		if top := idsOf(w.collections(t, w.admin, org, "?nested=false").Items); !w.has(top, n.Id) {
			t.Fatalf("top-level list %v misses the moved collection", top)
		}
	})

	t.Run("IntoItselfIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Self", "")
		refused(t, a.Id, map[string]any{"parent": a.Id}, "parent")
		if re := w.collection(t, w.admin, a.Id); re.Parent != nil {
			t.Fatalf("parent = %v", *re.Parent)
		}
	})

	t.Run("IntoItsDescendantIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Root", "")
		child := w.MustCreateCollection(t, w.admin, org, "Child", a.Id)
		grandchild := w.MustCreateCollection(t, w.admin, org, "Grandchild", child.Id)
		for _, target := range []string{child.Id, grandchild.Id} {
			refused(t, a.Id, map[string]any{"parent": target}, "descendant")
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
			refused(t, c.id, c.body, "nothing")
		}
		// A real reorder then makes the same request a no-change one: the order was recorded.
		w.Expect(t, http.StatusOK, w.admin, "POST", "/collections/"+y.Id+"/move", before("collection", x.Id))
		refused(t, y.Id, before("collection", x.Id))
		w.Expect(t, http.StatusOK, w.admin, "POST", "/collections/"+x.Id+"/move", before("collection", y.Id))
	})

	t.Run("PositionNamingASiblingUnderAnotherParentIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Mover", "")
		elsewhere := w.MustCreateCollection(t, w.admin, org, "Elsewhere", "")
		deep := w.MustCreateCollection(t, w.admin, org, "Deep", elsewhere.Id)
		deepSpace := w.MustCreateSpace(t, w.admin, org, "Deep space", elsewhere.Id)
		for _, body := range []map[string]any{before("collection", deep.Id), after("space", deepSpace.Id)} {
			refused(t, a.Id, body, "position")
		}
		if re := w.collection(t, w.admin, a.Id); re.Parent != nil {
			t.Fatalf("parent = %v", *re.Parent)
		}
	})

	t.Run("BeforeAndAfterTogetherIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Both", "")
		b := w.MustCreateCollection(t, w.admin, org, "Other", "")
		refused(t, a.Id, map[string]any{"position": map[string]any{
			"before": map[string]any{"type": "collection", "collection": b.Id},
			"after":  map[string]any{"type": "collection", "collection": b.Id},
		}})
	})

	t.Run("EmptyBodyIs400", func(t *testing.T) {
		a := w.MustCreateCollection(t, w.admin, org, "Empty", "")
		refused(t, a.Id, map[string]any{})
	})
}

func TestTransferCollection(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	// The admin also administers a second organization, and is a create member of a third.
	second := w.MustCreateOrg(t, w.admin, "Acme Labs") // the admin administers it too

	t.Run("ToAnOrganizationTheCallerAdministers", func(t *testing.T) {
		holder := w.MustCreateCollection(t, w.admin, org, "Holder", "")
		c := w.MustCreateCollection(t, w.admin, org, "Moving", holder.Id)
		nested := w.MustCreateCollection(t, w.admin, org, "Moving nested", c.Id)
		s1 := w.MustCreateSpace(t, w.admin, org, "S1", c.Id)
		s2 := w.MustCreateSpace(t, w.admin, org, "S2", nested.Id)
		stays := w.MustCreateSpace(t, w.admin, org, "Stays", holder.Id)

		got := sendJSON[gen.Collection](t, w.testServer, http.StatusOK, w.admin, "POST", "/collections/"+c.Id+"/transfer", map[string]any{"organization": second.Id})
		if got.Organization != second.Id || got.Parent != nil || got.Id != c.Id {
			t.Fatalf("transferred: %+v", got)
		}
		if re := w.collection(t, w.admin, nested.Id); re.Organization != second.Id || re.Parent == nil || *re.Parent != c.Id {
			t.Fatalf("nested after transfer: %+v", re)
		}
		for _, s := range []gen.Space{s1, s2} {
			if re := w.spaceAs(t, w.admin, s.Id); re.Organization != second.Id || re.Parent == nil || *re.Parent != *s.Parent {
				t.Fatalf("space %s after transfer: organization %s, parent %v", s.Title, re.Organization, re.Parent)
			}
		}
		wantIDs(t, "transferred collection's spaces", idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), s1.Id)
		wantIDs(t, "second org's collections", idsOf(w.collections(t, w.admin, second.Id, "").Items), c.Id, nested.Id)
		wantIDs(t, "second org's top-level collections", idsOf(w.collections(t, w.admin, second.Id, "?nested=false").Items), c.Id)
		wantIDs(t, "first org's collections", idsOf(w.collections(t, w.admin, org, "").Items), holder.Id)
		wantIDs(t, "second org's spaces", idsOf(w.orgSpaces(t, w.admin, second.Id, "").Items), s1.Id, s2.Id)
		wantIDs(t, "first org's spaces", idsOf(w.orgSpaces(t, w.admin, org, "").Items), stays.Id)
		wantIDs(t, "holder's spaces", idsOf(w.spacesIn(t, w.admin, holder.Id, "").Items), stays.Id)
		// The read member of the first organization no longer sees it.
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/collections/"+c.Id, nil)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+s1.Id, nil)
	})
}
