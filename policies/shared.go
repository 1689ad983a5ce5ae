package policies

import (
	"hash/maphash"
	"slices"
	"sync/atomic"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/listcache"
)

// The native policies share what they make of the same input: a caller
// that judges one constraint with each native policy in turn against the
// same versions (compare judges every group so, eval every line) would
// otherwise parse and compile it once per policy. Each cache below keeps
// the latest values, each in the slot of its input's hash; the values are
// never changed once made, so one serves every policy and goroutine.

// parseNative is the constraint reading of every native policy: the
// engine's parser (core-only then refuses a prerelease), its latest
// parses kept in parseCache.
func parseNative(constraint string) (engine.Constraint, error) {
	slot := &parseCache[maphash.String(parseSeed, constraint)%parseCacheSlots]
	if p := slot.Load(); p != nil && p.text == constraint {
		return p.c, p.err
	}
	c, err := engine.ParseConstraint(constraint)
	slot.Store(&parsedConstraint{text: constraint, c: c, err: err})
	return c, err
}

// parseCacheSlots is how many parses parseCache keeps, and how many
// compiled constraints compileCache keeps: a few per goroutine judging at
// the same time.
const parseCacheSlots = 64

var (
	parseCache   [parseCacheSlots]atomic.Pointer[parsedConstraint]
	compileCache [parseCacheSlots]atomic.Pointer[compiledConstraint]
	parseSeed    = maphash.MakeSeed()
)

// parsedConstraint is one parse of parseNative.
type parsedConstraint struct {
	text string
	c    engine.Constraint
	err  error
}

// compileRanked is compile(c, keys) for a table's ranked key space, its
// latest results kept in compileCache: the tables of the native policies
// over the same versions share one ranked space (rank), so a constraint
// is compiled about once for all of them.
func compileRanked(c engine.Constraint, keys *ranked) *compiled {
	text := c.Text()
	slot := &compileCache[maphash.String(parseSeed, text)%parseCacheSlots]
	if p := slot.Load(); p != nil && p.keys == keys && p.text == text {
		return p.m
	}
	m := compile(c, keys)
	slot.Store(&compiledConstraint{keys: keys, text: text, m: m})
	return m
}

// compiledConstraint is one result of compileRanked.
type compiledConstraint struct {
	keys *ranked
	text string
	m    *compiled
}

// rankSlots is how many ranked spaces rankCache keeps.
const rankSlots = 16

var rankCache [rankSlots]atomic.Pointer[ranked]

// sharedRank returns a ranked space of the sorted, distinct prereleases
// pre: the one made last for the same prereleases, when rankCache still
// has it.
func sharedRank(pre []string) *ranked {
	var h maphash.Hash
	h.SetSeed(parseSeed)
	for _, p := range pre {
		h.WriteString(p)
		h.WriteByte(0)
	}
	slot := &rankCache[h.Sum64()%rankSlots]
	if r := slot.Load(); r != nil && slices.Equal(r.prereleases, pre) {
		return r
	}
	r := &ranked{pre}
	slot.Store(r)
	return r
}

// readVersions is one list of versions as the native tables read it
// (parseVersions): their ranked space and each version parsed and keyed.
// It is never changed once made.
type readVersions struct {
	keys     *ranked
	versions []fastVersion
}

// versionCache keeps the lists the native tables read last.
var versionCache listcache.Cache[readVersions]

// sharedVersions returns versions as parseVersions reads them: the read
// made last of the same texts, when versionCache still has it, so that
// the native policies reading one list in turn parse it once.
func sharedVersions(versions []string) *readVersions {
	return versionCache.Get(versions, 0, parseVersions)
}
