package sqlstore

import (
	"context"
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
// analyzes the search tables when it has inserted a tenth of their rows since it last did. The
// writes do not wait for it; searches find a short list. At most one upkeep runs per node at a
// time, writes committed meanwhile gather into the next. It is an optimisation: when it cannot
// run (a failure, or a role that does not own the tables), autovacuum still does the same later.

// searchUpkeepTables are the GIN-indexed search tables, which a rowSet counts the rows of.
var searchUpkeepTables = map[string]bool{"search_fts": true, "search_titles": true}

// The upkeep's statements, one per table.
var (
	searchCleanPending = []string{`SELECT gin_clean_pending_list('search_fts_tsv'::regclass)`,
		`SELECT gin_clean_pending_list('search_titles_tsv'::regclass)`}
	searchAnalyze = []string{`ANALYZE search_fts`, `ANALYZE search_titles`}
)

type searchUpkeep struct {
	// run makes an upkeep, and answers the search tables' rows when it analyzed them.
	run func(ctx context.Context, analyze bool) (tableRows int, ok bool)

	mu           sync.Mutex
	running      bool
	pending      bool // rows were committed since the running upkeep began
	sinceAnalyze int  // rows this node inserted since its last ANALYZE
	tableRows    int  // the tables' rows at the last ANALYZE (pg_class.reltuples), -1 before one
	wg           sync.WaitGroup
}

// analyzeAfterRows is the fewest inserted rows that make an ANALYZE worth it.
const analyzeAfterRows = 1000

// note records rows committed into the search tables and starts an upkeep unless one runs.
func (u *searchUpkeep) note(rows int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.sinceAnalyze += rows
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
		analyze := u.sinceAnalyze >= analyzeAfterRows && u.sinceAnalyze*10 >= u.tableRows
		if analyze {
			u.sinceAnalyze = 0
		}
		u.pending = false
		u.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		rows, ok := u.run(ctx, analyze)
		cancel()

		u.mu.Lock()
		if ok {
			u.tableRows = rows
		}
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

// upkeepSearch moves the search indexes' pending lists into the indexes and, when asked,
// analyzes the search tables and answers their rows. Failures are left to autovacuum.
func (p *db) upkeepSearch(ctx context.Context, analyze bool) (int, bool) {
	for _, q := range searchCleanPending {
		p.ExecContext(ctx, q)
	}
	if !analyze {
		return 0, false
	}
	for _, q := range searchAnalyze {
		p.ExecContext(ctx, q)
	}
	var rows float64
	if err := p.QueryRowContext(ctx, `SELECT reltuples FROM pg_class WHERE oid = 'search_fts'::regclass`).Scan(&rows); err != nil {
		return 0, false
	}
	return int(rows), true
}
