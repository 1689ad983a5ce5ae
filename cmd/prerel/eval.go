package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"unicode/utf8"

	"github.com/prerel/prerel/report"

	"github.com/prerel/prerel/batch"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/lines"
)

// maxLine bounds one input line of eval and of version files, not
// counting the line break.
const maxLine = lines.Max

// evalBatch is how many lines eval judges in parallel before writing them.
const evalBatch = 4096

// evalBatchBytes bounds the input text of one batch: a batch is judged as
// soon as its lines hold this much, however few they are.
const evalBatchBytes = 8 << 20

// evalFormats are the formats of eval's answers (writeEval): a line of
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
// the reasons when asJSON is set.
//
// When a policy command fails, the output stops at the first line it did
// not judge, and the error says which line that is: the lines before it
// keep their answers, and no line after it is written.
func evalStream(r io.Reader, w io.Writer, ps []engine.Policy, asJSON bool, workers int) error {
	out := newEvalWriter(w, asJSON, ps)
	ev := batch.NewEvaluator(ps, asJSON, workers)
	lines := 0 // the lines of the batches before
	err := eachBatch(r, func(b *batch.Batch) error {
		judge(ev, b)
		judged, failed := b.Judged()
		if err := out.write(b, judged); err != nil {
			return failure(err)
		}
		if failed != nil {
			return usage(fmt.Errorf("not judged: stdin line %d and the lines after it: %w", lines+judged+1, failed))
		}
		lines += b.Len()
		return nil
	})
	if ferr := failure(out.flush()); err == nil {
		err = ferr
	}
	return err
}

// judge has ev judge b. A policy's panic in one of ev's workers is raised
// again as a panic of a command's worker, with the worker's stack.
func judge(ev *batch.Evaluator, b *batch.Batch) {
	defer func() {
		if p := recover(); p != nil {
			if pe, ok := p.(*batch.PanicError); ok {
				panic(&workerPanic{value: pe.Value, stack: pe.Stack})
			}
			panic(p)
		}
	}()
	ev.Judge(b)
}

// eachBatch reads lines from r, splits them into cases and hands them to f
// in batches of at most batch.MaxLines lines and about batch.MaxBytes of text,
// in order. A line ends at "\n"; one "\r" before it, or at the end of the
// input, is dropped. A malformed or too long line stops the reading with
// an error naming it, after the lines before it have been handed over.
// The batch is f's until f returns; then it is reused.
func eachBatch(r io.Reader, f func(*batch.Batch) error) error {
	sc := bufio.NewScanner(r)
	// Room for the longest line with "\r\n"; longer lines are refused
	// below or by the scanner, with the same message.
	sc.Buffer(make([]byte, 64*1024), maxLine+2)
	sc.Split(lines.Split)
	b := batch.New()
	size := 0
	line := 0
	for sc.Scan() {
		line++
		text := lines.TrimCR(sc.Bytes())
		if len(text) > maxLine {
			if err := flushBatch(b, f); err != nil {
				return err
			}
			return stdinError(line, bufio.ErrTooLong)
		}
		tab := bytes.IndexByte(text, '\t')
		if tab < 0 || bytes.IndexByte(text[tab+1:], '\t') >= 0 {
			if err := flushBatch(b, f); err != nil {
				return err
			}
			fields := bytes.Count(text, []byte("\t")) + 1
			return usagef("stdin line %d: expected 2 tab-separated fields (CONSTRAINT<TAB>VERSION), found %d", line, fields)
		}
		b.Add(text[:tab], text[tab+1:])
		size += len(text)
		if b.Len() == batch.MaxLines || size >= batch.MaxBytes {
			if err := f(b); err != nil {
				return err
			}
			b.Reset()
			size = 0
		}
	}
	if err := sc.Err(); err != nil {
		if ferr := flushBatch(b, f); ferr != nil {
			return ferr
		}
		return stdinError(line+1, err)
	}
	return flushBatch(b, f)
}

// stdinError is a failure to read stdin at a line: a line too long is bad
// input, anything else an outside failure.
func stdinError(line int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return usagef("stdin line %d: line longer than %d bytes", line, maxLine)
	}
	return failure(fmt.Errorf("stdin line %d: %w", line, err))
}

