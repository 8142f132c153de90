package sqlstore

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Full-text search on PostgreSQL: search_fts and search_titles hold tsvectors (GIN-indexed) of
// the 'simple' configuration, which only splits words, as FTS5's unicode61 does. Text is
// lower-cased and stripped of diacritics here, before PostgreSQL sees it (FTS5's
// remove_diacritics; PostgreSQL's own lower-casing follows the database's locale). Ranking keeps
// SQLite's intent: ts_rank with titles weighing four times the body, negated so that lower is
// better as with bm25. Scores differ from bm25's, so pages of equal standing may come in another
// order than on SQLite; the fallback all words → prefix → any word is the same.
//
// The searches bound the ids with `id + 0 BETWEEN`, not `id BETWEEN`: the statements are
// prepared, and after a few runs PostgreSQL may plan them once for any words (a generic plan),
// which with a bare id range walked the space's rows in key order testing each against the query
// — every row of the space for a rare word (26 ms at 20,000 pages, issue 31). Hiding the range
// from the primary key leaves the plans that fit any words: the GIN index, or for a word in most
// rows a scan that the LIMIT stops early.

const (
	// The select lists of the index's row sets (rowSet.pgSelect): a section's tsvector weighs
	// its title (A) above its body (B).
	pgSectionFTS = `id, setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'B'), scope`
	pgTitleFTS   = `id, to_tsvector('simple', title), scope`
	// pgSearch finds a query's titles (0) and sections (1) in one round trip: the first ?3
	// matches of each (searchCandidates), by id only. As on SQLite (sqliteSearchSections) a
	// table's matches are ranked only when they are fewer than ?3, each then read again by its
	// key for ts_rank: checking a row costs reading its tsvector, so a query too common to rank
	// reads each candidate once.
	// The range of ids is the space's (?2), read from search_spaces in the statement, or any
	// with ?2 empty (an organization's search, scoped by ?4).
	//
	// set_config (of a setting nothing reads, for this statement only) is there for its being
	// PARALLEL UNSAFE: a query that calls it is never planned in parallel. At 100,000 pages the
	// planner, which cannot tell how many rows the range keeps, chose a parallel scan for a
	// common word, whose workers took 100 ms to start on a busy machine, for 500 rows.
	pgSearch = `WITH b AS (SELECT key << 34 AS tlo, ((key + 1) << 34) - 1 AS thi, key << 40 AS slo, ((key + 1) << 40) - 1 AS shi
			FROM search_spaces WHERE space_id = ?2 AND set_config('quire.search', 'serial', true) <> ''
			UNION ALL SELECT 0, 9223372036854775807, 0, 9223372036854775807 WHERE ?2 = ''),
		t AS MATERIALIZED (SELECT id FROM search_titles WHERE tsv @@ to_tsquery('simple', ?1)
			AND id + 0 BETWEEN (SELECT tlo FROM b) AND (SELECT thi FROM b) AND (?4 = '' OR scope = ?4) LIMIT ?3),
		s AS MATERIALIZED (SELECT id FROM search_fts WHERE tsv @@ to_tsquery('simple', ?1)
			AND id + 0 BETWEEN (SELECT slo FROM b) AND (SELECT shi FROM b) AND (?4 = '' OR scope = ?4) LIMIT ?3)
		SELECT 0, id, CASE WHEN (SELECT count(*) FROM t) < ?3
			THEN (SELECT -ts_rank(f.tsv, to_tsquery('simple', ?1)) FROM search_titles f WHERE f.id = t.id) END FROM t
		UNION ALL
		SELECT 1, id, CASE WHEN (SELECT count(*) FROM s) < ?3
			THEN (SELECT -ts_rank('{0, 0, 0.25, 1}', f.tsv, to_tsquery('simple', ?1)) FROM search_fts f WHERE f.id = s.id) END FROM s`
)

// PlanEachTime gives the driver's argument (store/postgres: pgx's QueryExecModeCacheDescribe)
// that makes it send a statement unnamed, so that PostgreSQL plans it with its values each time.
// The search needs it: prepared, PostgreSQL switches after five runs to one plan for any words,
// through the GIN index, which for a word in every page reads every match of the table (25 ms
// at 100,000 pages where the scan the LIMIT stops takes 4).
func (s *Store) PlanEachTime(arg any) { s.replan = arg }

// ftsText is text as the PostgreSQL index holds it: lower-cased, without diacritics (decomposed,
// combining marks dropped, composed again). It keeps no state between calls: searches and merges
// call it on many goroutines at once. (A package-level transform.Chain did this until issue 24:
// a Chain keeps buffers between calls, so concurrent calls panicked, sent PostgreSQL garbled
// text, or indexed wrong words without an error; `quire search-index` mends such an index.)
func ftsText(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if r < 0x300 || !unicode.Is(unicode.Mn, r) { // no combining mark lies below U+0300
			b.WriteRune(r)
		}
	}
	return strings.ToLower(norm.NFC.String(b.String()))
}

// tsQuery is a tsquery of all (or, with either, any) of the words; with prefix the last one
// also matches as a prefix. Words are letters and digits only (store.SearchTokens).
func tsQuery(words []string, either, prefix bool) string {
	parts := make([]string, 0, len(words))
	for _, w := range words {
		if w = ftsText(w); w != "" {
			parts = append(parts, w)
		}
	}
	if len(parts) == 0 {
		return "''"
	}
	if prefix {
		parts[len(parts)-1] += ":*"
	}
	op := " & "
	if either {
		op = " | "
	}
	return strings.Join(parts, op)
}
