package store

import (
	"strings"
	"testing"
)

// The three-way merge, page by page, without a database: bodies are compared by id and, where
// ids differ, by text.
func TestThreeWayMerge(t *testing.T) {
	bodies := map[int64]string{1: "base", 2: "ours", 3: "theirs", 4: "ours" /* same text, another body */}
	var loaded []int64
	load := func(ids []int64) (map[int64]string, error) {
		loaded = append(loaded, ids...)
		out := map[int64]string{}
		for _, id := range ids {
			out[id] = bodies[id]
		}
		return out, nil
	}
	page := func(title string, body int64) *RevisionPage {
		return &RevisionPage{ID: "p", Title: title, Slug: Slugify(title), BodyID: body}
	}
	base := page("Intro", 1)
	for _, c := range []struct {
		name         string
		b, o, th     *RevisionPage
		wantTitle    string // "" with wantGone or a conflict
		wantBody     int64
		wantGone     bool
		wantConflict string
		textRead     bool // the merge must compare markdown (both sides wrote a body)
	}{
		{name: "ours only", b: base, o: page("Intro", 2), th: base, wantTitle: "Intro", wantBody: 2},
		{name: "theirs only", b: base, o: base, th: page("Intro", 3), wantTitle: "Intro", wantBody: 3},
		{name: "title and body on two sides", b: base, o: page("Welcome", 1), th: page("Intro", 3), wantTitle: "Welcome", wantBody: 3},
		{name: "same text both sides", b: base, o: page("Intro", 2), th: page("Intro", 4), wantTitle: "Intro", wantBody: 2, textRead: true},
		{name: "body both sides", b: base, o: page("Intro", 2), th: page("Intro", 3), wantConflict: "content", textRead: true},
		{name: "title both sides", b: base, o: page("A", 1), th: page("B", 1), wantConflict: "title"},
		{name: "deleted, unchanged", b: base, o: nil, th: base, wantGone: true},
		{name: "deleted, changed", b: base, o: nil, th: page("Intro", 3), wantConflict: "deleted on one side", textRead: true},
		{name: "added on one side", b: nil, o: nil, th: page("New", 3), wantTitle: "New", wantBody: 3},
		{name: "added differently", b: nil, o: page("New", 2), th: page("New", 3), wantConflict: "added differently", textRead: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			loaded = nil
			defer func() {
				// A merge of 10 edited pages read every page's three texts, where ids alone decide.
				if (len(loaded) > 0) != c.textRead {
					t.Errorf("markdown read for bodies %v; want read: %v", loaded, c.textRead)
				}
			}()
			side := func(p *RevisionPage) map[string]*RevisionPage {
				if p == nil {
					return map[string]*RevisionPage{}
				}
				return map[string]*RevisionPage{"p": p}
			}
			merged, conflicts, err := ThreeWayMerge([]string{"p"}, side(c.b), side(c.o), side(c.th), load)
			if err != nil {
				t.Fatal(err)
			}
			if c.wantConflict != "" {
				if len(conflicts) != 1 || !strings.Contains(conflicts[0].Reason, c.wantConflict) || merged != nil {
					t.Fatalf("conflicts %+v, merged %v; want one naming %q", conflicts, merged, c.wantConflict)
				}
				return
			}
			if len(conflicts) != 0 {
				t.Fatalf("unexpected conflicts %+v", conflicts)
			}
			got, ok := merged["p"]
			if !ok || (got == nil) != c.wantGone {
				t.Fatalf("merged %+v, want gone %v", merged, c.wantGone)
			}
			if got != nil && (got.Title != c.wantTitle || got.BodyID != c.wantBody) {
				t.Fatalf("merged %q body %d, want %q body %d", got.Title, got.BodyID, c.wantTitle, c.wantBody)
			}
		})
	}
}
