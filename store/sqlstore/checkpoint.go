package sqlstore

import (
	"context"
	"database/sql"
	"time"
)

// Checkpoints of SQLite's write-ahead log, off the request path (issue 31). A commit appends the
// pages it changed to the WAL; a checkpoint copies them back into the database file and syncs it.
// SQLite's own (wal_autocheckpoint, 1,000 pages) runs inside the commit that crosses the bound:
// a merge of 10 pages writes about 450 WAL pages, so every other one also copied 3 MB into the
// database file and waited for its fsync before it answered.
//
// So the writer's automatic checkpoint is raised to a backstop (walBackstopPages: it runs only
// when the goroutine here falls behind), and a node that committed runs a PASSIVE checkpoint on a
// connection of its own shortly after: it copies what no reader still needs, never blocks the
// writer or a reader, and lets the next commit start the log again from its beginning. Commits
// made while one runs gather into the next; walCheckpointDelay gathers a burst of commits, so a
// page several of them rewrite is copied once. Durability is unchanged: a commit is synced in the
// WAL (synchronous=FULL) before it returns, and the database file is whole whether or not a
// checkpoint has run.

// walBackstopPages is the writer's wal_autocheckpoint: the WAL pages past which the committing
// writer checkpoints by itself, as SQLite would without the goroutine.
const walBackstopPages = 20000

// walCheckpointDelay is how long the checkpointer waits after a commit for more.
const walCheckpointDelay = 20 * time.Millisecond

type walCheckpointer struct {
	conn *sql.DB // one connection that only checkpoints
	runs coalescing
}

func newWALCheckpointer(conn *sql.DB) *walCheckpointer {
	return &walCheckpointer{conn: conn, runs: coalescing{delay: walCheckpointDelay}}
}

// committed notes a commit and has a checkpoint run soon (coalescing.go).
func (c *walCheckpointer) committed() { c.runs.ask(c.checkpoint) }

func (c *walCheckpointer) checkpoint() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A failure leaves the pages in the WAL, where reads find them; the next commit, or the
	// writer's own checkpoint past the backstop, copies them.
	c.conn.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
}

// close stops the checkpointer (a checkpoint under way finishes) and closes its connection. The
// pools' own close checkpoints what is left.
func (c *walCheckpointer) close() error {
	c.runs.close()
	return c.conn.Close()
}

// wait returns once no checkpoint is due or running (tests).
func (c *walCheckpointer) wait() { c.runs.wait() }
