package compare_test

import (
	"context"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
)

// BenchmarkRunRandom measures the runner on the random domain with every
// registered policy: 100,000 cases a run, 1,563 constraints each with a
// history of 64 versions that 16 constraints share, reported in cases per
// second for the whole run (judging, classes, witnesses, reasons, causes
// and the report).
func BenchmarkRunRandom(b *testing.B) {
	const count = 100_000
	d, err := compare.Random(1, count)
	if err != nil {
		b.Fatal(err)
	}
	policies := catalogue.New().All()
	for b.Loop() {
		if _, err := compare.Run(context.Background(), d, policies, compare.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "cases/s")
}
