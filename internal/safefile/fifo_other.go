//go:build !linux

package safefile

import (
	"os"
	"time"
)

// waitForWriter does not wait where poll cannot tell a FIFO that never
// had a writer from one whose writer left: such a FIFO reads as empty.
func waitForWriter(f *os.File, path string, wait time.Duration) error { return nil }
