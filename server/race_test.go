//go:build race

package server_test

// raceDetector tells whether this test binary is a race build. Tests that exercise no concurrency
// of quire, only its source or its spec, skip in one: make test runs the suite a second time
// without it (on PostgreSQL), where they cost a fraction.
const raceDetector = true