func flushBatch(b *batch.Batch, f func(*batch.Batch) error) error {
	if b.Len() == 0 {
		return nil
	}
	return f(b)
}

// evalWriter writes judged lines to stdout, buffered, as TSV or as JSON
// lines.
type evalWriter struct {
	w        *bufio.Writer
	policies []engine.Policy

	// JSON only. A line is encoded into line by enc. The lines of a
	// batch with the same constraint and version are the same: the
	// first is encoded, and kept in encoded (by the numbers of its
	// constraint and version in the batch) as long as the lines kept add
	// up to at most maxEncodedBytes; the others are copies.
	enc          *json.Encoder // nil for TSV
	line         bytes.Buffer
	results      []engine.Result // the results of one line
	encoded      map[uint64][]byte
	encodedBytes int
}

// maxEncodedBytes bounds the JSON lines that an evalWriter keeps for a
// batch.
const maxEncodedBytes = 4 << 20

func newEvalWriter(w io.Writer, asJSON bool, ps []engine.Policy) *evalWriter {
	out := &evalWriter{w: bufio.NewWriterSize(w, 64*1024), policies: ps}
	if asJSON {
		out.enc = newJSONEncoder(&out.line)
		out.results = make([]engine.Result, len(ps))
		out.encoded = make(map[uint64][]byte)
	}
	return out
}

// verdictColumns are the TSV columns of the verdicts, tab first.
var verdictColumns = [...]string{
	engine.Reject:  "\treject",
	engine.Allow:   "\tallow",
	engine.Invalid: "\tinvalid",
}

// write writes one line per line of the n first lines of b, in order.
func (out *evalWriter) write(b *batch.Batch, n int) error {
	if out.enc != nil {
		return out.writeJSON(b, n)
	}
	w := out.w
	for i := range n {
		constraint, version := b.Case(i)
		w.WriteString(constraint)
		w.WriteByte('\t')
		w.WriteString(version)
		for j := range out.policies {
			if v := b.Verdict(j, i); int(v) < len(verdictColumns) {
				w.WriteString(verdictColumns[v])
			} else {
				w.WriteByte('\t')
				w.WriteString(v.String())
			}
		}
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes the n first lines of b as JSON lines, in order.
func (out *evalWriter) writeJSON(b *batch.Batch, n int) error {
	clear(out.encoded)
	out.encodedBytes = 0
	for i := range n {
		c, v := b.Numbers(i)
		key := uint64(uint32(c))<<32 | uint64(uint32(v))
		if line, ok := out.encoded[key]; ok {
			if _, err := out.w.Write(line); err != nil {
				return err
			}
			continue
		}
		for j := range out.results {
			out.results[j] = b.Result(j, i)
		}
		out.line.Reset()
		constraint, version := b.Case(i)
		if err := out.enc.Encode(newEvalJSONLine(out.policies, constraint, version, out.results)); err != nil {
			return err
		}
		if _, err := out.w.Write(out.line.Bytes()); err != nil {
			return err
		}
		if out.encodedBytes+out.line.Len() <= maxEncodedBytes {
			out.encoded[key] = bytes.Clone(out.line.Bytes())
			out.encodedBytes += out.line.Len()
		}
	}
	return nil
}

// evalJSONLine is one line of eval's JSON output: the engine's EvalLine
// and, for a constraint or version that is not valid UTF-8 (which JSON
// strings cannot hold, so that its invalid bytes read as U+FFFD there),
// its exact bytes in standard base64.
type evalJSONLine struct {
	engine.EvalLine
	ConstraintBase64 string `json:"constraint_base64,omitempty"`
	VersionBase64    string `json:"version_base64,omitempty"`
}

// newEvalJSONLine is the JSON line of a constraint and a version with
// their results, one per policy of ps.
func newEvalJSONLine(ps []engine.Policy, constraint, version string, results []engine.Result) evalJSONLine {
	line := evalJSONLine{EvalLine: engine.NewEvalLine(ps, constraint, version, results)}
	if !utf8.ValidString(constraint) {
		line.ConstraintBase64 = base64.StdEncoding.EncodeToString([]byte(constraint))
	}
	if !utf8.ValidString(version) {
		line.VersionBase64 = base64.StdEncoding.EncodeToString([]byte(version))
	}
	return line
}

func (out *evalWriter) flush() error { return out.w.Flush() }
