package hclpolicy_test

import (
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// benchGroups are the (constraint, versions) groups of the exhaustive
// domain at scope 2, the cases both cargo benchmarks judge.
func benchGroups(tb testing.TB) ([]compare.Group, int) {
	tb.Helper()
	d, err := compare.Exhaustive(2)
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
	groups, cases := benchGroups(b)
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
