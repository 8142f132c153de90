package sqlstore

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/storetest"
)

// cpuTime is the CPU time (user and system) the process has used: on a machine shared with other
// work, wall-clock figures wait for the CPU; this says what the work itself cost.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The figures of issue 9, measured on a space built the way people write docs: pages of about 150
// words, written through content batches of 50 in change requests of 1,000, each merged.
// `make bench` prints them for 5,000 and 20,000 pages, so their growth shows.

func BenchmarkRevisions5000Pages(b *testing.B)  { benchRevisions(b, 5000) }
func BenchmarkRevisions20000Pages(b *testing.B) { benchRevisions(b, 20000) }

var benchWords = strings.Fields(`the a page guide install configure server client token request response
	error retry limit cursor list item project member role team space content revision merge branch file
	image link search index query result section heading table code example note warning tip option value
	default setting account user admin access key secret deploy build test release version update change`)

func benchPageMarkdown(r *rand.Rand, title string) string {
	var b strings.Builder
	b.WriteString("# " + title + "\n\n")
	// Two links, as docs have: a sibling page by relative path, and an external URL.
	fmt.Fprintf(&b, "See [the page before](page-%d.md) and [the API](https://example.com/api/%d).\n\n", r.Intn(20000), r.Intn(100))
	for i := 0; i < 150; i++ {
		b.WriteString(benchWords[r.Intn(len(benchWords))])
		if i%25 == 24 {
			b.WriteString(".\n\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func percentile(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[min(len(s)-1, int(float64(len(s))*p))]) / float64(time.Millisecond)
}

func benchRevisions(b *testing.B, n int) {
	dir := b.TempDir()
	st, err := OpenSQLite(context.Background(), filepath.Join(dir, "quire.db"), testIsUnique)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	benchRevisionsOn(b, st, n, func() int64 {
		if _, err := st.writer.ExecContext(context.Background(), `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			b.Fatal(err)
		}
		var size int64
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if info, err := e.Info(); err == nil {
				size += info.Size()
			}
		}
		return size
	})
}

// benchRevisionsOn ingests n pages into a store and prints the content model's figures; size
// answers the database's size on disk.
func benchRevisionsOn(b *testing.B, st *Store, n int, dbSize func() int64) {
	ctx := context.Background()
	o := storetest.MustOwner(b, st, "bench@example.com")
	u, sp := o.User, o.MustSpace(b, st, "Docs")
	r := rand.New(rand.NewSource(9))

	// Ingest: each change request adds 1,000 pages under 5 new sections, 50 pages a batch.
	var batchTimes []time.Duration
	var ids []string
	var oldRevision string
	start, startCPU := time.Now(), cpuTime()
	for done := 0; done < n; {
		cr, err := st.CreateChangeRequest(ctx, sp.ID, u.ID, "ingest")
		if err != nil {
			b.Fatal(err)
		}
		var section string
		for k := 0; k < 1000 && done < n; {
			var batch []store.PageChange
			if k%200 == 0 {
				ref, title := "section", fmt.Sprintf("Section %d", done/200)
				batch = append(batch, store.PageChange{Type: "insert_page", Ref: &ref, Title: &title})
				section = ""
				k++
				done++
			}
			for len(batch) < 50 && k < 1000 && done < n {
				title := fmt.Sprintf("Page %d", done)
				md := benchPageMarkdown(r, title)
				into := section
				if into == "" {
					into = "section"
				}
				batch = append(batch, store.PageChange{Type: "insert_page", Title: &title, Markdown: &md, SetInto: true, Into: &into})
				k++
				done++
			}
			t0 := time.Now()
			res, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, u.ID, batch)
			batchTimes = append(batchTimes, time.Since(t0))
			if err != nil {
				b.Fatal(err)
			}
			if id, ok := res.Refs["section"]; ok {
				section = id
			}
		}
		if _, conflicts, err := st.MergeChangeRequest(ctx, sp.ID, cr.ID, u.ID); err != nil || conflicts {
			b.Fatalf("merge: %v %v", err, conflicts)
		}
		if oldRevision == "" {
			cur, _ := st.FindSpace(ctx, sp.ID)
			oldRevision = cur.RevisionID
		}
	}
	ingest, ingestCPU := time.Since(start), cpuTime()-startCPU
	cur, _ := st.FindSpace(ctx, sp.ID)
	rev, err := st.FindRevision(ctx, sp.ID, cur.RevisionID)
	if err != nil || len(rev.Pages) != n {
		b.Fatalf("ingested %d pages: %v", len(rev.Pages), err)
	}
	for _, p := range rev.Pages {
		ids = append(ids, p.ID)
	}

	// Merges of change requests that update 10 pages, while main moves on in between.
	var mergeTimes []time.Duration
	var openCR *store.ChangeRequest
	for i := 0; i < 20; i++ {
		cr, _ := st.CreateChangeRequest(ctx, sp.ID, u.ID, "ten edits")
		var edits []store.PageChange
		for j := 0; j < 10; j++ {
			id, md := ids[r.Intn(len(ids))], benchPageMarkdown(r, fmt.Sprintf("Edited %d %d", i, j))
			edits = append(edits, store.PageChange{Type: "update_page", Page: &id, Markdown: &md})
		}
		if _, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, u.ID, edits); err != nil {
			b.Fatal(err)
		}
		if i == 19 {
			openCR, _ = st.FindChangeRequest(ctx, sp.ID, cr.ID)
			break
		}
		t0 := time.Now()
		if _, c, err := st.MergeChangeRequest(ctx, sp.ID, cr.ID, u.ID); err != nil || c {
			b.Fatalf("merge: %v %v", err, c)
		}
		mergeTimes = append(mergeTimes, time.Since(t0))
	}

	cur, _ = st.FindSpace(ctx, sp.ID)
	// The first listing after the merges decodes the versions this process has not read yet;
	// later ones find them in the version cache. Both are reported.
	var listTimes []time.Duration
	for i := 0; i < 60; i++ {
		t0 := time.Now()
		rev, err := st.FindRevision(ctx, sp.ID, cur.RevisionID)
		listTimes = append(listTimes, time.Since(t0))
		if err != nil || len(rev.Pages) != len(ids) {
			b.Fatalf("listPages: %v", err)
		}
	}
	old, _ := st.FindRevision(ctx, sp.ID, oldRevision)
	reads := func(revision string, pages []*store.RevisionPage) (byID, byPath float64) {
		var idTimes, pathTimes []time.Duration
		for i := 0; i < 200; i++ {
			p := pages[r.Intn(len(pages))]
			t0 := time.Now()
			if _, err := st.FindPage(ctx, revision, p.ID); err != nil {
				b.Fatalf("FindPage: %v", err)
			}
			idTimes = append(idTimes, time.Since(t0))
			t0 = time.Now()
			if _, err := st.FindPageByPath(ctx, revision, p.Path); err != nil {
				b.Fatalf("FindPageByPath: %v", err)
			}
			pathTimes = append(pathTimes, time.Since(t0))
		}
		return percentile(idTimes, 0.95), percentile(pathTimes, 0.95)
	}
	curID, curPath := reads(cur.RevisionID, rev.Pages)
	oldID, oldPath := reads(oldRevision, old.Pages)
	crID, crPath := reads(openCR.RevisionID, rev.Pages)

	size := dbSize()
	backend := "SQLite"
	if st.d.postgres {
		backend = "PostgreSQL"
	}
	b.Logf("%s, %d pages: ingest %.0f pages/s (%.0f pages per CPU-second), batch of 50 p50 %.1f ms, merge of 10 p50 %.1f ms (p95 %.1f), listPages p50 %.1f p95 %.1f ms (first %.1f ms), db %.1f MiB; "+
		"reads p95 by id/path: current %.2f/%.2f ms, old %.2f/%.2f ms, change request %.2f/%.2f ms",
		backend, n, float64(n)/ingest.Seconds(), float64(n)/ingestCPU.Seconds(), percentile(batchTimes, 0.5), percentile(mergeTimes, 0.5), percentile(mergeTimes, 0.95), percentile(listTimes, 0.5), percentile(listTimes, 0.95),
		float64(listTimes[0])/float64(time.Millisecond), float64(size)/(1<<20), curID, curPath, oldID, oldPath, crID, crPath)
	for b.Loop() {
		// The figures above are the benchmark: one ingest is the unit measured.
	}
	b.ReportMetric(float64(n)/ingest.Seconds(), "ingest-pages/s")
	b.ReportMetric(float64(n)/ingestCPU.Seconds(), "ingest-pages/cpu-s")
	b.ReportMetric(percentile(batchTimes, 0.5), "batch50-p50-ms")
	b.ReportMetric(percentile(mergeTimes, 0.5), "merge10-p50-ms")
	b.ReportMetric(percentile(listTimes, 0.95), "listPages-p95-ms")
	b.ReportMetric(float64(listTimes[0])/float64(time.Millisecond), "listPages-first-ms")
	b.ReportMetric(float64(size)/(1<<20), "db-MiB")
	b.ReportMetric(max(curID, curPath), "read-current-p95-ms")
	b.ReportMetric(max(oldID, oldPath), "read-old-p95-ms")
	b.ReportMetric(max(crID, crPath), "read-cr-p95-ms")
}
