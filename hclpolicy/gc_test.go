package hclpolicy

import (
	"runtime/debug"
	"testing"
)

// proofGCPercent is the garbage collector's percent (GOGC) for the long
// proofs.
const proofGCPercent = 400

// fewerCollections raises the garbage collector's percent to
// proofGCPercent for the rest of t, unless it is already higher or off.
// An evaluation allocates many small values that it drops at once, over
// a live heap of a few megabytes: at the default of 100 the collector
// runs every few megabytes and takes a third of a proof's CPU; at 400 it
// runs a quarter as often, for a heap of at most a few hundred megabytes.
// It changes nothing of what a test judges.
func fewerCollections(t testing.TB) {
	old := debug.SetGCPercent(proofGCPercent)
	if old < 0 || old > proofGCPercent {
		debug.SetGCPercent(old)
		return
	}
	t.Cleanup(func() { debug.SetGCPercent(old) })
}

// FewerCollections is fewerCollections, for the package's external
// tests.
var FewerCollections = fewerCollections
