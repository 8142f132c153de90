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
// analyzes a search table, or page_versions, when it has inserted a tenth of its rows since it
// last did. The
// writes do not wait for it; searches find a short list. At most one upkeep runs per node at a
// time, writes committed meanwhile gather into the next. It is an optimisation: when it cannot
// run (a failure, or a role that does not own the tables), autovacuum still does the same later.

// upkeepAnalyze is, for each table whose inserted rows a rowSet counts, its ANALYZE: the search
// tables, and page_versions, whose line of 20,000 pages the planner took for a few rows until
// autovacuum got to it (a search's read of 20 pages by id then filtered the whole line: 13 ms a
// query instead of a probe of its unique index).
var upkeepAnalyze = map[string]string{
	"search_fts":    `ANALYZE search_fts`,
	"search_titles": `ANALYZE search_titles`,
	"page_versions": `ANALYZE page_versions`,
}

// searchCleanPending moves the search indexes' pending lists into the indexes.
var searchCleanPending = []string{`SELECT gin_clean_pending_list('search_fts_tsv'::regclass)`,
	`SELECT gin_clean_pending_list('search_titles_tsv'::regclass)`}

type searchUpkeep struct {
	// run makes an upkeep: the pending lists moved when clean, the tables analyze named
	// analyzed; it answers the rows of each table it analyzed.
	run func(ctx context.Context, clean bool, analyze []string) map[string]int

	mu        sync.Mutex
	running   bool
	pending   bool           // rows were committed since the running upkeep began
	clean     bool           // search rows were committed since the last move
	since     map[string]int // rows this node inserted in each table since its last ANALYZE of it
	tableRows map[string]int // each table's rows at its last ANALYZE (pg_class.reltuples)
	wg        sync.WaitGroup
}

// analyzeAfterRows is the fewest inserted rows that make an ANALYZE worth it.
const analyzeAfterRows = 1000

// note records rows committed, by table, and starts an upkeep unless one runs.
func (u *searchUpkeep) note(inserted map[string]int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.since == nil {
		u.since, u.tableRows = map[string]int{}, map[string]int{}
	}
	for table, n := range inserted {
		u.since[table] += n
		if table != "page_versions" {
			u.clean = true
		}
	}
	if u.running {
		u.pending = true
		return
	}
	u.running = true
	u.wg.Add(1)
	go u.loop()
}

func (u *searchUpkeep) loop() {
	defer u.wg.Done()
	for {
		u.mu.Lock()
		var analyze []string
		for table, n := range u.since {
			if n >= analyzeAfterRows && n*10 >= u.tableRows[table] {
				analyze = append(analyze, table)
				u.since[table] = 0
			}
		}
		slices.Sort(analyze)
		clean := u.clean
		u.clean, u.pending = false, false
		u.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		rows := u.run(ctx, clean, analyze)
		cancel()

		u.mu.Lock()
		maps.Copy(u.tableRows, rows)
		if !u.pending {
			u.running = false
			u.mu.Unlock()
			return
		}
		u.mu.Unlock()
	}
}

// wait returns once no upkeep runs (Close, and tests).
func (u *searchUpkeep) wait() { u.wg.Wait() }

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
