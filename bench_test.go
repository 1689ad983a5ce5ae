package prerel_test

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

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

// checks returns one check per pair that p accepts: a table of the pair's
// version alone (engine.ReadVersions), with the pair's constraint compiled
// against it, judged once already. Judge(0) on it is the check. A policy
// that refuses a pair (core-only refuses prerelease constraints) is timed
// on the pairs it accepts.
func checks(tb testing.TB, p engine.Policy) []engine.TableMatcher {
	var out []engine.TableMatcher
	for _, pair := range benchPairs {
		m, err := engine.ReadVersions(p, []string{pair[1]}).Compile(pair[0])
		if err != nil || m.Judge(0).Verdict == engine.Invalid {
			continue
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		tb.Fatalf("%s refuses every benchmark pair", p.Name())
	}
	return out
}

// measurement is one implementation's time and allocations per check:
// ns is the median over the timed slices of the loop, mean the whole
// loop's time over its checks (testing's ns/op).
type measurement struct {
	name   string
	native bool
	ns     float64
	mean   float64
	allocs float64
	// ratio is the time as a ratio to the baseline's, measured in the
	// same rounds (interleaved); 0 means ns / the baseline's ns.
	ratio float64
}

// The loop is timed in slices of sliceChecks checks, at most maxSlices of
// them; a loop too short for one slice is measured by its mean alone.
const (
	sliceChecks = 4096
	maxSlices   = 4096
)

// median returns the median of the slices' times per check, or 0 for
// none.
func median(times []time.Duration) float64 {
	if len(times) == 0 {
		return 0
	}
	s := slices.Clone(times)
	slices.Sort(s)
	return float64(s[len(s)/2].Nanoseconds()) / sliceChecks
}

// baseline is the implementation every row's time is compared with:
// apparentlymart/go-versions, which Terraform's provider installer uses.
const baseline = "apparentlymart"

// nativeTarget is the most a native policy's time may be, as a ratio to
// the baseline's in the same run, and nativeAllocs the most allocations
// per check.
const (
	nativeTarget = 0.25
	nativeAllocs = 0
)

// BenchmarkVersusLibraries times every native policy and every adapter on
// the same pairs in one run, one sub-benchmark each (ns/op and allocs/op
// side by side), then prints a table with each one's time as a ratio to
// go-versions (the apparentlymart adapter) measured in the same run, and
// the native policies over the target: at most 0.25x go-versions and no
// allocation.
//
// A check judges a version read once against a constraint compiled once,
// through the public API: for each pair, a table of the pair's version
// alone (engine.ReadVersions), the constraint compiled against it
// (VersionTable.Compile), and the check is TableMatcher.Judge(0), which
// returns the full engine.Result, reason included. Compile and Match would
// parse the version text in every check, with the engine's parser or the
// library's, and time parsers more than rules. The table is not a verdict
// computed in advance either: an adapter's table keeps each piece's
// verdicts for Verdicts, but its Judge asks the library again on the value
// its parser read (go-version's and Masterminds' Check, go-versions'
// Set.Has) and builds the Result with its reason, as Match does after
// parsing. A native policy's Judge runs its compiled rule (the constraint
// compiled once, the version read once into a precedence key), which
// gives the same Result as the policy's Judge: its reasons are constant
// strings, so the reason costs nothing, while an adapter's reason may be
// built in each check (go-version's names the piece that refuses the
// version). The loop's own cost (picking the next check, calling it) is
// in every row.
//
// The table's ns/check and ratio come from a second, interleaved
// measurement after the sub-benchmarks: 301 rounds, each timing one block
// of 2048 checks of every implementation in turn, so that every
// implementation is timed in the same few milliseconds as go-versions
// however the load of a shared machine drifts during the run. ns/check is
// an implementation's median block over the rounds, and the ratio its
// median ratio to go-versions' block of the same round. The median leaves
// out the blocks in which the process was descheduled, for every
// implementation alike, and most of the garbage collection an allocating
// library causes, which testing's ns/op (the table's "mean") keeps.
func BenchmarkVersusLibraries(b *testing.B) {
	var rows []measurement
	run := func(p engine.Policy, native bool) {
		ms := checks(b, p)
		var last measurement
		b.Run(p.Name(), func(b *testing.B) {
			b.ReportAllocs()
			times := make([]time.Duration, 0, maxSlices)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			for i := 0; b.Loop(); i++ {
				_ = ms[i%len(ms)].Judge(0)
				if i%sliceChecks == sliceChecks-1 && len(times) < maxSlices {
					now := time.Now()
					times = append(times, now.Sub(start))
					start = now
				}
			}
			runtime.ReadMemStats(&after)
			mean := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			ns := median(times)
			if ns == 0 {
				ns = mean
			}
			last = measurement{name: p.Name(), native: native, ns: ns, mean: mean, allocs: float64(after.Mallocs-before.Mallocs) / float64(b.N)}
		})
		rows = append(rows, last)
	}
	var sets [][]engine.TableMatcher
	for _, p := range policies.All() {
		run(p, true)
		sets = append(sets, checks(b, p))
	}
	for _, p := range adapters.All() {
		run(p, false)
		sets = append(sets, checks(b, p))
	}
	if base := slices.IndexFunc(rows, func(r measurement) bool { return r.name == baseline }); base >= 0 && len(rows) == len(sets) {
		ns, ratios := interleaved(sets, base)
		for i := range rows {
			rows[i].ns, rows[i].ratio = ns[i], ratios[i]
		}
	}
	// Printed, not logged: a parent benchmark's log is shown only with -v.
	fmt.Print(sideBySide(rows))
}

// The interleaved measurement: rounds of one block of blockChecks checks
// per implementation, in turn.
const (
	rounds      = 301
	blockChecks = 2048
)

// interleaved times every set of checks in rounds, one block of each set
// per round, so that all implementations are timed within the same few
// milliseconds however the machine's load drifts during the run. It
// returns each set's median time per check over the rounds, and its
// median ratio to the set base timed in the same round.
func interleaved(sets [][]engine.TableMatcher, base int) (ns, ratios []float64) {
	times := make([][]float64, len(sets))
	ratioOf := make([][]float64, len(sets))
	round := make([]float64, len(sets))
	for r := 0; r < rounds; r++ {
		for k, ms := range sets {
			start := time.Now()
			for i := 0; i < blockChecks; i++ {
				_ = ms[i%len(ms)].Judge(0)
			}
			round[k] = float64(time.Since(start).Nanoseconds()) / blockChecks
		}
		for k := range sets {
			times[k] = append(times[k], round[k])
			if round[base] > 0 {
				ratioOf[k] = append(ratioOf[k], round[k]/round[base])
			}
		}
	}
	ns, ratios = make([]float64, len(sets)), make([]float64, len(sets))
	for k := range sets {
		ns[k], ratios[k] = middle(times[k]), middle(ratioOf[k])
	}
	return ns, ratios
}

// middle returns the median of xs, or 0 for none.
func middle(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// sideBySide formats the measurements with each one's time as a ratio to
// the baseline's, and names the native policies over the target.
func sideBySide(rows []measurement) string {
	var base measurement
	for _, r := range rows {
		if r.name == baseline {
			base = r
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "\n%-22s %-8s %10s %10s %10s %14s\n", "implementation", "kind", "ns/check", "mean", "allocs", "x go-versions")
	var over []string
	for _, r := range rows {
		kind := "library"
		if r.native {
			kind = "native"
		}
		ratio := "-"
		if base.ns > 0 {
			x := r.ns / base.ns
			if r.ratio > 0 {
				x = r.ratio
			}
			ratio = fmt.Sprintf("%.2f", x)
			// Allocations are judged as printed: a stray allocation of the
			// runtime spread over every check is not the check's.
			if r.native && (x > nativeTarget || math.Round(r.allocs*100)/100 > nativeAllocs) {
				over = append(over, fmt.Sprintf("%s (%sx, %.2f allocs)", r.name, ratio, r.allocs))
			}
		}
		fmt.Fprintf(&out, "%-22s %-8s %10.1f %10.1f %10.2f %14s\n", r.name, kind, r.ns, r.mean, r.allocs, ratio)
	}
	switch {
	case base.ns <= 0:
		fmt.Fprintf(&out, "target: native policies at most %.2fx go-versions; %s was not measured, so no ratio\n", nativeTarget, baseline)
	case len(over) == 0:
		fmt.Fprintf(&out, "target: native policies at most %.2fx go-versions (%.1f ns) with no allocation: all meet it\n", nativeTarget, base.ns)
	default:
		fmt.Fprintf(&out, "target: native policies at most %.2fx go-versions (%.1f ns) with no allocation: over it: %s\n", nativeTarget, base.ns, strings.Join(over, ", "))
	}
	return out.String()
}

// TestSideBySide checks the benchmark's table: each time as a ratio to
// go-versions, and the native policies over the target named.
func TestSideBySide(t *testing.T) {
	tests := []struct {
		name string
		rows []measurement
		want []string
	}{
		{
			name: "all meet the target",
			rows: []measurement{{"strict", true, 5, 6, 0, 0}, {baseline, false, 40, 41, 0, 0}, {"hashicorp", false, 100, 120, 2, 0}},
			want: []string{"x go-versions", "strict                 native          5.0        6.0       0.00           0.12",
				"apparentlymart         library        40.0       41.0       0.00           1.00",
				"hashicorp              library       100.0      120.0       2.00           2.50", "all meet it"},
		},
		{
			name: "one too slow, one allocating",
			rows: []measurement{{"strict", true, 12, 12, 0, 0}, {"cargo", true, 5, 5, 1, 0}, {"linear", true, 5, 5, 0.001, 0}, {baseline, false, 40, 40, 0, 0}},
			want: []string{"over it: strict (0.30x, 0.00 allocs), cargo (0.12x, 1.00 allocs)\n"},
		},
		{
			name: "the interleaved ratio is the one shown",
			rows: []measurement{{"strict", true, 5, 6, 0, 0.2}, {baseline, false, 40, 41, 0, 1}},
			want: []string{"strict                 native          5.0        6.0       0.00           0.20", "all meet it"},
		},
		{
			name: "no baseline",
			rows: []measurement{{"strict", true, 5, 5, 0, 0}},
			want: []string{"strict                 native          5.0        5.0       0.00              -", "was not measured"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := sideBySide(tc.rows)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("table lacks %q:\n%s", w, got)
				}
			}
		})
	}
}
