// Package longtest is the one switch between the everyday test run and the
// long one.
//
// The everyday run, "go test ./...", proves every equivalence once per
// layer at the smallest scope that still catches a one-line change to a
// rule, and stays under a minute of CPU. The long run, with PREREL_LONG=1
// in the environment (as .ci/run sets it), proves the same equivalences on
// the larger exhaustive scopes, runs the property suites at their full
// count and the end-to-end tests that build or start real programs.
// "go test -short" (the race detector's run in CI) lowers the everyday
// scopes where a test says so.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that switches the long tests on.
const Env = "PREREL_LONG"

// Enabled reports whether the long tests run: PREREL_LONG is set to a
// value other than "", "0" or "false".
func Enabled() bool {
	switch os.Getenv(Env) {
	case "", "0", "false":
		return false
	}
	return true
}

// Skip skips t unless the long tests run, saying how to run it.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("a long test: run with %s=1", Env)
	}
}

// Pick returns long when the long tests run and everyday otherwise.
func Pick[T any](everyday, long T) T {
	if Enabled() {
		return long
	}
	return everyday
}

// SkipShort skips t under -short. CI's race detector run is
// "go test -race -short ./...", which is for the concurrent code: a test
// with no concurrency of its own that is many times slower under the race
// detector (a sequential proof on a large input, a script that starts the
// CLI as a process for every command) calls SkipShort and runs in the
// plain runs only.
func SkipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("no concurrency of its own: skipped with -short, the race detector's run")
	}
}
