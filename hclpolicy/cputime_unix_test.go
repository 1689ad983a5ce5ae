//go:build unix

package hclpolicy_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system:
// on a shared machine it counts only the work done.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
