//go:build race

package server

// raceBuild tells whether this test binary is a race build, which allocates where a plain build
// does not (the detector's own bookkeeping): allocation counts are checked only without it, in the
// suite's second run (make test, on PostgreSQL).
const raceBuild = true
