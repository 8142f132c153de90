package server

import (
	"crypto/sha256"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// rateLimiter counts requests per bucket (a token, or a client address; see authenticate) in fixed
// one-minute windows, as GitBook's API does, and answers X-RateLimit-* headers on every response.
type rateLimiter struct {
	limit int
	mu    sync.Mutex
	start time.Time
	used  map[[32]byte]int
	now   func() time.Time
}

func newRateLimiter(perMinute int) *rateLimiter {
	return &rateLimiter{limit: perMinute, used: map[[32]byte]int{}, now: time.Now}
}

// take counts one request against a bucket, sets the headers, and answers 429 past the limit.
func (rl *rateLimiter) take(c echo.Context, bucket string) error {
	sum := sha256.Sum256([]byte(bucket))
	now := rl.now()
	rl.mu.Lock()
	if now.Sub(rl.start) >= time.Minute {
		rl.start = now.Truncate(time.Minute)
		clear(rl.used)
	}
	rl.used[sum]++
	n := rl.used[sum]
	reset := rl.start.Add(time.Minute).Unix()
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
