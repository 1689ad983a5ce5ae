package prerel_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/prerel/prerel/adapters"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// benchPairs are the (constraint, version) pairs every implementation is
// timed on: prereleases and releases, each operator, one to three
// comparators. Every library accepts all of them.
var benchPairs = [][2]string{
	{">= 1.0.0", "1.2.3"},
	{">= 1.1.0-beta.2", "1.1.0-beta.3"},
	{">= 1.0.0, < 2.0.0", "2.0.0-beta.1"},
	{"~> 1.2", "1.9.0"},
	{"~> 1.2.3", "1.2.9-rc.1"},
	{"= 2.0.0-beta.1", "2.0.0-beta.1"},
	{">= 1.0.0, != 1.5.0-rc.1, < 2.0.0", "1.5.0-rc.2"},
	{"< 3.0.0", "2.5.1"},
}

// preparedChecks returns one check per pair for p, parsed once.
func preparedChecks(tb testing.TB, p engine.Policy) []func() engine.Result {
	prep, ok := p.(engine.Preparer)
	if !ok {
		tb.Fatalf("%s does not implement engine.Preparer", p.Name())
	}
	checks := make([]func() engine.Result, len(benchPairs))
	for i, pair := range benchPairs {
		check, err := prep.Prepare(pair[0], pair[1])
		if err != nil {
			tb.Fatalf("%s refuses %q %q: %v", p.Name(), pair[0], pair[1], err)
		}
		checks[i] = check
	}
	return checks
}

func benchChecks(b *testing.B, checks []func() engine.Result) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = checks[i%len(checks)]()
	}
}

// BenchmarkCheck times one check of a pre-parsed pair, per policy.
func BenchmarkCheck(b *testing.B) {
	for _, p := range append(policies.All(), adapters.All()...) {
		checks := preparedChecks(b, p)
		b.Run(p.Name(), func(b *testing.B) { benchChecks(b, checks) })
	}
}

// BenchmarkVersusLibraries times every native policy and every adapter on
// the same pre-parsed pairs in one run and prints them side by side, with
// each native policy's speed-up over the fastest wrapped library.
func BenchmarkVersusLibraries(b *testing.B) {
	type row struct {
		name   string
		native bool
		ns     float64
		allocs float64
	}
	var rows []row
	measure := func(p engine.Policy, native bool) {
		checks := preparedChecks(b, p)
		r := testing.Benchmark(func(b *testing.B) { benchChecks(b, checks) })
		rows = append(rows, row{p.Name(), native, float64(r.T.Nanoseconds()) / float64(r.N), float64(r.MemAllocs) / float64(r.N)})
	}
	for _, p := range policies.All() {
		measure(p, true)
	}
	for _, p := range adapters.All() {
		measure(p, false)
	}
	fastestLib := row{ns: 0}
	for _, r := range rows {
		if !r.native && (fastestLib.ns == 0 || r.ns < fastestLib.ns) {
			fastestLib = r
		}
	}
	slowestNative := 0.0
	var out strings.Builder
	fmt.Fprintf(&out, "\n%-22s %10s %10s %14s\n", "implementation", "ns/check", "allocs", "vs "+fastestLib.name)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].native && !rows[j].native })
	for _, r := range rows {
		if r.native && r.ns > slowestNative {
			slowestNative = r.ns
		}
		fmt.Fprintf(&out, "%-22s %10.1f %10.2f %13.1fx\n", r.name, r.ns, r.allocs, fastestLib.ns/r.ns)
	}
	b.Log(out.String())
	b.ReportMetric(fastestLib.ns/slowestNative, "x-faster-than-fastest-library")
	for i := 0; b.Loop(); i++ {
		// The measurements above are the result; the loop only satisfies
		// the benchmark protocol.
	}
}
