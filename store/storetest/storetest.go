// Package storetest is the store contract's conformance suite: table tests written once against
// store.Store and run against every implementation (store/sqlite calls Run from its tests).
package storetest

import (
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// Opener opens an empty store for one test and closes it when the test ends. clock, when not
// nil, is the clock the store reads (store.Store.Now); nil is the real time.
type Opener func(t *testing.T, clock func() time.Time) store.Store
