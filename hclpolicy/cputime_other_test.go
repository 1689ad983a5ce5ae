//go:build !unix

package hclpolicy_test

import "time"

// cpuTime returns the time on the clock, where the CPU time of the
// process cannot be read.
func cpuTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
