package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/quire-docs/quire/store"
)

// Store is the SQL store on either engine: a writer pool and a pool of read-only readers. On
// SQLite the writer is one connection (SQLite allows one writer at a time, so a single connection
// serialises writes without busy retries); on PostgreSQL both are pools and writes are
// SERIALIZABLE transactions, retried when they lose to a concurrent one (see write).
type Store struct {
	writer *db
	reader *db
	d      *dialect
	// Clock is the clock every write and every expiry check reads (through Now); tests replace it.
	Clock func() time.Time

	version dataVersion
	shared  *sharedVersion // PostgreSQL's: the cluster's write count (cache.go)
	leases  *leases        // PostgreSQL's: reads checked without asking it (lease.go)
	upkeep  *searchUpkeep  // PostgreSQL's (searchupkeep.go)
	// catchUp brings search indexes that writes left behind up to date (searchbehind.go).
	catchUp *searchCatchUp
	// checkpointer is SQLite's: the WAL checkpointed after commits, off the writer (checkpoint.go).
	checkpointer *walCheckpointer
	spaceCache   versionedCache[spaceForUser]
	// The access rules' reads of a request: a member's grants, an organization's collections.
	grantsCache versionedCache[store.Grants]
	levelsCache versionedCache[store.Levels]
	commitCache versionedCache[*store.GitCommit] // a revision's, which a cached page list is keyed by
	behindCache versionedCache[[]string]         // the spaces of a search's scope whose index is behind (searchbehind.go)
	versions    versionCache
	sections    sectionCache
	// replan, on PostgreSQL, is the driver's argument that has a statement planned with its
	// values each time (PlanEachTime).
	replan any
	// candidateBound, when not 0, replaces searchCandidates (tests lower it).
	candidateBound int
}

// Close closes both pools.
func (s *Store) Close() error {
	if s.catchUp != nil { // first: a catch-up's commit may ask for an upkeep
		s.catchUp.close()
	}
	if s.upkeep != nil {
		s.upkeep.close()
	}
	if s.leases != nil {
		s.leases.close()
	}
	if s.checkpointer != nil {
		s.checkpointer.close()
	}
	if s.reader.DB == s.writer.DB {
		return s.writer.Close()
	}
	rerr := s.reader.Close()
	if err := s.writer.Close(); err != nil {
		return err
	}
	return rerr
}

// Now is the time the store's clock reads.
func (s *Store) Now() time.Time { return s.Clock() }

// Tx is a write transaction carrying the one instant all its rows are stamped with.
type Tx struct {
	txConn
	now time.Time
	// inserted counts the rows written into the PostgreSQL tables the upkeep after the commit
	// looks after, by table (searchupkeep.go).
	inserted map[string]int
	// chains holds the chains of the revisions the transaction read, by revision id: a merge
	// reads those of its three revisions many times. A write to lines drops them (dropChains).
	chains map[string]chain
	// sections is the store's cache of the search sections of bodies written (sectioncache.go).
	sections *sectionCache
	// behind names the spaces whose search index the transaction left behind (searchbehind.go).
	behind []string
}

// dropChains forgets the chains read: lines went.
func (tx *Tx) dropChains() { tx.chains = nil }

// movedHead keeps the chains read as reading them again would answer after a line's head moved
// (a merge reads the chains of its revisions again once it wrote one). The chains views hold are
// left as they were read.
func (tx *Tx) movedHead(line, head int64) {
	for rev, c := range tx.chains {
		if i := slices.IndexFunc(c, func(el lineRef) bool { return el.line == line }); i >= 0 {
			c = slices.Clone(c)
			c[i].head = head
			tx.chains[rev] = c
		}
	}
}

// maxWriteAttempts bounds how often a PostgreSQL write that lost to a concurrent one is run again.
const maxWriteAttempts = 12

// contendedAttempt is the attempt from which a PostgreSQL write that keeps losing takes the
// writers' advisory lock exclusively (every other write holds it shared for its transaction): it
// then runs alone, as every write does on SQLite, and cannot lose again, so heavy contention
// degrades to one write at a time instead of to failures.
const contendedAttempt = 3

// writersLock is the advisory lock key of contended writes.
const writersLock = 0x71756973

