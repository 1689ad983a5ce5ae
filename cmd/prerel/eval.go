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
	"sync"
	"unicode/utf8"

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

func runEval(e *env, args []string) (err error) {
	fs := newFlags(e, "eval", "[flags] < CONSTRAINT<TAB>VERSION lines",
		"Read CONSTRAINT<TAB>VERSION lines from stdin and write exactly one line per\n"+
			"input line, in order: CONSTRAINT<TAB>VERSION<TAB>VERDICT..., the constraint\n"+
			"and version echoed byte for byte, one verdict column per policy in the order\n"+
			"of --policies, each allow, reject or invalid. A line that is not two\n"+
			"tab-separated fields is an error naming its line number (exit 2). One\n"+
			"trailing \"\\r\" is dropped. Empty input gives empty output. In JSON, a\n"+
			"constraint or version that is not valid UTF-8 also comes as\n"+
			"constraint_base64 or version_base64, its exact bytes.")
	sources := addPolicySources(fs)
	var names policyList
	fs.Var(&names, "policies", "comma-separated policies, one verdict column each (default: all,\nin 'prerel policies' order)")
	format := formatFlag{"tsv", []string{"tsv", "json"}}
	fs.Var(&format, "format", "output format: tsv, or json (one object per line,\nwith reasons)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	finish, err := sources.load(e)
	defer func() { err = finish(err) }()
	if err != nil {
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
// in batches of at most evalBatch lines and about evalBatchBytes of text,
// in order. A line ends at "\n"; one "\r" before it, or at the end of the
// input, is dropped. A malformed or too long line stops the reading with
// an error naming it, after the lines before it have been handed over.
func eachBatch(r io.Reader, f func([]evalCase) error) error {
	sc := bufio.NewScanner(r)
	// Room for the longest line with "\r\n"; longer lines are refused
	// below or by the scanner, with the same message.
	sc.Buffer(make([]byte, 64*1024), maxLine+2)
	sc.Split(lines.Split)
	batch := make([]evalCase, 0, evalBatch)
	size := 0
	line := 0
	for sc.Scan() {
		line++
		text := lines.TrimCR(sc.Bytes())
		if len(text) > maxLine {
			if err := flushBatch(batch, f); err != nil {
				return err
			}
			return stdinError(line, bufio.ErrTooLong)
		}
		tab := bytes.IndexByte(text, '\t')
		if tab < 0 || bytes.IndexByte(text[tab+1:], '\t') >= 0 {
			if err := flushBatch(batch, f); err != nil {
				return err
			}
			fields := bytes.Count(text, []byte("\t")) + 1
			return usagef("stdin line %d: expected 2 tab-separated fields (CONSTRAINT<TAB>VERSION), found %d", line, fields)
		}
		batch = append(batch, evalCase{constraint: string(text[:tab]), version: string(text[tab+1:])})
		size += len(text)
		if len(batch) == evalBatch || size >= evalBatchBytes {
			if err := f(batch); err != nil {
				return err
			}
			batch, size = batch[:0], 0
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
	if errors.Is(err, bufio.ErrTooLong) {
		return usagef("stdin line %d: line longer than %d bytes", line, maxLine)
	}
	return failure(fmt.Errorf("stdin line %d: %w", line, err))
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

// judge fills in the results of every case, in parallel. A panic in a
// worker is raised again in the caller, once every worker has stopped.
func (ev *evaluator) judge(batch []evalCase) {
	n := len(ev.workers)
	chunk := (len(batch) + n - 1) / n
	var wg sync.WaitGroup
	panics := make([]*workerPanic, n)
	for w := 0; w < n; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(batch))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func(w int, part []evalCase) {
			defer wg.Done()
			defer recoverWorker(&panics[w])
			cache := ev.workers[w]
			for i := range part {
				part[i].results = cache.judge(part[i].constraint, part[i].version)
			}
		}(w, batch[lo:hi])
	}
	wg.Wait()
	raiseWorkerPanics(panics)
}

// Bounds of a compileCache. A compiled constraint takes memory in
// proportion to its length, many times over, for each policy: the cache
// is bounded by the length of the constraints it holds, and keeps none
// longer than maxCachedConstraintLen, which is compiled for its line
// alone.
const (
	maxCachedConstraints   = 8192
	maxCachedConstraintLen = 1 << 10
	maxCachedBytes         = 256 << 10
)

// compileCache keeps the compiled matchers of recent constraints, at most
// maxCachedConstraints of them and maxCachedBytes of constraint text;
// when either would be exceeded, it starts over empty. It is used by one
// goroutine.
type compileCache struct {
	policies []engine.Policy
	entries  map[string][]compiled
	bytes    int // the total length of the constraints in entries
}

type compiled struct {
	m   engine.Matcher
	err error
}

func (c *compileCache) judge(constraint, version string) []engine.Result {
	ms, ok := c.entries[constraint]
	if !ok {
		ms = c.compile(constraint)
		if len(constraint) <= maxCachedConstraintLen {
			if c.entries == nil || len(c.entries) >= maxCachedConstraints || c.bytes+len(constraint) > maxCachedBytes {
				c.entries = make(map[string][]compiled)
				c.bytes = 0
			}
			c.entries[constraint] = ms
			c.bytes += len(constraint)
		}
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

// compile compiles constraint with every policy. A policy that returns
// neither a matcher nor an error refuses the constraint with
// engine.ErrNilMatcher.
func (c *compileCache) compile(constraint string) []compiled {
	ms := make([]compiled, len(c.policies))
	for i, p := range c.policies {
		ms[i].m, ms[i].err = p.Compile(constraint)
		if ms[i].m == nil && ms[i].err == nil {
			ms[i].err = fmt.Errorf("policy %q %w", p.Name(), engine.ErrNilMatcher)
		}
	}
	return ms
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

// evalJSONLine is one line of eval's JSON output: the engine's EvalLine
// and, for a constraint or version that is not valid UTF-8 (which JSON
// strings cannot hold, so that its invalid bytes read as U+FFFD there),
// its exact bytes in standard base64.
type evalJSONLine struct {
	engine.EvalLine
	ConstraintBase64 string `json:"constraint_base64,omitempty"`
	VersionBase64    string `json:"version_base64,omitempty"`
}

// newEvalJSONLine is the JSON line of c.
func newEvalJSONLine(ps []engine.Policy, c *evalCase) evalJSONLine {
	line := evalJSONLine{EvalLine: engine.NewEvalLine(ps, c.constraint, c.version, c.results)}
	if !utf8.ValidString(c.constraint) {
		line.ConstraintBase64 = base64.StdEncoding.EncodeToString([]byte(c.constraint))
	}
	if !utf8.ValidString(c.version) {
		line.VersionBase64 = base64.StdEncoding.EncodeToString([]byte(c.version))
	}
	return line
}

func (out *evalWriter) writeLine(c *evalCase) error {
	if out.enc != nil {
		return out.enc.Encode(newEvalJSONLine(out.policies, c))
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
