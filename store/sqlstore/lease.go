package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"sync"
	"time"
)

// Leases: how a PostgreSQL node stops asking the cluster's write count for every cached read
// (issue 31). Without one, a read takes the count from a query begun after it (sharedVersion):
// correct, but about a round trip per two GETs, and a round trip is most of a cached GET's cost.
//
// A node serving reads holds a lease: a row of quire_node_leases (migration 0063) that it
// renews every few milliseconds (leasePeriod) on a connection of its own, each renewal writing the lease's end
// (now() + leaseLength, the database's clock) and the count it reads in the same statement, and
// answering that count. While its lease runs the node checks cached reads against the last count
// a renewal answered, asking nothing. A write, once committed, takes the next count and checks
// in the same call (quire_count_write, its check a statement with a snapshot of its own) whether
// any other node's lease still runs with a count below it; if so it asks again every millisecond
// and returns only once each such node has renewed past it or its lease has run out. So a write
// that returned has been seen by every node that could answer without asking.
//
// Why a node may trust a renewal's count, and for how long:
//   - It trusts only until its renewal's start plus leaseLength (less a tenth for the two clocks'
//     rates): the lease the renewal wrote runs at least that long in the database's time, which
//     is what a writer compares. A writer that found the lease over returned after the node
//     stopped trusting it.
//   - It trusts a renewal's count only when the renewal before it succeeded and the new one
//     returned while the earlier lease still ran. A renewal's count may be read before a write
//     counted and its row committed after that writer looked: harmless while an earlier lease
//     covers the gap (the writer saw a running lease with an older count and waited), a stale
//     read if not. So after a failure or an idle spell the first renewal only takes the lease.
//   - A read arriving while a renewal is on its way waits for it: its row may already have let a
//     writer return, before its answer reached the node.
//   - A node's own writes raise its count before they return.
//
// A node renews only while it serves reads: after leaseLength without one it gives its lease
// back (trusting nothing first), so writers on other nodes wait for no idle node. A node that
// stops renewing (stalled, crashed, cut off) makes other nodes' writes wait at most until its
// lease ends. A renewal that fails ends the trust at once; reads then ask the count as before.
// The renewal connection commits asynchronously (synchronous_commit off): a lease lost in a
// database crash would end with it, and the crash breaks the renewal connection, which ends the
// node's trust within a renewal period, long before the database is back.

// leaseLength is how long a renewal's lease runs; leasePeriod how often a node renews while the
// count moves. While it does not, the pause between renewals doubles up to leaseQuietPeriod: an
// idle cluster's reading nodes cost a few statements a second, and the first write after a quiet
// spell waits longer for them.
const (
	leaseLength      = 500 * time.Millisecond
	leasePeriod      = 5 * time.Millisecond
	leaseQuietPeriod = 40 * time.Millisecond
)

type leases struct {
	db     *db
	node   string
	length time.Duration
	period time.Duration

	mu          sync.Mutex
	known       uint64        // the count trusted reads are checked against
	trustedTill time.Time     // zero when the node holds no lease it may trust
	renewing    chan struct{} // closed when the renewal on its way returns; nil when none is
	prevStart   time.Time     // when the last renewal that succeeded began; zero after a failure
	lastRead    time.Time
	running     bool
	closed      bool
	hold        chan struct{} // tests: the loop waits on it before each renewal
	conn        *sql.Conn
	wg          sync.WaitGroup
}

func newLeases(p *db) *leases {
	b := make([]byte, 8)
	rand.Read(b)
	return &leases{db: p, node: hex.EncodeToString(b), length: leaseLength, period: leasePeriod}
}

// trust is how long after a renewal began the node trusts its count.
func (l *leases) trust() time.Duration { return l.length - l.length/10 }

