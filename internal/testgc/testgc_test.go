package testgc

import (
	"runtime/debug"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// The tests of a package that calls Main run with the collector at
// Percent, unless GOGC or -test.bench says otherwise.
func TestMainSetsPercent(t *testing.T) {
	if !Applies() {
		t.Skip("GOGC or -test.bench is set: Main leaves the collector as it is")
	}
	if got := debug.SetGCPercent(Percent); got != Percent {
		t.Errorf("the collector's percent is %d, want %d", got, Percent)
	}
}

// A benchmark runs with the collector as the environment sets it.
func BenchmarkKeepsTheDefault(b *testing.B) {
	if Applies() {
		b.Fatal("Main applies with -test.bench set")
	}
	for b.Loop() {
	}
}
