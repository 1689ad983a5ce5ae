package main

import (
	"errors"
	"io"
	"runtime"

	"github.com/prerel/prerel/batch"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/report"
)

// evalFormats are the formats of eval's answers (batch.Stream): a line of
// tab-separated fields, or a JSON object, per case.
var evalFormats = report.Formats{report.TSV, report.JSON}

// evalCommand is prerel eval.
var evalCommand = command{
	name:    "eval",
	args:    "[flags] < CONSTRAINT<TAB>VERSION lines",
	summary: "batch mode for scripts: one verdict line per input line",
	help: `Read CONSTRAINT<TAB>VERSION lines from stdin and write exactly one line per
input line, in order: CONSTRAINT<TAB>VERSION<TAB>VERDICT..., the constraint
and version echoed byte for byte, one verdict column per policy in the order
of --policies, each allow, reject or invalid. A line that is not two
tab-separated fields is an error naming its line number (exit 2). One
trailing "\r" is dropped. Empty input gives empty output. --format json
writes one object per line, with the reasons; there, a constraint or version
that is not valid UTF-8 also comes as constraint_base64 or version_base64,
its exact bytes.`,
	policySources: true,
	flags: func(fs *flagSet) runFunc {
		names := addPolicies(fs)
		format := addFormat(fs, evalFormats)
		return streamed(func(e *env, args []string) error {
			if len(args) != 0 {
				return usagef("eval reads stdin and takes no arguments, got %q", args[0])
			}
			ps, err := e.resolve(*names)
			if err != nil {
				return err
			}
			return evalStream(e.stdin, e.stdout, ps, format.value == report.JSON, runtime.GOMAXPROCS(0))
		})
	},
}

// evalStream is eval: it judges the lines of r with every policy of ps,
// with as many workers, and writes the answers to w, as JSON lines with
// the reasons when asJSON is set (batch.Stream). A line it cannot read is
// bad input, and so is a policy that failed; a failure to read stdin or to
// write is an outside failure.
func evalStream(r io.Reader, w io.Writer, ps []engine.Policy, asJSON bool, workers int) error {
	err := batch.Stream(r, w, ps, batch.StreamOptions{JSON: asJSON, Workers: workers, Name: "stdin"})
	var input *batch.InputError
	var notJudged *batch.NotJudgedError
	switch {
	case errors.As(err, &input) && input.Malformed(), errors.As(err, &notJudged):
		return usage(err)
	}
	return failure(err)
}
