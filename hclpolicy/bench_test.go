package hclpolicy_test

import (
	"testing"
	"time"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// benchGroups returns the (constraint, versions) groups of the
// exhaustive domain at scope, and the number of cases they hold.
func benchGroups(tb testing.TB, scope int) ([]compare.Group, int) {
	tb.Helper()
	d, err := compare.Exhaustive(scope)
	if err != nil {
		tb.Fatal(err)
	}
	var groups []compare.Group
	cases := 0
	if err := d.Groups(func(g compare.Group) bool {
		groups = append(groups, g)
		cases += len(g.Versions)
		return true
	}); err != nil {
		tb.Fatal(err)
	}
	return groups, cases
}

// benchCompiled judges every case of the groups with p, each constraint
// compiled once as compare.Run compiles it, and reports cases per second.
func benchCompiled(b *testing.B, p engine.Policy) {
	groups, cases := benchGroups(b, 2) // the cases both cargo benchmarks judge
	b.ResetTimer()
	for b.Loop() {
		for _, g := range groups {
			m, err := p.Compile(g.Constraint)
			if err != nil {
				b.Fatal(err)
			}
			for _, v := range g.Versions {
				_ = m.Match(v)
			}
		}
	}
	b.ReportMetric(float64(cases)*float64(b.N)/b.Elapsed().Seconds(), "cases/s")
}

// BenchmarkNativeCargo times the native cargo policy on the exhaustive
// scope 2 cases, one core.
func BenchmarkNativeCargo(b *testing.B) { benchCompiled(b, policies.Cargo{}) }

// BenchmarkHCLCargo times hcl-cargo from testdata/designs on the same
// cases.
func BenchmarkHCLCargo(b *testing.B) { benchCompiled(b, design(b, "hcl-cargo")) }

// judgeVerdicts compiles every group's constraint with p and judges each
// of its versions as compare does (MatchVerdict when the matcher has it),
// and returns how many Allowed verdicts it gave, so that nothing is
// optimized away.
func judgeVerdicts(tb testing.TB, p engine.Policy, groups []compare.Group) int {
	allowed := 0
	for _, g := range groups {
		m, err := p.Compile(g.Constraint)
		if err != nil {
			continue
		}
		vm, ok := m.(engine.VerdictMatcher)
		for _, v := range g.Versions {
			verdict := engine.Invalid
			if ok {
				verdict = vm.MatchVerdict(v)
			} else {
				verdict = m.Match(v).Verdict
			}
			if verdict == engine.Allow {
				allowed++
			}
		}
	}
	return allowed
}

// BenchmarkDesigns judges every case of the exhaustive scope 1 domain
// with each native policy that has a design in HCL and with the design
// (testdata/designs/hcl-<name>.hcl), side by side: each loop loads the
// design afresh, so that compiling every constraint is timed as in a run.
// It reports the cases per CPU second of both (the CPU time of the
// process, garbage collection included, where cpuTime can read it, else
// the time on the clock) and hcl/native, how many times the native
// policy's time the design takes.
func BenchmarkDesigns(b *testing.B) {
	groups, cases := benchGroups(b, compare.MinScope)
	for _, native := range rewrittenNatives(b) {
		name := native.Name()
		b.Run(name, func(b *testing.B) {
			var hclTime, nativeTime time.Duration
			for b.Loop() {
				hcl := design(b, "hcl-"+name)
				start := cpuTime()
				n := judgeVerdicts(b, native, groups)
				mid := cpuTime()
				h := judgeVerdicts(b, hcl, groups)
				hclTime += cpuTime() - mid
				nativeTime += mid - start
				if n != h {
					b.Fatalf("%s allows %d cases, hcl-%s %d", name, n, name, h)
				}
			}
			b.ReportMetric(float64(cases)*float64(b.N)/hclTime.Seconds(), "hcl-cases/s")
			b.ReportMetric(float64(cases)*float64(b.N)/nativeTime.Seconds(), "native-cases/s")
			b.ReportMetric(hclTime.Seconds()/nativeTime.Seconds(), "hcl/native")
		})
	}
}
