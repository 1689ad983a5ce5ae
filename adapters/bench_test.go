package adapters_test

import (
	"testing"
	"time"

	"github.com/prerel/prerel/adapters"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// tableBenchGroups are the groups of the exhaustive domain at scope 1:
// every constraint against the same version list.
func tableBenchGroups(b *testing.B) (groups []compare.Group, cases int) {
	b.Helper()
	d, err := compare.Exhaustive(compare.MinScope)
	if err != nil {
		b.Fatal(err)
	}
	if err := d.Groups(func(g compare.Group) bool {
		groups = append(groups, g)
		cases += len(g.Versions)
		return true
	}); err != nil {
		b.Fatal(err)
	}
	return groups, cases
}

// textPass judges every case of groups with Compile and Match.
func textPass(p engine.Policy, groups []compare.Group) {
	for _, g := range groups {
		m, err := p.Compile(g.Constraint)
		if err != nil {
			continue
		}
		for _, v := range g.Versions {
			_ = m.Match(v).Verdict
		}
	}
}

// tablePass reads the groups' version list (the same for every group)
// into p's table and judges every constraint with Compile and Verdicts,
// as the harness does.
func tablePass(p engine.Policy, groups []compare.Group, out []engine.Verdict) {
	t := engine.ReadVersions(p, groups[0].Versions)
	for _, g := range groups {
		m, err := t.Compile(g.Constraint)
		if err != nil {
			continue
		}
		m.Verdicts(out)
	}
}

// timePasses runs pass until at least d has gone by, and returns the
// time of one pass.
func timePasses(d time.Duration, pass func()) time.Duration {
	start, n := time.Now(), 0
	for n == 0 || time.Since(start) < d {
		pass()
		n++
	}
	return time.Since(start) / time.Duration(n)
}

// BenchmarkTable times each adapter's table on the exhaustive scope-1
// cases, one core: each iteration reads the version list once
// (ReadVersions, a new table) and judges every constraint with Compile
// and Verdicts, as the harness does. Before it, the same cases are timed
// through Compile and Match on the text, and the result line reports
// both rates and the table's speed-up (x-text: the text path's time over
// the table's).
func BenchmarkTable(b *testing.B) {
	groups, cases := tableBenchGroups(b)
	out := make([]engine.Verdict, len(groups[0].Versions))
	for _, p := range adapters.All() {
		b.Run(p.Name(), func(b *testing.B) {
			text := timePasses(200*time.Millisecond, func() { textPass(p, groups) })
			for b.Loop() {
				tablePass(p, groups, out)
			}
			table := b.Elapsed() / time.Duration(b.N)
			b.ReportMetric(float64(cases)/table.Seconds(), "verdicts/s")
			b.ReportMetric(float64(cases)/text.Seconds(), "text-verdicts/s")
			b.ReportMetric(text.Seconds()/table.Seconds(), "x-text")
		})
	}
}
