package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// rateLimiter counts requests per bucket (a token, or a client address; see authenticate) in fixed
// one-minute windows, as GitBook's API does, and answers X-RateLimit-* headers on every response.
//
// On one node (SQLite) the count is this process's. With several nodes on one PostgreSQL
// database (shared set), a bucket's budget is one budget across them (issue 31): each node counts
// locally and, at most once a second, adds what it counted to the bucket's shared row and reads
// back the total of every node (store.RateLimits: one write per bucket per second per node);
// a request for a bucket whose shared count was last read more than a second ago reads it first
// (one read per bucket per second per node). A request is admitted while the shared total as last
// read plus what this node counted since stays within the limit, so nodes together may overshoot
// by what the others admit within one second.
type rateLimiter struct {
	limit int
	mu    sync.Mutex
	start time.Time
	used  map[[32]byte]int // this window's count: this node's alone, or the shared total last read plus pending
	now   func() time.Time

	shared  store.RateLimits // nil: one node
	log     *slog.Logger
	pending map[[32]byte]int       // counted here since the last flush
	read    map[[32]byte]time.Time // when each bucket's shared count was last read
	syncing bool                   // a flush is running
	flushAt *time.Timer            // the flush of what the last second counted
}

// rateSyncEvery is how often a node adds its counts to the shared ones.
const rateSyncEvery = time.Second

func newRateLimiter(perMinute int) *rateLimiter {
	return &rateLimiter{limit: perMinute, used: map[[32]byte]int{}, now: time.Now}
}

// share makes the limiter count with the other nodes of the store.
func (rl *rateLimiter) share(st store.RateLimits, log *slog.Logger) {
	rl.shared, rl.log, rl.pending, rl.read = st, log, map[[32]byte]int{}, map[[32]byte]time.Time{}
}

// take counts one request against a bucket, sets the headers, and answers 429 past the limit.
func (rl *rateLimiter) take(c echo.Context, bucket string) error {
	sum := sha256.Sum256([]byte(bucket))
	now := rl.now()
	rl.mu.Lock()
	if now.Sub(rl.start) >= time.Minute {
		rl.start = now.Truncate(time.Minute)
		clear(rl.used)
		if rl.shared != nil {
			clear(rl.pending)
			clear(rl.read)
		}
	}
	if rl.shared != nil && now.Sub(rl.read[sum]) >= rateSyncEvery {
		// Other nodes count this bucket too: what they counted is read at most once a second.
		window := rl.start
		rl.read[sum] = now
		rl.mu.Unlock()
		n, err := rl.shared.RateUsage(c.Request().Context(), window.Unix(), hex.EncodeToString(sum[:]))
		rl.mu.Lock()
		switch {
		case err != nil:
			rl.log.Warn("rate limit: unable to read the shared count", "error", err)
		case rl.start.Equal(window):
			// The shared count holds what this node sent; what it counted since is pending.
			rl.used[sum] = max(rl.used[sum], n+rl.pending[sum])
		}
	}
	rl.used[sum]++
	n := rl.used[sum]
	reset := rl.start.Add(time.Minute).Unix()
	if rl.shared != nil {
		rl.pending[sum]++
		rl.scheduleFlush()
	}
	rl.mu.Unlock()
	h := c.Response().Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(rl.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(rl.limit-n, 0)))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
	if n > rl.limit {
		return &httpError{http.StatusTooManyRequests, "Rate limit exceeded: retry after X-RateLimit-Reset."}
	}
	return nil
}

// scheduleFlush arranges for what is pending to be added to the shared counts within a second
// (rl.mu held).
func (rl *rateLimiter) scheduleFlush() {
	if rl.flushAt == nil && !rl.syncing {
		rl.flushAt = time.AfterFunc(rateSyncEvery, rl.flush)
	}
}

// flush adds the pending counts to the shared ones and takes the totals back.
func (rl *rateLimiter) flush() {
	rl.mu.Lock()
	rl.flushAt = nil
	if len(rl.pending) == 0 {
		rl.mu.Unlock()
		return
	}
	window := rl.start
	sent := rl.pending
	rl.pending = map[[32]byte]int{}
	rl.syncing = true
	rl.mu.Unlock()

	byHex := make(map[string]int, len(sent))
	for sum, n := range sent {
		byHex[hex.EncodeToString(sum[:])] = n
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	totals, err := rl.shared.AddRateUsage(ctx, window.Unix(), byHex)
	cancel()

	rl.mu.Lock()
	defer rl.mu.Unlock()
	rl.syncing = false
	if !rl.start.Equal(window) {
		return // a new window began meanwhile: its counts start afresh
	}
	if err != nil {
		rl.log.Warn("rate limit: unable to share the counts", "error", err)
		for sum, n := range sent { // counted again with the next flush
			rl.pending[sum] += n
		}
	} else {
		now := rl.now()
		for sum := range sent {
			// The shared total holds what was sent; what came since is still pending here.
			rl.used[sum] = totals[hex.EncodeToString(sum[:])] + rl.pending[sum]
			rl.read[sum] = now
		}
	}
	if len(rl.pending) > 0 {
		rl.scheduleFlush()
	}
}
