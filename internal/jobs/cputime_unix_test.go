//go:build unix

package jobs_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) this process has used: what a benchmark reports
// besides wall time on a machine other work shares.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