// write runs fn in a write transaction and commits it when fn returns nil. On SQLite the one
// writer connection serialises writes. On PostgreSQL the transaction is SERIALIZABLE, so the
// read-modify-write of fn behaves as if it ran alone (gapless numbers, unique slugs, one merge
// of a space at a time); one that loses to a concurrent transaction (SQLSTATE 40001, 40P01) is
// rolled back and fn runs again after a short jittered pause, a bounded number of times.
func (s *Store) write(ctx context.Context, fn func(tx *Tx) error) error {
	if !s.d.postgres {
		return s.writeOnce(ctx, nil, false, fn)
	}
	opts := &sql.TxOptions{Isolation: sql.LevelSerializable}
	for attempt := 1; ; attempt++ {
		err := s.writeOnce(ctx, opts, attempt >= contendedAttempt, fn)
		if err == nil || !retryable(err) || attempt == maxWriteAttempts {
			return err
		}
		wait := time.Duration(1+rand.IntN(min(attempt*attempt, 25)*2)) * time.Millisecond
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

func (s *Store) writeOnce(ctx context.Context, opts *sql.TxOptions, contended bool, fn func(tx *Tx) error) error {
	begin := s.writer.BeginTx
	if contended {
		// The lock is taken on the connection before the transaction begins: a transaction's
		// snapshot dates from its first statement, and one taken while waiting would be stale.
		conn, err := s.writer.Conn(ctx)
		if err != nil {
			return fmt.Errorf("store: unable to begin: %w", err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, writersLock); err != nil {
			return fmt.Errorf("store: unable to begin: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, writersLock)
		begin = conn.BeginTx
	}
	sqlTx, err := begin(ctx, opts)
	if err != nil {
		return fmt.Errorf("store: unable to begin: %w", err)
	}
	if s.d.postgres && !contended {
		if _, err := sqlTx.ExecContext(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, writersLock); err != nil {
			sqlTx.Rollback()
			return fmt.Errorf("store: unable to begin: %w", err)
		}
	}
	tx := &Tx{txConn: newTxConn(sqlTx, s.d), now: s.Now().UTC(), sections: &s.sections}
	if err := runAudited(ctx, tx, fn); err != nil {
		sqlTx.Rollback()
		return err
	}
	err = sqlTx.Commit()
	// Bumped even when the commit fails: whether it took effect is not known for sure.
	s.version.bump()
	if s.leases != nil {
		if berr := s.leases.counted(ctx); berr != nil && err == nil {
			// Committed, but other nodes' caches may still serve what it replaced: the caller
			// hears of a failure, as for a commit whose outcome is unknown.
			return fmt.Errorf("store: committed, but unable to count the write for other nodes: %w", berr)
		}
	}
	if err != nil {
		return fmt.Errorf("store: unable to commit: %w", err)
	}
	if len(tx.inserted) > 0 && s.upkeep != nil {
		s.upkeep.note(tx.inserted)
	}
	if len(tx.behind) > 0 && s.catchUp != nil {
		s.catchUp.note(tx.behind)
	}
	if s.checkpointer != nil {
		s.checkpointer.committed()
	}
	if r := store.AuditFrom(ctx); r != nil {
		r.MarkRecorded()
	}
	return nil
}

// runAudited runs fn and, when the context carries an audit record its request has not yet
// committed, inserts it in the same transaction. Its organization is looked for before fn (a
// delete may remove what leads to it) and, when not found, after (a creation makes it).
func runAudited(ctx context.Context, tx *Tx, fn func(tx *Tx) error) error {
	r := store.AuditFrom(ctx)
	if r == nil || r.Recorded() {
		return fn(tx)
	}
	org, err := auditOrganization(ctx, tx, r)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return err
	}
	if org == "" {
		if org, err = auditOrganization(ctx, tx, r); err != nil || org == "" {
			return err
		}
	}
	return recordAudit(ctx, tx, r, org)
}

// auditOrganization finds the organization a record belongs to from its scope ("" for none).
func auditOrganization(ctx context.Context, tx *Tx, r *store.AuditRecord) (string, error) {
	// The first of the record's references that leads to an organization, in this order. Only
	// those it has are in the statement: with a parameter for each, always NULL but one,
	// PostgreSQL planned the statement again at every write (0.4 ms), its plan for the NULLs at
	// hand looking cheaper than the one for any values.
	var leads []string
	var args []any
	for _, ref := range []struct{ val, lead string }{
		{r.OrganizationID, `?`},
		{r.SpaceID, `(SELECT organization_id FROM spaces WHERE id = ?)`},
		{r.CollectionID, `(SELECT organization_id FROM collections WHERE id = ?)`},
		{r.InstallationID, `(SELECT organization_id FROM integration_installations WHERE id = ?)`},
		{r.IntegrationName, `(SELECT organization_id FROM integrations WHERE name = ?)`},
		{r.Hostname, `(SELECT organization_id FROM sites WHERE hostname = ?)`},
	} {
		if ref.val != "" {
			leads = append(leads, ref.lead)
			args = append(args, ref.val)
		}
	}
	if len(leads) == 0 {
		return "", nil
	}
	lead := leads[0]
	if len(leads) > 1 {
		lead = `COALESCE(` + strings.Join(leads, ", ") + `)` // SQLite's takes two or more
	}
	var org string
	err := tx.QueryRowContext(ctx, `SELECT id FROM organizations WHERE id = `+lead, args...).Scan(&org)
	if err == sql.ErrNoRows {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to find the audit event's organization: %w", err)
	}
	return org, nil
}

// recordAudit inserts a request's event into the transaction, once per request: the event's id
// is the request's, so a second transaction of the request inserts nothing.
func recordAudit(ctx context.Context, tx *Tx, r *store.AuditRecord, org string) error {
	payload, err := json.Marshal(r.Payload)
	if err != nil || r.Payload == nil {
		payload = []byte("{}")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO audit_events (id, organization_id, occurred_at, action, source,
			actor_type, actor_id, actor_label, target_type, target_id, target_label, request_id, payload)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		r.ID, org, formatTime(tx.now), r.Action, r.Source, r.Actor.Type, r.Actor.ID, r.Actor.Label,
		r.Target.Type, r.Target.ID, r.Target.Label, r.RequestID, string(payload)); err != nil {
		return fmt.Errorf("store: unable to record the audit event: %w", err)
	}
	return nil
}

// querier is what read helpers need: the reader pool, or a transaction so a write can read its
// own rows (and a snapshot reads one state of the database).
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// pointRead detaches a context's cancellation for an indexed single-row read: it takes
// microseconds, and a cancellable context costs a goroutine and a cancel hook per query.
func pointRead(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

const timeLayout = "2006-01-02T15:04:05.000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) time.Time {
	// The store writes one fixed layout; reading it by hand is several times faster than
	// time.Parse, which matters when a revision's thousands of pages are loaded.
	if len(s) == len(timeLayout) && s[4] == '-' && s[10] == 'T' && s[19] == '.' && s[26] == 'Z' {
		n := func(from, to int) (int, bool) {
			v := 0
			for i := from; i < to; i++ {
				c := s[i]
				if c < '0' || c > '9' {
					return 0, false
				}
				v = v*10 + int(c-'0')
			}
			return v, true
		}
		y, ok1 := n(0, 4)
		mo, ok2 := n(5, 7)
		d, ok3 := n(8, 10)
		h, ok4 := n(11, 13)
		mi, ok5 := n(14, 16)
		sec, ok6 := n(17, 19)
		us, ok7 := n(20, 26)
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 {
			return time.Date(y, time.Month(mo), d, h, mi, sec, us*1000, time.UTC)
		}
	}
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		t, _ = time.Parse(time.RFC3339Nano, s)
	}
	return t
}

func parseNullTime(s sql.NullString) *time.Time {
	if !s.Valid {
		return nil
	}
	t := parseTime(s.String)
	return &t
}

func nullString(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func stringPtr(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	v := s.String
	return &v
}

// likeContains is the LIKE pattern (backslash as escape) matching values that contain s.
func likeContains(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// jsonStrings encodes ids as a JSON array, for `IN (SELECT value FROM json_each(?))`.
func jsonStrings(ids []string) string {
	if ids == nil {
		return "[]"
	}
	b, _ := json.Marshal(ids)
	return string(b)
}

// The SQL store keeps the whole contract, on both engines.
var _ store.Store = (*Store)(nil)

// Backend names the database the store runs on.
func (s *Store) Backend() string {
	if s.d.postgres {
		return "postgres"
	}
	return "sqlite"
}
