package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
)

// BenchmarkEval times "prerel eval" with every registered policy on
// 100,000 lines, and in the same run, untimed, the text path that judges
// each line by Compile and Match (textEval). It reports lines/s and
// verdicts/s (lines times policies) of eval, text-lines/s of the text
// path, and x-text, how many times faster eval is. The inputs: "cycle",
// 5 constraints and 5 versions in turn; "cycle-json", the same as JSON
// with reasons; "exhaustive", compare's scope-2 cases constraint by
// constraint; "shuffled", the same cases in random order, every line
// distinct and few sharing a constraint within a batch.
func BenchmarkEval(b *testing.B) {
	const n = 100000
	var cycle strings.Builder
	constraints := []string{">= 1.0.0", "~> 1.2", ">= 1.0.0-beta, < 2.0.0", "= 2.0.0-beta.1", "!= 1.5.0-rc.1, >= 1"}
	versions := []string{"1.0.0", "1.2.5", "2.0.0-beta.1", "1.5.0-rc.2", "0.9.0"}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&cycle, "%s\t%s\n", constraints[i%len(constraints)], versions[(i/len(constraints))%len(versions)])
	}
	exhaustive := exhaustiveLines(b, 2, 1, n)
	inputs := []struct {
		name   string
		in     string
		asJSON bool
	}{
		{"cycle", cycle.String(), false},
		{"cycle-json", cycle.String(), true},
		{"exhaustive", strings.Join(exhaustive, "\n") + "\n", false},
		{"shuffled", strings.Join(shuffled(exhaustive, 1), "\n") + "\n", false},
	}
	reg := catalogue.New()
	ps := reg.All()
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			args := []string{"eval"}
			if in.asJSON {
				args = append(args, "--format", "json")
			}
			var text time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				start := time.Now()
				if err := textEval(strings.NewReader(in.in), io.Discard, ps, in.asJSON, runtime.GOMAXPROCS(0)); err != nil {
					b.Fatal(err)
				}
				text += time.Since(start)
				runtime.GC()
				b.StartTimer()
				e := &env{stdin: strings.NewReader(in.in), stdout: io.Discard, stderr: io.Discard, registry: reg}
				if code := run(e, args); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
			lines := float64(n * b.N)
			b.ReportMetric(lines/b.Elapsed().Seconds(), "lines/s")
			b.ReportMetric(lines*float64(len(ps))/b.Elapsed().Seconds(), "verdicts/s")
			b.ReportMetric(lines/text.Seconds(), "text-lines/s")
			b.ReportMetric(text.Seconds()/b.Elapsed().Seconds(), "x-text")
		})
	}
}
