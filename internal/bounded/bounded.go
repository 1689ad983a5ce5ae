// Package bounded runs a test step with a time limit, so that a reader
// that blocks on a FIFO or recurses without end fails the test instead of
// hanging it.
package bounded

import (
	"testing"
	"time"
)

// Limit is the time a bounded step may take: far more than any step needs
// on a loaded machine, far less than a test run's timeout.
const Limit = 20 * time.Second

// Run runs f and fails t when f has not returned within Limit.
func Run(t testing.TB, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(Limit):
		t.Fatalf("did not finish within %s", Limit)
	}
}
