package main

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
)

// Searches and merges at once, on both engines (issue 24): writers merge change requests whose
// pages are written with diacritics while readers search, on one SQLite node and on two
// PostgreSQL nodes. Every answer must succeed and be right: a search finds exactly the pages its
// words are in, during the merges and after them, on every node; and the index checks clean.
// Under the race detector (make test) the server processes are race builds, and startQuire fails
// the test on any race report or recovered panic in their output.
func TestConcurrentSearchesAndMerges(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real server processes")
	}
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		searchWhileMerging(t, filepath.Join(t.TempDir(), "quire.db"), 1)
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		searchWhileMerging(t, freshPostgres(t), 2)
	})
}

func searchWhileMerging(t *testing.T, db string, nodes int) {
	const writers, mergesEach, readers, stable = 8, 4, 6, 12
	token := mustCreateUser(t, db)
	var urls []string
	for range nodes {
		_, u := startQuire(t, db)
		urls = append(urls, u)
	}
	node := func(i int) string { return urls[i%len(urls)] }
	orgID := mustCall(t, http.StatusCreated, "POST", node(0)+"/v1/orgs", token, map[string]any{"title": "Acme"})["id"].(string)
	spaceID := mustCall(t, http.StatusCreated, "POST", node(0)+"/v1/orgs/"+orgID+"/spaces", token, map[string]any{"title": "Handbook"})["id"].(string)

	// commit writes pages in a new change request on a node and merges it; it answers the merge's
	// result, or "" after reporting a failure.
	commit := func(n string, pages map[string]string) string {
		status, cr := call(t, "POST", n+"/v1/spaces/"+spaceID+"/change-requests", token, map[string]any{"subject": "edit"})
		if status != http.StatusCreated {
			t.Errorf("create change request on %s: %d %v", n, status, cr)
			return ""
		}
		var changes []any
		for title, md := range pages {
			changes = append(changes, map[string]any{"operation": "insert_page", "title": title, "document": map[string]any{"markdown": md}})
		}
		crPath := n + "/v1/spaces/" + spaceID + "/change-requests/" + cr["id"].(string)
		if status, out := call(t, "POST", crPath+"/content", token, map[string]any{"changes": changes}); status != http.StatusOK {
			t.Errorf("content on %s: %d %v", n, status, out)
			return ""
		}
		status, out := call(t, "POST", crPath+"/merge", token, nil)
		if status != http.StatusOK {
			t.Errorf("merge on %s: %d %v", n, status, out)
			return ""
		}
		result, _ := out["result"].(string)
		return result
	}
	// search answers the titles a space search finds on a node, sorted; ok is false after a
	// failure was reported.
	search := func(n, q string) (titles []string, ok bool) {
		status, out := call(t, "GET", n+"/v1/spaces/"+spaceID+"/search?limit=100&query="+url.QueryEscape(q), token, nil)
		if status != http.StatusOK {
			t.Errorf("search %q on %s: %d %v", q, n, status, out)
			return nil, false
		}
		items, _ := out["items"].([]any)
		for _, it := range items {
			titles = append(titles, it.(map[string]any)["title"].(string))
		}
		sort.Strings(titles)
		return titles, true
	}

	// Pages that stay: each has a word of its own, and all share words with diacritics.
	seed := map[string]string{}
	var stableTitles []string
	for i := range stable {
		title := fmt.Sprintf("Café %02d", i)
		seed[title] = fmt.Sprintf("Stable%d: a crème brûlée for Señor Müller, à la carte.\n\n## Später\n\nDéjà vu %d.\n", i, i)
		stableTitles = append(stableTitles, title)
	}
	sort.Strings(stableTitles)
	if r := commit(node(0), seed); r != "merge" {
		t.Fatalf("seed merge answered %q", r)
	}

	var running atomic.Int32
	running.Store(writers)
	var mu sync.Mutex
	merged := map[string]string{} // the unique word of each merged page → its title
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer running.Add(-1)
			for i := range mergesEach {
				word := fmt.Sprintf("writer%dmerge%d", w, i)
				title := fmt.Sprintf("Über %d.%d", w, i)
				switch r := commit(node(w+i), map[string]string{title: "Naïve résumé of " + word + ".\n\n## Zürich\n\nFaçade " + word + ".\n"}); r {
				case "merge":
					mu.Lock()
					merged[word] = title
					mu.Unlock()
				case "conflicts", "":
				default:
					t.Errorf("merge answered %q", r)
				}
			}
		}()
	}
	var searches atomic.Int64
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; running.Load() > 0 && n < 400; n++ {
				i := (r + n) % stable
				queries := map[string][]string{
					fmt.Sprintf("stable%d", i):  {stableTitles[i]},
					fmt.Sprintf("Stable%d", i):  {stableTitles[i]},
					"creme brulee":              stableTitles,
					"CRÈME":                     stableTitles,
					"senor muller spater deja":  stableTitles,
					fmt.Sprintf("cafe %02d", i): {stableTitles[i]},
				}
				for q, want := range queries {
					got, ok := search(node(r+n), q)
					searches.Add(1)
					if !ok {
						return
					}
					if !slices.Equal(got, want) && !(q == fmt.Sprintf("cafe %02d", i) && slices.Contains(got, want[0])) {
						t.Errorf("search %q during merges found %v, want %v", q, got, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if len(merged) < writers {
		t.Fatalf("only %d of %d merges applied", len(merged), writers*mergesEach)
	}
	// Every merged page is found by its own word, with or without diacritics around it, on every
	// node.
	for word, title := range merged {
		for i := range urls {
			for _, q := range []string{word, "naive resume " + word, "zurich façade " + word} {
				if got, ok := search(node(i), q); ok && !slices.Equal(got, []string{title}) {
					t.Errorf("search %q on node %d after the merges found %v, want [%s]", q, i, got, title)
				}
			}
		}
	}
	out, err := combinedQuire("search-index", "check", "--db", db)
	if err != nil {
		t.Errorf("quire search-index check after the merges: %v\n%s", err, out)
	}
	t.Logf("%d nodes: %d merges applied of %d, %d searches during them", nodes, len(merged), writers*mergesEach, searches.Load())
}
