// Package postgres is quire's backend for several stateless nodes on one database: it links pgx
// (as a database/sql driver) and opens the SQL store of store/sqlstore on a PostgreSQL database.
// It is the only package that imports pgx; it must never import the server or the SQLite driver.
//
// # Running on PostgreSQL
//
// SQLite (a file, `--db ./quire.db`) is the default. To run several stateless quire processes
// behind a load balancer, give each the same PostgreSQL database (15 or later) as a URL:
//
//	createdb --locale=C --template=template0 quire      # byte-order text, as SQLite sorts
//	quire users create --db postgres://quire:secret@db.internal:5432/quire?sslmode=require --email … --name …
//	quire serve --db postgres://quire:secret@db.internal:5432/quire?sslmode=require --base-url https://docs.example.com
//
// Any `postgres://` or `postgresql://` URL selects PostgreSQL (pgx v5; every libpq URL parameter
// pgx knows, `sslmode` included); anything else is a SQLite file. Every command that takes `--db`
// takes a URL. Other URL parameters are settings of the connections: quire adds `jit=off` (its
// statements are short; compiling one cost more than running it) and `synchronize_seqscans=off`
// (a search for a common word answers the first matches of the table, not those after wherever
// another scan stopped), each unless the URL sets it. Migrations (`store/sqlstore/migrations/`,
// one history for both engines) run at start under an advisory lock, so nodes starting together
// apply them once. An unreachable database stops `quire serve` at once with one line naming the
// host and the cause; connections lost while serving answer 503 (the JSON error shape) and the
// pool reconnects. A test cluster: `testdata/postgres/cluster.sh start DIR` (prints its URL)
// and `stop DIR`; `make test` uses one of its own.
//
// What changes with several nodes:
//
//   - Every write runs in one SERIALIZABLE transaction, retried when it loses to a concurrent one
//     (up to 12 times; from the third attempt it runs alone under an advisory lock, so heavy
//     contention slows writes down rather than failing them): change-request numbers stay gapless,
//     merges of one space are serialized (of two merges touching one page, one merges and the other
//     answers conflicts), slugs stay unique.
//   - Nothing a node keeps in memory can go stale through another node's write: the space cache
//     serves an entry only while the cluster's count of committed writes (a sequence each write
//     takes the next value of once committed, before it returns) is the one the entry was read
//     at. A node serving reads holds a lease, renewed every 5 ms with the count it has seen, and
//     checks cached reads against that count without a query; a write returns only once every
//     node holding a lease has seen its count or that lease has ended (at most 500 ms after its
//     node stopped renewing). A node without a lease takes the count from a query begun after the
//     read did (sqlstore's cache.go and lease.go). The page-version cache holds rows that
//     never change. The one exception is kept as on a single node: a revoked API token is refused
//     by every node within 10 seconds (each node's token cache). Upgrade every node together: a
//     node of an earlier version writes without counting, or without waiting for leases.
//   - Durable jobs are claimed with `FOR UPDATE SKIP LOCKED` and a 10-minute lease: each runs once,
//     a job whose node died is taken up by another after the lease; recurring jobs are scheduled once
//     whatever the number of nodes. The visitor-token secret and every setting live in the database.
//   - `--rate-limit` is one budget for all nodes: each node counts locally and, at most once a
//     second per token, adds its count to the token's row for the minute and reads back the total
//     (nodes may together overshoot by what the others admit within that second).
//   - Search uses PostgreSQL's full-text search (tsvector with the `simple` configuration, GIN
//     indexes), with the same fallback as SQLite (all the words, then the last one as a prefix, then
//     any of them); titles still weigh four times the body, but ts_rank scores differ from bm25's,
//     so pages of equal standing may come in another order. quire before issue 24 could write
//     wrongly folded words into this index under concurrent load: `quire search-index check --db URL`
//     says whether an index needs mending (exit 1, naming the spaces), and `quire search-index rebuild
//     --db URL` indexes every space again while the nodes keep serving. The search tables carry no
//     foreign keys (each inserted row cost an internal query, 4,000 in a 1,000-page merge): their
//     rows go with the space, page or section they index by triggers that run once per statement.
//   - Backups: `quire backup` and `restore` copy SQLite files and refuse a URL. Back up PostgreSQL with
//     its own tools while the nodes keep serving: `pg_dump -Fc -f quire.dump URL`, restored with
//     `pg_restore -d URL quire.dump` into an empty database. `quire export` works on both.
package postgres
