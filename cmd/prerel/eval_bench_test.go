package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/batch"
	"github.com/prerel/prerel/catalogue"
)

// BenchmarkEval times "prerel eval" with every registered policy on
// inputs of benchEvalLines lines (four batches), prepared before the
// timer starts, and, once per input and untimed, the text path that
// judges each line by Compile and Match (textEval). It reports lines/s and
// verdicts/s (lines times policies) of eval, text-lines/s of the text
// path, and x-text, how many times faster eval is. The inputs: "cycle",
// 5 constraints and 5 versions in turn; "cycle-json", the same as JSON
// with reasons; "exhaustive", compare's scope-2 cases constraint by
// constraint; "shuffled", the same cases in random order, every line
// distinct and few sharing a constraint within a batch.
func BenchmarkEval(b *testing.B) {
	const n = benchEvalLines
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
			start := time.Now()
			if err := textEval(strings.NewReader(in.in), io.Discard, ps, in.asJSON, runtime.GOMAXPROCS(0)); err != nil {
				b.Fatal(err)
			}
			text := time.Since(start)
			runtime.GC()
			for b.Loop() {
				e := &env{stdin: strings.NewReader(in.in), stdout: io.Discard, stderr: io.Discard, registry: reg}
				if code := run(e, args); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
			perLine := b.Elapsed().Seconds() / float64(n*b.N)
			b.ReportMetric(1/perLine, "lines/s")
			b.ReportMetric(float64(len(ps))/perLine, "verdicts/s")
			b.ReportMetric(n/text.Seconds(), "text-lines/s")
			b.ReportMetric(text.Seconds()/n/perLine, "x-text")
		})
	}
}

// benchEvalLines is the number of lines of BenchmarkEval's inputs: four
// batches, so that eval keeps its tables and compiled constraints from
// batch to batch as on a long input.
const benchEvalLines = 4 * batch.MaxLines
