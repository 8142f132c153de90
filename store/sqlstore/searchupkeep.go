package sqlstore

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"
)

// Upkeep of PostgreSQL's search indexes after writes (issue 31). Rows inserted into a GIN index
// go to its pending list first (fastupdate), a list every search reads in full until it is moved
// into the index proper: by autovacuum, on its own schedule, or by the insert that finds it past
// gin_pending_list_limit (4 MB), inside that transaction. After an ingest of 20,000 pages the list
// held 265 pages: every search read them all (a rare word 0.1 ms → 47 ms), and the merge that
// overflowed it paid the move. A table grown from nothing has no statistics either, until
// autovacuum analyzes it: the planner then guesses a common word is rare, and builds a bitmap of
// every row instead of a scan that its LIMIT stops early.
//
// So a node that committed search rows moves the pending lists right after the commit, on a
// goroutine of its own (gin_clean_pending_list: the move autovacuum makes, in bulk), and
// analyzes a table of pages or search rows when it has inserted as many rows as it held when it
// last did (so a table of 20,000 rows is analyzed 5 times on its way there, at 1,000, 2,000,
// 4,000, 8,000 and 16,000: the statistics the planner reads are fractions of the rows, which it
// scales by the table's size at each plan). The writes do not wait for it; searches find a short
// list. At most one upkeep runs per node at a time, writes committed meanwhile gather into the
// next. It is an optimisation: when it cannot run (a failure, or a role that does not own the
// tables), autovacuum still does the same later.

// upkeepAnalyze is, for each table whose inserted rows a rowSet counts, its ANALYZE: the tables
// that grow by thousands of rows in one request and that the planner reads by more than their
// key. Until autovacuum analyzes a table grown from nothing the planner guesses: page_versions'
// line of 20,000 pages looked like a few rows (a search's read of 20 pages by id then filtered the
// whole line: 13 ms a query instead of a probe of its unique index), and page_links looked like
// 144 links a version (a merge's copy of ten pages' links hashed all 42,000 links of the database:
// 12–28 ms, where the key finds ten in 0.1 ms). page_bodies and search_sections are left out:
// they are read only by key, which the planner probes without statistics, and their ANALYZE
// reads their text (200–300 ms each at 20,000 pages). TestUpkeepAnalyzesWhatWritesGrow checks
// each table named here.
var upkeepAnalyze = map[string]string{
	"page_links":    `ANALYZE page_links`,
	"page_versions": `ANALYZE page_versions`,
	"search_fts":    `ANALYZE search_fts`,
	"search_pages":  `ANALYZE search_pages`,
	"search_titles": `ANALYZE search_titles`,
}

// searchCleanPending moves the search indexes' pending lists into the indexes.
var searchCleanPending = []string{`SELECT gin_clean_pending_list('search_fts_tsv'::regclass)`,
	`SELECT gin_clean_pending_list('search_titles_tsv'::regclass)`}

type searchUpkeep struct {
	// run makes an upkeep: the pending lists moved when clean, the tables analyze named
	// analyzed; it answers the rows of each table it analyzed.
	run  func(ctx context.Context, clean bool, analyze []string) map[string]int
	runs coalescing

	mu        sync.Mutex
	clean     bool           // search rows were committed since the last move
	since     map[string]int // rows this node inserted in each table since its last ANALYZE of it
	tableRows map[string]int // each table's rows at its last ANALYZE (pg_class.reltuples)
}

// analyzeAfterRows is the fewest inserted rows that make an ANALYZE worth it.
const analyzeAfterRows = 1000

// note records rows committed, by table, and has an upkeep run (coalescing.go).
func (u *searchUpkeep) note(inserted map[string]int) {
	u.mu.Lock()
	if u.since == nil {
		u.since, u.tableRows = map[string]int{}, map[string]int{}
	}
	for table, n := range inserted {
		u.since[table] += n
		if table == "search_fts" || table == "search_titles" { // the tables of searchCleanPending's indexes
			u.clean = true
		}
	}
	u.mu.Unlock()
	u.runs.ask(u.once)
}

// once makes an upkeep of what the commits noted since the last one call for.
func (u *searchUpkeep) once() {
	u.mu.Lock()
	var analyze []string
	for table, n := range u.since {
		if n >= analyzeAfterRows && n >= u.tableRows[table] {
			analyze = append(analyze, table)
			u.since[table] = 0
		}
	}
	slices.Sort(analyze)
	clean := u.clean
	u.clean = false
	u.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	rows := u.run(ctx, clean, analyze)
	cancel()

	u.mu.Lock()
	maps.Copy(u.tableRows, rows)
	u.mu.Unlock()
}

// wait returns once no upkeep runs (tests).
func (u *searchUpkeep) wait() { u.runs.wait() }

// close lets an upkeep under way finish and refuses more (Close).
func (u *searchUpkeep) close() { u.runs.close() }

// upkeepSearch moves the search indexes' pending lists into the indexes when asked, analyzes
// the tables named, and answers their rows. Failures are left to autovacuum.
func (p *db) upkeepSearch(ctx context.Context, clean bool, analyze []string) map[string]int {
	if clean {
		for _, q := range searchCleanPending {
			p.ExecContext(ctx, q)
		}
	}
	rows := map[string]int{}
	for _, table := range analyze {
		if _, err := p.ExecContext(ctx, upkeepAnalyze[table]); err != nil {
			continue
		}
		var n float64
		if err := p.QueryRowContext(ctx, `SELECT reltuples FROM pg_class WHERE oid = CAST(? AS regclass)`, table).Scan(&n); err == nil {
			rows[table] = int(n)
		}
	}
	return rows
}
