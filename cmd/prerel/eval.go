package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/prerel/prerel/engine"
)

// maxLine bounds one input line of eval and of version files.
const maxLine = 1 << 20

// evalBatch is how many lines eval judges in parallel before writing them.
const evalBatch = 4096

func runEval(e *env, args []string) error {
	fs := newFlags(e, "eval", "[flags] < CONSTRAINT<TAB>VERSION lines",
		"Read CONSTRAINT<TAB>VERSION lines from stdin and write exactly one line per\n"+
			"input line, in order: CONSTRAINT<TAB>VERSION<TAB>VERDICT..., the constraint\n"+
			"and version echoed byte for byte, one verdict column per policy in the order\n"+
			"of --policies, each allow, reject or invalid. A line that is not two\n"+
			"tab-separated fields is an error naming its line number (exit 2). A trailing\n"+
			"\"\\r\" is dropped.")
	var names policyList
	fs.Var(&names, "policies", "comma-separated policies, one verdict column each (default: all,\nin 'prerel policies' order)")
	format := formatFlag{"tsv", []string{"tsv", "json"}}
	fs.Var(&format, "format", "output format: tsv, or json (one object per line,\nwith reasons)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("eval reads stdin and takes no arguments, got %q", fs.Arg(0))
	}
	ps, err := e.resolve(names)
	if err != nil {
		return err
	}
	out := newEvalWriter(e.stdout, format.value, ps)
	ev := newEvaluator(ps)
	err = eachBatch(e.stdin, func(batch []evalCase) error {
		ev.judge(batch)
		return failure(out.write(batch))
	})
	if ferr := failure(out.flush()); err == nil {
		err = ferr
	}
	return err
}

// evalCase is one input line and its results, one per policy.
type evalCase struct {
	constraint, version string
	results             []engine.Result
}

// eachBatch reads lines from r, splits them into cases and hands them to f
// in batches, in order. A malformed line stops the reading with an error
// naming it, after the lines before it have been handed over.
func eachBatch(r io.Reader, f func([]evalCase) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	batch := make([]evalCase, 0, evalBatch)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		text = bytes.TrimSuffix(text, []byte("\r"))
		tab := bytes.IndexByte(text, '\t')
		if tab < 0 || bytes.IndexByte(text[tab+1:], '\t') >= 0 {
			if err := flushBatch(batch, f); err != nil {
				return err
			}
			fields := bytes.Count(text, []byte("\t")) + 1
			return usagef("stdin line %d: expected 2 tab-separated fields (CONSTRAINT<TAB>VERSION), found %d", line, fields)
		}
		batch = append(batch, evalCase{constraint: string(text[:tab]), version: string(text[tab+1:])})
		if len(batch) == evalBatch {
			if err := f(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	if err := sc.Err(); err != nil {
		if ferr := flushBatch(batch, f); ferr != nil {
			return ferr
		}
		return stdinError(line+1, err)
	}
	return flushBatch(batch, f)
}

// stdinError is a failure to read stdin at a line: a line too long is bad
// input, anything else an outside failure.
func stdinError(line int, err error) error {
	err = fmt.Errorf("stdin line %d: %w", line, err)
	if errors.Is(err, bufio.ErrTooLong) {
		return usage(err)
	}
	return failure(err)
}

func flushBatch(batch []evalCase, f func([]evalCase) error) error {
	if len(batch) == 0 {
		return nil
	}
	return f(batch)
}

// evaluator judges cases with every policy, compiling each distinct
// constraint once per policy and worker.
type evaluator struct {
	policies []engine.Policy
	workers  []*compileCache
}

func newEvaluator(ps []engine.Policy) *evaluator {
	n := runtime.GOMAXPROCS(0)
	ev := &evaluator{policies: ps, workers: make([]*compileCache, n)}
	for i := range ev.workers {
		ev.workers[i] = &compileCache{policies: ps}
	}
	return ev
}

// judge fills in the results of every case, in parallel.
func (ev *evaluator) judge(batch []evalCase) {
	n := len(ev.workers)
	chunk := (len(batch) + n - 1) / n
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(batch))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func(cache *compileCache, part []evalCase) {
			defer wg.Done()
			for i := range part {
				part[i].results = cache.judge(part[i].constraint, part[i].version)
			}
		}(ev.workers[w], batch[lo:hi])
	}
	wg.Wait()
}

// compileCache keeps the compiled matchers of recent constraints. It is
// used by one goroutine.
type compileCache struct {
	policies []engine.Policy
	entries  map[string][]compiled
}

type compiled struct {
	m   engine.Matcher
	err error
}

const maxCachedConstraints = 8192

func (c *compileCache) judge(constraint, version string) []engine.Result {
	ms, ok := c.entries[constraint]
	if !ok {
		if c.entries == nil || len(c.entries) >= maxCachedConstraints {
			c.entries = make(map[string][]compiled)
		}
		ms = make([]compiled, len(c.policies))
		for i, p := range c.policies {
			ms[i].m, ms[i].err = p.Compile(constraint)
		}
		c.entries[constraint] = ms
	}
	results := make([]engine.Result, len(ms))
	for i, m := range ms {
		if m.err != nil {
			results[i] = engine.InvalidResult(m.err)
		} else {
			results[i] = m.m.Match(version)
		}
	}
	return results
}

// evalWriter writes judged cases to stdout, buffered, as TSV or as JSON
// lines.
type evalWriter struct {
	w        *bufio.Writer
	enc      *json.Encoder // nil for TSV
	policies []engine.Policy
}

func newEvalWriter(w io.Writer, format string, ps []engine.Policy) *evalWriter {
	out := &evalWriter{w: bufio.NewWriterSize(w, 64*1024), policies: ps}
	if format == "json" {
		out.enc = newJSONEncoder(out.w)
	}
	return out
}

// write writes one line per case, in order.
func (out *evalWriter) write(batch []evalCase) error {
	for i := range batch {
		if err := out.writeLine(&batch[i]); err != nil {
			return err
		}
	}
	return nil
}

func (out *evalWriter) writeLine(c *evalCase) error {
	if out.enc != nil {
		return out.enc.Encode(engine.NewEvalLine(out.policies, c.constraint, c.version, c.results))
	}
	w := out.w
	w.WriteString(c.constraint)
	w.WriteByte('\t')
	w.WriteString(c.version)
	for _, r := range c.results {
		w.WriteByte('\t')
		w.WriteString(r.Verdict.String())
	}
	return w.WriteByte('\n')
}

func (out *evalWriter) flush() error { return out.w.Flush() }