// version is the count a cached read may be checked against without asking the database; ok is
// false while the node has no lease it may trust (the read then asks).
func (l *leases) version(ctx context.Context) (uint64, bool) {
	l.mu.Lock()
	l.lastRead = time.Now()
	if !l.running && !l.closed {
		l.running = true
		l.wg.Add(1)
		go l.loop()
	}
	renewing := l.renewing
	l.mu.Unlock()
	if renewing != nil {
		select {
		case <-renewing:
		case <-ctx.Done():
			return 0, false
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if time.Now().Before(l.trustedTill) {
		return l.known, true
	}
	return 0, false
}

// loop renews the lease every period while reads come, and gives it back when they stop.
func (l *leases) loop() {
	defer l.wg.Done()
	pause := l.period
	for {
		l.mu.Lock()
		hold := l.hold
		l.mu.Unlock()
		if hold != nil {
			<-hold
		}
		l.mu.Lock()
		if l.closed || time.Since(l.lastRead) > l.length {
			l.trustedTill, l.prevStart = time.Time{}, time.Time{}
			l.mu.Unlock()
			l.release()
			l.mu.Lock()
			l.running = false // a read from now on starts another loop
			l.mu.Unlock()
			return
		}
		done := make(chan struct{})
		l.renewing = done
		l.mu.Unlock()

		start := time.Now()
		v, err := l.renew()
		end := time.Now()

		l.mu.Lock()
		if err != nil {
			l.trustedTill, l.prevStart = time.Time{}, time.Time{}
		} else {
			if v == l.known {
				pause = min(2*pause, leaseQuietPeriod)
			} else {
				pause = l.period
			}
			if !l.prevStart.IsZero() && end.Before(l.prevStart.Add(l.trust())) {
				l.known = max(l.known, v)
				l.trustedTill = start.Add(l.trust())
			}
			l.prevStart = start
		}
		l.renewing = nil
		close(done)
		l.mu.Unlock()
		time.Sleep(pause)
	}
}

// renewSQL extends the node's lease and records the count it reads, which it answers.
const renewSQL = `INSERT INTO quire_node_leases (node_id, lease_until, seen_version)
VALUES ($1, now() + $2 * interval '1 microsecond',
	(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM quire_data_version))
ON CONFLICT (node_id) DO UPDATE SET lease_until = EXCLUDED.lease_until, seen_version = EXCLUDED.seen_version
RETURNING seen_version`

// renew renews the lease on the loop's own connection, opened (asynchronous commits) when none is.
func (l *leases) renew() (uint64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), l.length)
	defer cancel()
	if l.conn == nil {
		conn, err := l.db.Conn(ctx)
		if err != nil {
			return 0, err
		}
		if _, err := conn.ExecContext(ctx, `SET synchronous_commit TO off`); err != nil {
			conn.Close()
			return 0, err
		}
		// Rows of nodes long gone go when a node first takes a lease.
		if _, err := conn.ExecContext(ctx, `DELETE FROM quire_node_leases WHERE lease_until < now() - interval '1 day'`); err != nil {
			conn.Close()
			return 0, err
		}
		l.conn = conn
	}
	var v int64
	err := l.conn.QueryRowContext(ctx, renewSQL, l.node, l.length.Microseconds()).Scan(&v)
	if err != nil {
		l.conn.Close() // a broken connection is not reused; a working one costs a reconnect
		l.conn = nil
		return 0, err
	}
	return uint64(v), nil
}

// release gives the lease back (the node trusts nothing by then), so no writer waits for it.
func (l *leases) release() {
	if l.conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	l.conn.ExecContext(ctx, `DELETE FROM quire_node_leases WHERE node_id = $1`, l.node)
	l.conn.Close()
	l.conn = nil
}

// writeCountWait bounds how long a write waits for other nodes to see it: their leases end
// within leaseLength whatever they do.
const writeCountWait = leaseLength + 2*time.Second

// counted counts a committed write for every node and returns once every other node holding a
// lease has seen it or its lease has ended. A write that cannot be counted, or not seen in time,
// fails.
func (l *leases) counted(ctx context.Context) error {
	ctx = context.WithoutCancel(ctx)
	var version int64
	var waiting bool
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = l.db.QueryRowContext(ctx, `SELECT version, waiting FROM quire_count_write($1)`, l.node).Scan(&version, &waiting); err == nil {
			break
		}
	}
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.known = max(l.known, uint64(version))
	l.mu.Unlock()
	deadline := time.Now().Add(writeCountWait)
	for failures := 0; waiting; {
		if time.Now().After(deadline) {
			return fmt.Errorf("a node holding a lease has not seen write %d after %s", version, writeCountWait)
		}
		time.Sleep(time.Millisecond)
		err := l.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM quire_node_leases
			WHERE node_id <> $1 AND lease_until > now() AND seen_version < $2)`, l.node, version).Scan(&waiting)
		if err != nil {
			if failures++; failures == 3 {
				return err
			}
			waiting = true
		}
	}
	return nil
}

// close stops renewing and gives the lease back.
func (l *leases) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.wg.Wait()
}
