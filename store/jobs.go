package store

import (
	"time"
)

// Job is a unit of work that outlives a request; it survives restarts in the jobs table.
type Job struct {
	ID       int64
	Kind     string
	Payload  string
	RunAt    time.Time
	Attempts int
}
