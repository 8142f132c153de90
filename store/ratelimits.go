package store

import "context"

// RateLimits is the request count that several nodes share (issue 31): a token's budget is one
// budget whichever node serves it. Windows are a minute long, named by their start in Unix
// seconds; a bucket is an opaque key (the hash of a token or of a client address).
type RateLimits interface {
	// AddRateUsage adds, for each bucket, the requests a node counted since it last called, to
	// the window's shared count, and answers each bucket's count across nodes. Windows before the
	// previous one are deleted.
	AddRateUsage(ctx context.Context, window int64, used map[string]int) (map[string]int, error)
	// RateUsage answers a bucket's count across nodes in a window (0 when none counted yet).
	RateUsage(ctx context.Context, window int64, bucket string) (int, error)
}
