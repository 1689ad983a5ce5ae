package prerel_test

import (
	"fmt"
	"runtime"
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

// preparedChecks returns one check per pair that p accepts, parsed once. A
// policy that refuses a pair (core-only refuses prerelease constraints) is
// timed on the pairs it accepts.
func preparedChecks(tb testing.TB, p engine.Policy) []func() engine.Result {
	prep, ok := p.(engine.Preparer)
	if !ok {
		tb.Fatalf("%s does not implement engine.Preparer", p.Name())
	}
	var checks []func() engine.Result
	for _, pair := range benchPairs {
		if check, err := prep.Prepare(pair[0], pair[1]); err == nil {
			checks = append(checks, check)
		}
	}
	if len(checks) == 0 {
		tb.Fatalf("%s refuses every benchmark pair", p.Name())
	}
	return checks
}

// measurement is one implementation's time and allocations per check.
type measurement struct {
	name   string
	native bool
	ns     float64
	allocs float64
}

// BenchmarkVersusLibraries times every native policy and every adapter on
// the same pre-parsed pairs in one run, one sub-benchmark each (ns/op and
// allocs/op side by side), then logs a table with each one's speed-up over
// the fastest wrapped library.
func BenchmarkVersusLibraries(b *testing.B) {
	var rows []measurement
	run := func(p engine.Policy, native bool) {
		checks := preparedChecks(b, p)
		var last measurement
		b.Run(p.Name(), func(b *testing.B) {
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; b.Loop(); i++ {
				_ = checks[i%len(checks)]()
			}
			runtime.ReadMemStats(&after)
			last = measurement{p.Name(), native, float64(b.Elapsed().Nanoseconds()) / float64(b.N), float64(after.Mallocs-before.Mallocs) / float64(b.N)}
		})
		rows = append(rows, last)
	}
	for _, p := range policies.All() {
		run(p, true)
	}
	for _, p := range adapters.All() {
		run(p, false)
	}
	// Printed, not logged: a parent benchmark's log is shown only with -v.
	fmt.Print(sideBySide(rows))
}

// sideBySide formats the measurements with each one's speed-up over the
// fastest library adapter.
func sideBySide(rows []measurement) string {
	var fastest measurement
	for _, r := range rows {
		if !r.native && r.ns > 0 && (fastest.ns == 0 || r.ns < fastest.ns) {
			fastest = r
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "\n%-22s %10s %10s %16s\n", "implementation", "ns/check", "allocs", "speed-up vs "+fastest.name)
	for _, r := range rows {
		ratio := 0.0
		if r.ns > 0 {
			ratio = fastest.ns / r.ns
		}
		fmt.Fprintf(&out, "%-22s %10.1f %10.2f %15.1fx\n", r.name, r.ns, r.allocs, ratio)
	}
	return out.String()
}
