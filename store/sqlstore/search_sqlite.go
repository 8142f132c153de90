package sqlstore

import "strings"

// Full-text search on SQLite: the FTS5 tables search_fts (sections) and search_titles (page
// titles) of migration 0003 (search_fts made again with detail=full in 0030: bm25 needs
// positions), ranked by bm25 (lower is better), scoped by an o<org> token.

const (
	sqliteInsertSectionFTS = `INSERT INTO search_fts (rowid, title, body, scope) VALUES (?, ?, ?, ?)`
	sqliteInsertTitleFTS   = `INSERT INTO search_titles (rowid, title, scope) VALUES (?, ?, ?)`
	sqliteSearchTitles     = `SELECT rowid, rank FROM search_titles WHERE search_titles MATCH ?
		AND rowid BETWEEN ? AND ? LIMIT ?`
	sqliteSearchSections = `SELECT rowid, rank FROM search_fts WHERE search_fts MATCH ?
		AND rowid BETWEEN ? AND ? LIMIT ?`
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
