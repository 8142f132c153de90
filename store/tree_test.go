package store

import (
	"reflect"
	"strings"
	"testing"
)

func TestReorder(t *testing.T) {
	key := func(s string) string { return "k:" + s }
	ref := func(s string) *string { k := "k:" + s; return &k }
	sibs := []string{"a", "b", "c"}
	for _, tc := range []struct {
		name          string
		item          string
		before, after *string
		want          []string
		unchanged     bool
		err           string
	}{
		{name: "to the end", item: "a", want: []string{"b", "c", "a"}},
		{name: "already last", item: "c", want: []string{"a", "b", "c"}, unchanged: true},
		{name: "before", item: "c", before: ref("a"), want: []string{"c", "a", "b"}},
		{name: "after", item: "a", after: ref("b"), want: []string{"b", "a", "c"}},
		{name: "where it is", item: "b", after: ref("a"), want: []string{"a", "b", "c"}, unchanged: true},
		{name: "a new item", item: "n", before: ref("b"), want: []string{"a", "n", "b", "c"}},
		{name: "both", item: "a", before: ref("b"), after: ref("c"), err: "not both"},
		{name: "itself", item: "a", before: ref("a"), err: "position.before: an item cannot be placed next to itself"},
		{name: "not a sibling", item: "a", after: ref("x"), err: `position.after: "x" is not a sibling`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, unchanged, err := Reorder(sibs, tc.item, key, tc.before, tc.after)
			if tc.err != "" {
				if err == nil || ErrorCode(err) != EINVALID || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want EINVALID %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) || unchanged != tc.unchanged {
				t.Fatalf("Reorder = %v %v %v, want %v %v", got, unchanged, err, tc.want, tc.unchanged)
			}
		})
	}
}
