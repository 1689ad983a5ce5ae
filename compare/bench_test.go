package compare_test

import (
	"context"
	"flag"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// BenchmarkRun measures the runner's throughput, in verdicts (cases x
// policies) per second for the whole run (judging, classes, witnesses,
// reasons, causes and the report), with every registered policy (the
// native policies and the library adapters) on exhaustive scope 1 and on
// the default scope, and with the test policies alone on scope 1. What a
// run does once per class (witnesses, reasons, causes, the report) weighs
// less on a larger domain, which shows the higher throughput.
func BenchmarkRun(b *testing.B) {
	for _, bc := range []struct {
		name     string
		scope    int
		policies []engine.Policy
	}{
		{"registered", 1, catalogue.New().All()},
		{"registered-default-scope", compare.DefaultScope, catalogue.New().All()},
		{"test-policies", 1, []engine.Policy{linear, sameBase, exact, tilde, countFirst, buildEq}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			benchmarkRun(b, mustExhaustive(b, bc.scope), bc.policies)
		})
	}
}

// benchRandomCount is the count of BenchmarkRunLarge's random domain.
var benchRandomCount = flag.Int("bench.random", 200_000, "the count of BenchmarkRunLarge's random domain, 1 to compare.MaxRandomCount")

// BenchmarkRunLarge runs every registered policy on the exhaustive
// domains of scope 3 (1.6 million cases) and scope 4 (4.6 million) and on
// the random domain of -bench.random cases, and reports the throughput in
// verdicts per second, the peak of the heap in use while a run lasts
// (sampled: peak-heap-MB) and the bytes allocated per run (alloc-MB/op).
// Scope 4 shows the harness's throughput where the verdicts, not the
// classes, make up the run. Memory does not grow with the number of
// cases: the peak heap of the random domain stays the same for a larger
// count.
func BenchmarkRunLarge(b *testing.B) {
	for _, bc := range []struct {
		name   string
		domain func() (compare.Domain, error)
	}{
		{"exhaustive-scope-3", func() (compare.Domain, error) { return compare.Exhaustive(3) }},
		{"exhaustive-scope-4", func() (compare.Domain, error) { return compare.Exhaustive(4) }},
		{"random", func() (compare.Domain, error) { return compare.Random(1, *benchRandomCount) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			d, err := bc.domain()
			if err != nil {
				b.Fatal(err)
			}
			benchmarkRun(b, d, catalogue.New().All())
		})
	}
}

// benchmarkRun runs d with policies, reporting verdicts/s, the peak heap
// in use and the bytes allocated per run.
func benchmarkRun(b *testing.B, d compare.Domain, policies []engine.Policy) {
	cases := d.Info().Cases
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
	b.ReportMetric(float64(cases)*float64(len(policies))*float64(b.N)/b.Elapsed().Seconds(), "verdicts/s")
	b.ReportMetric(float64(*peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "alloc-MB/op")
}

// samplePeakHeap samples the heap in use (runtime.MemStats.HeapInuse:
// the bytes of heap spans holding objects, read from runtime/metrics,
// which does not stop the world as ReadMemStats does) until stop is
// called, and keeps the largest value seen.
func samplePeakHeap() (peak *uint64, stop func()) {
	peak = new(uint64)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	samples := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
	}
	sample := func() {
		metrics.Read(samples)
		*peak = max(*peak, samples[0].Value.Uint64()+samples[1].Value.Uint64())
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	return peak, func() {
		close(done)
		wg.Wait()
		sample()
	}
}
