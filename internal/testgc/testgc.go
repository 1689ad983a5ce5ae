// Package testgc runs a package's tests with the garbage collector set
// for them: the proofs and property suites allocate many small values
// that they drop at once, over a live heap of a few megabytes, and at
// Go's default percent (GOGC=100) the collector runs every few megabytes
// and takes a quarter to a third of their CPU. At Percent it runs a
// quarter as often, for a heap of at most a few hundred megabytes. It
// changes nothing of what a test judges: the tests that count
// allocations read runtime.MemStats.TotalAlloc, which the percent does
// not change.
//
// Benchmarks keep Go's default, so that their figures compare with those
// measured before and with a program's: a run given -bench, or GOGC in
// its environment, leaves the collector as it is.
//
// A package uses it from its TestMain:
//
//	func TestMain(m *testing.M) { testgc.Main(m) }
package testgc

import (
	"flag"
	"os"
	"runtime/debug"
	"testing"
)

// Percent is the garbage collector's percent Main sets.
const Percent = 400

// Main sets the collector's percent to Percent, unless GOGC is set in
// the environment or benchmarks are asked for (-test.bench), runs m's
// tests and exits with their status.
func Main(m *testing.M) {
	flag.Parse()
	if Applies() {
		debug.SetGCPercent(Percent)
	}
	os.Exit(m.Run())
}

// Applies reports whether Main sets the collector's percent: neither
// GOGC nor -test.bench is set. It reads the flags, which Main parses.
func Applies() bool {
	if os.Getenv("GOGC") != "" {
		return false
	}
	if b := flag.Lookup("test.bench"); b != nil && b.Value.String() != "" {
		return false
	}
	return true
}

// Wrap returns m as a runner that sets the collector as Main does before
// it runs the tests, for a TestMain that hands m on to another runner
// (testscript.Main, which runs the tests only in the test process itself,
// not in the commands it starts from the test binary).
func Wrap(m *testing.M) interface{ Run() int } { return wrapped{m} }

type wrapped struct{ m *testing.M }

func (w wrapped) Run() int {
	flag.Parse()
	if Applies() {
		debug.SetGCPercent(Percent)
	}
	return w.m.Run()
}
