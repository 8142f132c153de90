package store

import (
	"context"
	"time"
)

// Store is the whole contract: what the server and cmd/quire take. Each area's interface lives in
// that area's file (Spaces in spaces.go, Sites in sites.go, …); the other consumers take only the
// areas they use (jobs.Queue, translate.Store, openapispec.Store). store/sqlstore implements it
// on both engines; store/storetest checks that an implementation keeps it.
type Store interface {
	Users
	Orgs
	Spaces
	Permissions
	Content
	ChangeRequests
	Reviews
	Invites
	TeamMembers
	Comments
	Sites
	SiteRedirects
	SiteAccess
	SiteCustomizations
	CustomFonts
	SiteInsights
	Translations
	Glossary
	SSO
	Integrations
	InstallationLifecycle
	Jobs
	Conversations
	OpenAPISpecs
	Sessions
	GitSync
	ImportRuns
	RateLimits
	Audit
	Admin
}

// PoolStats is the use of one connection pool.
type PoolStats struct {
	InUse     int
	Idle      int
	WaitCount int64
}

// Clock is the store's clock.
type Clock interface {
	// Now is the time the store's clock reads: every write and expiry check reads it.
	Now() time.Time
}

// Admin is the upkeep of the store itself: backups, integrity, the clock and what metrics read.
type Admin interface {
	Clock
	// Backend names the database the store runs on ("sqlite", "postgres"), for logs and tests.
	Backend() string
	// Backup writes a consistent copy of the live data to a new file at path while writers go on
	// (SQLite: VACUUM INTO, in one read transaction). The file must not exist yet.
	Backup(ctx context.Context, path string) error
	// CheckIntegrity checks the whole store and answers an error listing what it found, or nil
	// when the data is sound.
	CheckIntegrity(ctx context.Context) error
	// CheckSearchIndex reads the whole search index and reports what a rebuild would mend: on
	// PostgreSQL, rows whose searchable text differs from the text they index folded again (an
	// index written under issue 24's race); on SQLite, what FTS5's own integrity check finds.
	CheckSearchIndex(ctx context.Context) (*SearchIndexReport, error)
	// RebuildSearchIndex indexes every space again from its current revision, one space per
	// transaction (readers and writers go on meanwhile), and reports what it indexed.
	RebuildSearchIndex(ctx context.Context) (*SearchIndexReport, error)
	// Close releases the store (the SQLite store: both connection pools).
	Close() error
	// PendingJobs counts the jobs waiting to run, by kind.
	PendingJobs(ctx context.Context) (map[string]int, error)
	// Unavailable reports whether an error the store returned says the database could not be
	// reached (lost or refused connections, a server shutting down), not anything about the
	// request: the server answers it 503.
	Unavailable(err error) bool
	// PoolStats reports the use of the store's connection pools, by name.
	PoolStats() map[string]PoolStats
}
