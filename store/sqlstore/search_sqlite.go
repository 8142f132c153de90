package sqlstore

import "strings"

// Full-text search on SQLite: the FTS5 tables search_fts (sections) and search_titles (page
// titles) of migration 0003 (search_fts made again with detail=full in 0030: bm25 needs
// positions), ranked by bm25 (lower is better), scoped by an o<org> token.

const (
	sqliteInsertSectionFTS = `INSERT INTO search_fts (rowid, title, body, scope) VALUES (?, ?, ?, ?)`
	sqliteInsertTitleFTS   = `INSERT INTO search_titles (rowid, title, scope) VALUES (?, ?, ?)`
	// The searches read the first ?4 matches of the range (searchCandidates) and answer their
	// ranks only when they are fewer: the CASE leaves bm25 uncalled otherwise, and with it
	// bm25's first call, which counts the word's rows over the whole table (the cost that grew
	// with the corpus). The scalar subquery runs once and walks at most ?4 rowids.
	sqliteSearchTitles = `SELECT rowid, CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM search_titles
		WHERE search_titles MATCH ?1 AND rowid BETWEEN ?2 AND ?3 LIMIT ?4)) < ?4 THEN rank END
		FROM search_titles WHERE search_titles MATCH ?1 AND rowid BETWEEN ?2 AND ?3 LIMIT ?4`
	sqliteSearchSections = `SELECT rowid, CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM search_fts
		WHERE search_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3 LIMIT ?4)) < ?4 THEN rank END
		FROM search_fts WHERE search_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3 LIMIT ?4`
)

// ftsQuery is an FTS5 expression matching all (or, with either, any) of the words, within an
// organization's scope when org is not empty; with prefix the last word also matches as a prefix,
// for search as you type.
func ftsQuery(org string, words []string, either, prefix bool) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = `"` + w + `"`
	}
	if prefix {
		quoted[len(quoted)-1] += "*"
	}
	op := " "
	if either {
		op = " OR "
	}
	expr := "(" + strings.Join(quoted, op) + ")"
	if org != "" {
		expr = `scope : "o` + org + `" AND ` + expr
	}
	return expr
}
