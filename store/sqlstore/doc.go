// Package sqlstore implements the store contract in SQL, one text for both engines: SQLite (the
// embedded default, opened by store/sqlite) and PostgreSQL (several nodes on one database, opened by
// store/postgres). It links no driver: those two packages do. It knows nothing of HTTP: methods
// take a context and return store types or a *store.Error with a code the server maps to a status.
// It must never import the server.
//
// One file per entity area; the revision model (revisions.go, revisionwrite.go, versions.go);
// migrations per dialect (migrations/sqlite/, migrations/postgres/; store/postgres's
// TestSchemasAgree checks that the two make the same schema); dialect.go, how one SQL text runs on
// both (placeholders rebound, a few SQLite spellings rewritten for PostgreSQL); search in
// search*.go (FTS5 on SQLite, tsvectors on PostgreSQL; searchcheck.go checks and rebuilds the
// index).
//
// Lists take one path: every list of the package is a `listQuery` (listquery.go) of
// constant SQL fragments, a filter adding its condition only when it is set (plain predicates, which
// PostgreSQL's planner matches to the indexes), the count from the same conditions, and a keyset page
// of `limit`+1 rows after the cursor, which holds the order's keys of the last item (opaque,
// base64 JSON; cursors issued by earlier versions still resume). Rows are read through one loop
// (`queryEach`, and `queryAll`/`queryInto` on it), but for the content model's page versions.
package sqlstore
