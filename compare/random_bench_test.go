package compare_test

import (
	"context"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
)

// BenchmarkRunRandom measures the runner on the random domain with every
// registered policy: 20,000 cases a run, nearly every one with a
// constraint of its own, reported in cases per second for the whole run
// (judging, classes, witnesses, reasons, causes and the report).
func BenchmarkRunRandom(b *testing.B) {
	const count = 20_000
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
