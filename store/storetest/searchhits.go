package storetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/store"
)

// searchHits: a hit carries its description and its ancestors as the space's current revision
// has them, a score that follows the ranking (title matches above 1, section matches below) and
// its one-based rank across pages of results and, in an organization search, across spaces.
func searchHits(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	install := insertInto("i", "Install", "Quire runs anywhere.\n\n## Linux\n\nUse the zebra tarball.\n", "s")
	install.Description = str("How to install")
	ids := w.commit(sp.ID, insert("g", "Guide", "Start here."), insertInto("s", "Setup", "Read on.", "g"), install,
		insert("z", "Zebra", "A title match."))
	l, err := w.st.SearchSpace(ctx, sp.ID, "zebra", store.Page{})
	if err != nil || len(l.Items) != 2 {
		t.Fatalf("search: %+v, %v", l, err)
	}
	title, body := l.Items[0], l.Items[1]
	if title.PageID != ids["z"] || !title.MatchedTitle || title.Rank != 1 || title.Score <= 1 {
		t.Fatalf("title match: %+v", title)
	}
	if body.PageID != ids["i"] || body.MatchedTitle || body.Rank != 2 || body.Score <= 0 || body.Score >= 1 {
		t.Fatalf("section match: %+v", body)
	}
	if body.Description != "How to install" || title.Description != "" {
		t.Fatalf("descriptions %q, %q", body.Description, title.Description)
	}
	want := []store.SearchAncestor{{PageID: ids["g"], Title: "Guide"}, {PageID: ids["s"], Title: "Setup"}}
	if !reflect.DeepEqual(body.Ancestors, want) || len(title.Ancestors) != 0 || title.Ancestors == nil {
		t.Fatalf("ancestors %+v, %+v", body.Ancestors, title.Ancestors)
	}
	if len(body.Sections) != 1 || !body.Sections[0].Matched || body.Sections[0].Score != body.Score {
		t.Fatalf("matching section %+v", body.Sections)
	}
	// A renamed ancestor shows in the hit at once (no page under it was re-indexed).
	w.commit(sp.ID, store.PageChange{Type: "update_page", Page: str(ids["g"]), Title: str("Handbook")})
	second, err := w.st.SearchSpace(ctx, sp.ID, "zebra", store.Page{Limit: 1, Cursor: mustNext(t, w.st, sp.ID)})
	if err != nil || len(second.Items) != 1 || second.Items[0].Rank != 2 || second.Items[0].Ancestors[0].Title != "Handbook" {
		t.Fatalf("second page: %+v, %v", second.Items, err)
	}
	other := w.space("Zoo")
	w.commit(other.ID, insert("z", "Zebras", "Every zebra has stripes."))
	hits, err := w.st.SearchOrganization(ctx, w.org, "zebra", nil, store.Page{})
	if err != nil || len(hits.Items) != 2 {
		t.Fatalf("organization search: %+v, %v", hits, err)
	}
	ranks := []int{}
	for _, h := range hits.Items {
		if h.Score != h.Pages[0].Score {
			t.Fatalf("space %s scores %v, its best page %v", h.SpaceID, h.Score, h.Pages[0].Score)
		}
		for _, p := range h.Pages {
			ranks = append(ranks, p.Rank)
		}
	}
	if len(ranks) != 3 || ranks[0] != 1 {
		t.Fatalf("ranks %v", ranks)
	}
}

// mustNext is the cursor of the second page of a one-hit-per-page search for "zebra".
func mustNext(t *testing.T, st store.Store, spaceID string) string {
	t.Helper()
	l, err := st.SearchSpace(context.Background(), spaceID, "zebra", store.Page{Limit: 1})
	if err != nil || l.Next == "" {
		t.Fatalf("first page: %+v, %v", l, err)
	}
	return l.Next
}
