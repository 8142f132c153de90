package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/storetest"
)

// A query matching searchCandidates sections or more reads that many and does not rank them: its
// pages come in index order (the order they were indexed in), after any page whose title matched,
// with a score of 0; one matching fewer is ranked by the engine, the page that says the word most
// often first.
func TestSearchRanksOnlyUncommonQueries(t *testing.T) {
	t.Parallel()
	engines := map[string]func(t *testing.T) (*Store, string){
		"sqlite": func(t *testing.T) (*Store, string) {
			st := openTestStore(t)
			return st, storetest.MustOwner(t, st, "rank@example.com").MustSpace(t, st, "Docs").ID
		},
		"postgres": func(t *testing.T) (*Store, string) {
			st, sp := postgresSpace(t, "rank@example.com")
			return st, sp.ID
		},
	}
	for name, open := range engines {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			st, spaceID := open(t)
			now := time.Now().UTC()
			// Page i says zebra i+1 times in text of the same length; the last page's title
			// says it too.
			var pages []*store.RevisionPage
			for i := 0; i < 4; i++ {
				words := strings.Fields(strings.Repeat("grass ", 8))
				for j := 0; j <= i; j++ {
					words[j*2] = "zebra"
				}
				title := fmt.Sprintf("Page %d", i)
				if i == 3 {
					title = "Zebra page"
				}
				pages = append(pages, &store.RevisionPage{ID: store.NewID(), Position: float64(i), Title: title,
					Slug: fmt.Sprintf("p%d", i), Path: fmt.Sprintf("p%d", i), Markdown: strings.Join(words, " "),
					CreatedAt: now, UpdatedAt: now})
			}
			indexPages(t, st, spaceID, pages)
			order := func(bound int, want ...string) {
				t.Helper()
				st.candidateBound = bound
				l, err := st.SearchSpace(context.Background(), spaceID, "zebra", store.Page{})
				if err != nil || l.Count != len(want) {
					t.Fatalf("bound %d: %+v, %v", bound, l, err)
				}
				var got []string
				for i, h := range l.Items {
					got = append(got, h.Title)
					if h.Rank != i+1 || !h.MatchedTitle && bound <= 4 && h.Score != 0 || !h.MatchedTitle && bound > 4 && h.Score <= 0 {
						t.Errorf("bound %d: hit %d %+v", bound, i, h)
					}
				}
				if strings.Join(got, ", ") != strings.Join(want, ", ") {
					t.Errorf("at most %d candidates: %s, want %s", bound, strings.Join(got, ", "), strings.Join(want, ", "))
				}
			}
			order(10, "Zebra page", "Page 2", "Page 1", "Page 0") // ranked
			order(4, "Zebra page", "Page 0", "Page 1", "Page 2")  // too common to rank
			order(2, "Zebra page", "Page 0", "Page 1")            // and bounded
		})
	}
}
