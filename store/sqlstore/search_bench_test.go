package sqlstore

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// words of the generated pages: a few common ones, many rare ones.
var benchCommon = []string{"guide", "install", "configure", "server", "api", "token", "page", "space"}

func benchMarkdown(r *rand.Rand, i int) string {
	md := fmt.Sprintf("Introduction to topic %d.\n\n", i)
	for s := 0; s < 3; s++ {
		md += fmt.Sprintf("## Part %d\n\n", s)
		for w := 0; w < 40; w++ {
			if r.Intn(4) == 0 {
				md += benchCommon[r.Intn(len(benchCommon))] + " "
			} else {
				md += fmt.Sprintf("word%d ", r.Intn(200000)) + " "
			}
		}
		md += "\n\n"
	}
	return md
}

// benchSearchSpace is a space whose current revision holds n generated pages, indexed.
func benchSearchSpace(b *testing.B, n int) (*Store, string) {
	b.Helper()
	st, _, spaceID := benchStore(b)
	r := rand.New(rand.NewSource(1))
	pages := make([]*store.RevisionPage, n)
	now := time.Now().UTC()
	for i := range pages {
		pages[i] = &store.RevisionPage{ID: store.NewID(), Position: float64(i), Title: fmt.Sprintf("Page %d", i),
			Slug: fmt.Sprintf("page-%d", i), Path: fmt.Sprintf("page-%d", i), Markdown: benchMarkdown(r, i),
			CreatedAt: now, UpdatedAt: now}
	}
	indexPages(b, st, spaceID, pages)
	return st, spaceID
}

// indexPages makes pages the current revision of a space, indexed for search.
func indexPages(tb testing.TB, st *Store, spaceID string, pages []*store.RevisionPage) {
	tb.Helper()
	ctx := context.Background()
	err := st.write(ctx, func(tx *Tx) error {
		tree := store.NewPageTree(nil, tx.now)
		rev, err := writeRevision(ctx, tx, revisionWrite{spaceID: spaceID, typ: "edits", changed: pages, links: tree})
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE spaces SET revision_id = ? WHERE id = ?`, rev, spaceID); err != nil {
			return err
		}
		return indexSpace(ctx, tx, spaceID, pages)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkSearch100kPages ranks searches over 100,000 generated pages (300,000 sections) and
// reports the 95th percentile of each kind of query. Target: p95 under 20 ms.
func BenchmarkSearch100kPages(b *testing.B) {
	st, spaceID := benchSearchSpace(b, 100000)
	ctx := context.Background()
	for _, q := range []struct{ name, query string }{
		{"CommonWord", "install"},
		{"RareWord", "word12345"},
		{"TwoWords", "configure token"},
	} {
		b.Run(q.name, func(b *testing.B) {
			var times []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				start := time.Now()
				res, err := st.SearchSpace(ctx, spaceID, q.query, store.Page{Limit: 20})
				if err != nil || len(res.Items) == 0 {
					b.Fatalf("search %q: %v (%d items)", q.query, err, len(res.Items))
				}
				times = append(times, time.Since(start))
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}
