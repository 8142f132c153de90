package server

import (
	"reflect"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// TestSameSpaceComparesEveryField changes each field of a space in turn (every one store.Space
// has, found by reflection, so a field added later is covered) and wants sameSpace to see it,
// while a copy holding equal values behind other pointers is the same space.
func TestSameSpaceComparesEveryField(t *testing.T) {
	str := func(s string) *string { return &s }
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := func() store.Space {
		deleted := at.Add(time.Hour)
		return store.Space{ID: "s1", OrganizationID: "o1", ParentID: str("c1"), Title: "Docs", Emoji: "📗",
			Icon: str("https://icon.test/i.png"), Visibility: "public", EditMode: "live", DefaultLevel: store.RoleRead,
			Language: str("en"), MergeRules: store.MergeRules{Type: "rules", Rules: []store.MergeRule{{Rule: "reviewers", Users: []string{"u1"}}}},
			RevisionID: "r1", Comments: 1, ChangeRequests: 2, ChangeRequestsOpen: 3, ChangeRequestsDraft: 4,
			CreatedAt: at, UpdatedAt: at, DeletedAt: &deleted}
	}
	a, b := base(), base()
	if !sameSpace(&a, &b) {
		t.Fatal("equal spaces behind other pointers are not the same")
	}
	typ := reflect.TypeOf(a)
	for i := range typ.NumField() {
		b := base()
		f := reflect.ValueOf(&b).Elem().Field(i)
		switch v := f.Addr().Interface().(type) {
		case *string:
			*v += "x"
		case **string:
			*v = str(**v + "x")
		case *store.Role:
			*v = store.RoleAdmin
		case *int:
			*v++
		case *time.Time:
			*v = v.Add(time.Millisecond)
		case **time.Time:
			later := (*v).Add(time.Millisecond)
			*v = &later
		case *store.MergeRules:
			for _, change := range []func(*store.MergeRules){
				func(m *store.MergeRules) { m.Type = "none" },
				func(m *store.MergeRules) { m.Rules[0].Rule = "custom" },
				func(m *store.MergeRules) { m.Rules[0].Users = []string{"u2"} },
				func(m *store.MergeRules) { m.Rules[0].Expression = "x" },
				func(m *store.MergeRules) { m.Rules[0].Message = "x" },
				func(m *store.MergeRules) { m.Rules = append(m.Rules, store.MergeRule{Rule: "x"}) },
			} {
				c := base()
				change(&c.MergeRules)
				if sameSpace(&a, &c) {
					t.Errorf("a change of the merge rules (%+v) is not seen", c.MergeRules)
				}
			}
			continue
		default:
			t.Fatalf("field %s: no change for its type %s; teach this test (and sameSpace)", typ.Field(i).Name, f.Type())
		}
		if sameSpace(&a, &b) {
			t.Errorf("a change of %s is not seen", typ.Field(i).Name)
		}
	}
	// A nil pointer differs from a pointer to a value.
	c := base()
	c.ParentID, c.DeletedAt = nil, nil
	if sameSpace(&a, &c) || sameSpace(&c, &a) {
		t.Error("nil pointers are the same as set ones")
	}
}
