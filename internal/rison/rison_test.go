package rison

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]any{
		"(plan:pro,seats:3,admin:!t,tags:!(a,'b c'),none:!n,'odd key':'it!'s')": map[string]any{
			"plan": "pro", "seats": 3.0, "admin": true, "tags": []any{"a", "b c"}, "none": nil, "odd key": "it's"},
		"()":      map[string]any{},
		"!(-1.5)": []any{-1.5},
		"!f":      false,
		"word":    "word",
	} {
		got, err := Parse(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %#v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "(a)", "(a:1", "!x", "'open", "(a:1)b", "!(1 2)", "1-"} {
		if v, err := Parse(bad); err == nil {
			t.Errorf("%q parsed as %#v", bad, v)
		}
	}
}
