package testgc

import (
	"os"
	"runtime/debug"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// The tests of a package that calls Main run with the collector at
// Percent, or as GOGC says when it is set.
func TestMainSetsPercent(t *testing.T) {
	want := Percent
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: Main leaves the collector as it says")
	}
	got := debug.SetGCPercent(want)
	if got != want {
		t.Errorf("the collector's percent is %d, want %d", got, want)
	}
}
