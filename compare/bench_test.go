package compare_test

import (
	"context"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// BenchmarkRun measures the runner's throughput on exhaustive scope 1, in
// verdicts (cases x policies) per second, with every registered policy
// (the native policies and the library adapters) and with the test
// policies alone.
func BenchmarkRun(b *testing.B) {
	for _, bc := range []struct {
		name     string
		policies []engine.Policy
	}{
		{"registered", catalogue.New().All()},
		{"test-policies", []engine.Policy{linear, sameBase, exact, tilde, countFirst, buildEq}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			d := mustExhaustive(b, 1)
			cases := d.Info().Cases
			for b.Loop() {
				if _, err := compare.Run(context.Background(), d, bc.policies, compare.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cases)*float64(len(bc.policies))*float64(b.N)/b.Elapsed().Seconds(), "verdicts/s")
		})
	}
}
