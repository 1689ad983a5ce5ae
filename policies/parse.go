package policies

import (
	"hash/maphash"
	"sync/atomic"

	"github.com/prerel/prerel/engine"
)

// parseNative is the constraint reading of every native policy: the
// engine's parser (core-only then refuses a prerelease).
//
// A caller that judges one constraint with each native policy in turn
// (compare judges every group so, eval every line) would parse it once
// per policy; the latest parses are kept in parseCache and shared, so
// that it is parsed about once. A parsed constraint is never changed
// after parsing, so one value serves every policy and goroutine.
func parseNative(constraint string) (engine.Constraint, error) {
	slot := &parseCache[maphash.String(parseSeed, constraint)%parseCacheSlots]
	if p := slot.Load(); p != nil && p.text == constraint {
		return p.c, p.err
	}
	c, err := engine.ParseConstraint(constraint)
	slot.Store(&parsedConstraint{text: constraint, c: c, err: err})
	return c, err
}

// parseCacheSlots is how many parses parseCache keeps: a few per
// goroutine judging at the same time, each in the slot of its text's
// hash.
const parseCacheSlots = 64

var (
	parseCache [parseCacheSlots]atomic.Pointer[parsedConstraint]
	parseSeed  = maphash.MakeSeed()
)

// parsedConstraint is one parse of parseNative.
type parsedConstraint struct {
	text string
	c    engine.Constraint
	err  error
}
