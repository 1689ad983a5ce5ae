package compare_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
)

// BenchmarkRunRandom measures the runner on the random domain with every
// registered policy: 100,000 cases a run, 1,563 constraints each with a
// history of 64 versions that 16 constraints share, reported in cases per
// second for the whole run (judging, classes, witnesses, reasons, causes
// and the report), with the bytes allocated per run (alloc-MB/op) and the
// peak of the heap in use while the runs last (peak-heap-MB, sampled).
// BenchmarkRunLarge/random runs a larger count (-bench.random).
func BenchmarkRunRandom(b *testing.B) {
	const count = 100_000
	d, err := compare.Random(1, count)
	if err != nil {
		b.Fatal(err)
	}
	policies := catalogue.New().All()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	peak, stop := samplePeakHeap()
	for b.Loop() {
		if _, err := compare.Run(context.Background(), d, policies, compare.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	stop()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "cases/s")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "alloc-MB/op")
	b.ReportMetric(float64(*peak)/(1<<20), "peak-heap-MB")
}

// BenchmarkRandomPolicies judges the cases of the random domain (20,000
// of them) with each registered policy alone, as the runner does: each
// history read once into the policy's table (engine.ReadVersions) and
// every constraint compiled against it and judged whole
// (TableMatcher.Verdicts). It reports the policy's cases per second and,
// as x-text, how many times faster that is than Compile and Match on the
// text of every case, the library called as it is.
func BenchmarkRandomPolicies(b *testing.B) {
	const count = 20_000
	type group struct {
		constraint string
		versions   []string
	}
	var groups []group
	d, err := compare.Random(1, count)
	if err != nil {
		b.Fatal(err)
	}
	if err := d.Groups(func(g compare.Group) bool {
		groups = append(groups, group{g.Constraint, g.Versions})
		return true
	}); err != nil {
		b.Fatal(err)
	}
	for _, p := range catalogue.New().All() {
		b.Run(p.Name(), func(b *testing.B) {
			onText := func() {
				for _, g := range groups {
					m, err := p.Compile(g.constraint)
					if err != nil {
						continue
					}
					for _, v := range g.versions {
						m.Match(v)
					}
				}
			}
			text := time.Duration(1 << 62) // the fastest of three runs on text
			for range 3 {
				start := time.Now()
				onText()
				text = min(text, time.Since(start))
			}
			out := make([]engine.Verdict, 0, generate.GroupSize)
			for b.Loop() {
				var table engine.VersionTable
				for i, g := range groups {
					if i == 0 || &g.versions[0] != &groups[i-1].versions[0] || len(g.versions) != table.Len() {
						table = engine.ReadVersions(p, g.versions)
					}
					m, err := table.Compile(g.constraint)
					if err != nil {
						continue
					}
					m.Verdicts(out[:len(g.versions)])
				}
			}
			perRun := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(count/perRun, "cases/s")
			b.ReportMetric(text.Seconds()/perRun, "x-text")
		})
	}
}
