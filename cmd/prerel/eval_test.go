package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/prerel/prerel/batch"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/lines"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/policies"
	"github.com/prerel/prerel/report"
)

// TestEvalDropsOneCarriageReturn checks that exactly one "\r" is dropped
// at the end of a line, also at the end of the input, and that the rest
// is echoed byte for byte.
func TestEvalDropsOneCarriageReturn(t *testing.T) {
	tests := []struct {
		name, in, out string
	}{
		{"LF", ">= 1.0\t1.0.0\n", ">= 1.0\t1.0.0\tallow\n"},
		{"CR LF", ">= 1.0\t1.0.0\r\n", ">= 1.0\t1.0.0\tallow\n"},
		{"two CRs", ">= 1.0\t1.0.0\r\r\n", ">= 1.0\t1.0.0\r\tinvalid\n"},
		{"CR at the end of the input", ">= 1.0\t1.0.0\r", ">= 1.0\t1.0.0\tallow\n"},
		{"two CRs at the end of the input", ">= 1.0\t1.0.0\r\r", ">= 1.0\t1.0.0\r\tinvalid\n"},
		{"no line break", ">= 1.0\t1.0.0", ">= 1.0\t1.0.0\tallow\n"},
		{"CR inside", ">= 1.0\r\t1.0.0\n", ">= 1.0\r\t1.0.0\tallow\n"},
		{"CR alone", ">= 1.0\t1.0.0\n\r\n", ">= 1.0\t1.0.0\tallow\n"},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, tt.in, "eval", "--policies", "strict")
		if tt.name == "CR alone" {
			// An empty line is not two fields, with or without its "\r".
			if code != exitUsage || out != tt.out || !strings.Contains(stderr, "stdin line 2: expected 2 tab-separated fields") {
				t.Errorf("%s: exit %d, stdout %q, stderr %q", tt.name, code, out, stderr)
			}
			continue
		}
		if code != exitOK || out != tt.out {
			t.Errorf("%s: exit %d, stdout %q, want %q (stderr %q)", tt.name, code, out, tt.out, stderr)
		}
	}
}

// TestEvalJSONKeepsInvalidUTF8Distinct checks that inputs that differ only
// in bytes that are not valid UTF-8 stay distinct in JSON: the exact bytes
// come in base64 next to the text.
func TestEvalJSONKeepsInvalidUTF8Distinct(t *testing.T) {
	inputs := []struct{ constraint, version string }{
		{">= 1.0", "\xff\xfe"},
		{">= 1.0", "\xfe\xff"},
		{">= 1.0\x80", "1.0.0"},
		{">= 1.0", "1.0.0"},
	}
	var in strings.Builder
	for _, c := range inputs {
		in.WriteString(c.constraint + "\t" + c.version + "\n")
	}
	code, out, stderr := runCLI(t, in.String(), "eval", "--format", "json", "--policies", "strict")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(inputs) {
		t.Fatalf("%d lines for %d inputs:\n%s", len(lines), len(inputs), out)
	}
	seen := map[string]bool{}
	for i, l := range lines {
		var got struct {
			Constraint       string  `json:"constraint"`
			Version          string  `json:"version"`
			ConstraintBase64 *string `json:"constraint_base64"`
			VersionBase64    *string `json:"version_base64"`
		}
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, l)
		}
		exact := func(text string, b64 *string, want string) string {
			if b64 == nil {
				if text != want {
					t.Errorf("line %d: %q without base64, want %q", i+1, text, want)
				}
				return text
			}
			raw, err := base64.StdEncoding.DecodeString(*b64)
			if err != nil || string(raw) != want {
				t.Errorf("line %d: base64 %q decodes to %q (%v), want %q", i+1, *b64, raw, err, want)
			}
			return string(raw)
		}
		key := exact(got.Constraint, got.ConstraintBase64, inputs[i].constraint) + "\t" + exact(got.Version, got.VersionBase64, inputs[i].version)
		if seen[key] {
			t.Errorf("line %d repeats an earlier input: %s", i+1, l)
		}
		seen[key] = true
	}
	if strings.Contains(lines[3], "base64") {
		t.Errorf("a valid UTF-8 line has a base64 field: %s", lines[3])
	}
}

// TestEvalEmptyInput checks that no input gives no output and success:
// every line read is answered.
func TestEvalEmptyInput(t *testing.T) {
	for _, format := range []string{"tsv", "json"} {
		code, out, stderr := runCLI(t, "", "eval", "--format", format)
		if code != exitOK || out != "" || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 0 and nothing", format, code, out, stderr)
		}
	}
}

// TestEvalLineTooLong checks the message for a line longer than lines.Max,
// after the lines before it were answered, and that a line of exactly
// lines.Max bytes is read, with or without "\r\n".
func TestEvalLineTooLong(t *testing.T) {
	first := ">= 1.0\t1.0.0\n"
	longest := ">= 1.0\t1.0.0" + strings.Repeat("+", lines.Max-len(">= 1.0\t1.0.0"))
	tests := []struct {
		name, in string
		code     int
		lines    int
		stderr   string
	}{
		{"one byte too long", first + longest + "+\n", exitUsage, 1, "prerel eval: stdin line 2: line longer than 1048576 bytes\n"},
		{"far too long", first + strings.Repeat("x", 3*lines.Max) + "\n", exitUsage, 1, "prerel eval: stdin line 2: line longer than 1048576 bytes\n"},
		{"too long at the end of the input", first + longest + "+", exitUsage, 1, "prerel eval: stdin line 2: line longer than 1048576 bytes\n"},
		{"the longest line", first + longest + "\n", exitOK, 2, ""},
		{"the longest line with CR LF", first + longest + "\r\n", exitOK, 2, ""},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, tt.in, "eval", "--policies", "strict")
		if code != tt.code || strings.Count(out, "\n") != tt.lines || stderr != tt.stderr {
			t.Errorf("%s: exit %d, %d lines, stderr %q; want exit %d, %d lines, %q",
				tt.name, code, strings.Count(out, "\n"), stderr, tt.code, tt.lines, tt.stderr)
		}
	}
}

// TestReasonsClipLongInput checks that a long invalid constraint is not
// repeated by each reason: every policy's reason stays within a few KB, so
// that the output is the echo of the line and a bounded rest, and every
// policy that refuses constraints refuses it.
func TestReasonsClipLongInput(t *testing.T) {
	longtest.SkipShort(t)
	n := longtest.Pick(20000, 1000000)
	constraint := ">= " + strings.Repeat("1", n-len(">= x")) + "x"
	code, out, stderr := runCLI(t, constraint+"\t1.0.0\n", "eval", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %.500s", code, stderr)
	}
	var got report.EvalLine
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Constraint != constraint || len(got.Results) != len(catalogue.New().All()) {
		t.Fatalf("unexpected line of %d bytes", len(out))
	}
	for _, r := range got.Results {
		// terraform-ls reads a constraint go-version refuses as no
		// constraint, and tfupdate does not read the constraint: they
		// refuse none.
		refusesNone := r.Policy == "terraform-ls" || r.Policy == "tfupdate"
		if len(r.Reason) > 2048 || r.Verdict != engine.Invalid && !refusesNone {
			t.Errorf("%s: %s, a reason of %d bytes: %.200s", r.Policy, r.Verdict, len(r.Reason), r.Reason)
		}
	}
	if rest := len(out) - len(constraint); rest > 2048*len(got.Results)+1024 {
		t.Errorf("the output is %d bytes beyond the echoed constraint", rest)
	}

	// The same constraint as an argument is an error of bounded length.
	code, _, stderr = runCLI(t, "", "check", constraint, "1.0.0")
	if code != exitUsage || len(stderr) > 1024 || !strings.Contains(stderr, fmt.Sprintf("(%d bytes): column 4: major number", n)) {
		t.Errorf("check: exit %d, stderr of %d bytes: %.300s", code, len(stderr), stderr)
	}
}

// TestEvalInvalidUTF8InTSV checks that TSV echoes bytes that are not valid
// UTF-8 as they are.
func TestEvalInvalidUTF8InTSV(t *testing.T) {
	in := ">= 1.0\t\xff\xfe\n"
	code, out, _ := runCLI(t, in, "eval", "--policies", "strict")
	if code != exitOK || !bytes.HasPrefix([]byte(out), []byte(">= 1.0\t\xff\xfe\tinvalid")) {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}

// TestEvalTablesMatchTextPath checks that eval's output through the
// version tables is byte for byte the output of the text path (textEval:
// Compile and Match for every line), in TSV and in JSON, for every
// registered policy, for parsedReader versions of the native ones and for
// a policy that compiles to no matcher (compilesToNil), on a large input
// (evalInput) that takes every path: constraints with all their versions,
// a shuffled sample, lines version by version, long texts. With one
// policy and three workers, a batch is cut into chunks.
func TestEvalTablesMatchTextPath(t *testing.T) {
	longtest.Skip(t) // package batch proves its evaluator equal to the text path every day
	stride := longtest.Pick(600, 30)
	if testing.Short() {
		stride = 1000
	}
	in := evalInput(t, stride)
	all := append(append(catalogue.New().All(), parsedReaders(t)...), compilesToNil{})
	hashicorp, _ := catalogue.New().Lookup("hashicorp")
	tests := []struct {
		name     string
		policies []engine.Policy
		workers  int
	}{
		{"every policy", all, runtime.GOMAXPROCS(0)},
		{"one policy that reads versions, three workers", []engine.Policy{parsedReader{policies.Strict{}}}, 3},
		{"one policy on text, three workers", []engine.Policy{hashicorp}, 3},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, json %v", tt.name, asJSON), func(t *testing.T) {
				var want, got bytes.Buffer
				if err := textEval(strings.NewReader(in), &want, tt.policies, asJSON, tt.workers); err != nil {
					t.Fatal(err)
				}
				if err := evalStream(strings.NewReader(in), &got, tt.policies, asJSON, tt.workers); err != nil {
					t.Fatal(err)
				}
				sameLines(t, got.String(), want.String())
			})
		}
	}
}

// sameLines fails t at the first line where got and want differ.
func sameLines(t *testing.T, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	g, w := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Fatalf("line %d of %d:\n%.2000q\nwant (text path):\n%.2000q", i+1, len(w), g[i], w[i])
		}
	}
	t.Fatalf("%d lines, want %d (text path)", len(g), len(w))
}

// exhaustiveLines returns the cases of compare's exhaustive domain of
// scope as eval lines, constraint by constraint with all its versions,
// taking every stride-th constraint, at most limit lines (0: all).
func exhaustiveLines(tb testing.TB, scope, stride, limit int) []string {
	tb.Helper()
	d, err := compare.Exhaustive(scope)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	n := 0
	err = d.Groups(func(g compare.Group) bool {
		n++
		if (n-1)%stride != 0 {
			return true
		}
		for _, v := range g.Versions {
			if limit > 0 && len(out) == limit {
				return false
			}
			out = append(out, g.Constraint+"\t"+v)
		}
		return true
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// shuffled returns a copy of lines in an order fixed by seed.
func shuffled(lines []string, seed uint64) []string {
	out := append([]string{}, lines...)
	r := rand.New(rand.NewPCG(seed, seed))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// longText is the length past which package batch keeps a version out
// of its tables and a constraint out of its caches.
const longText = 1 << 10

// evalInput is a large eval input: the scope-2 exhaustive cases of every
// stride-th constraint, by constraint (the table path); a shuffled sample
// of them (few lines of a constraint in a batch: the text path); a block
// version by version (the text path, and its compile cache across
// batches); then lines no table holds or that are odd, by constraint:
// versions longer than longText among short ones, constraints longer
// than longText, refused constraints, invalid UTF-8,
// "\r" inside a field, empty fields, repeated lines.
func evalInput(tb testing.TB, stride int) string {
	tb.Helper()
	byConstraint := exhaustiveLines(tb, 2, stride, 0)
	var b strings.Builder
	for _, l := range byConstraint {
		b.WriteString(l + "\n")
	}
	for _, l := range shuffled(byConstraint, 1)[:len(byConstraint)/3] {
		b.WriteString(l + "\n")
	}
	versions := []string{"1.0.0", "1.0.0-beta", "2.0.0-rc.1", "1.2.3", "0.9.0", "v1.0.0", "1.0", "x"}
	constraints := exhaustiveLines(tb, 1, 1, 0)
	for _, v := range versions {
		for i := 0; i < len(constraints); i += 83 {
			c, _, _ := strings.Cut(constraints[i], "\t")
			b.WriteString(c + "\t" + v + "\n")
		}
	}
	longVersion := "1.0.0-" + strings.Repeat("a.", longText/2) + "z"
	longConstraint := ">= 1.0.0-alpha" + strings.Repeat(", >= 0.0.1", longText/10)
	for _, c := range []string{">= 1.0.0-alpha", longConstraint, "=> 1", "", "~> 1.0\x80", ">= 1.0\r"} {
		for _, v := range []string{"1.0.0", longVersion, "2.0.0-beta", "1.0.0-beta\xff", "1.5.0", longVersion + "+b", "", "1.0.0\r", "1.0.0"} {
			b.WriteString(c + "\t" + v + "\n")
		}
	}
	return b.String()
}

// textEval is eval on the text path alone, as eval judged before the
// version tables: the lines in batches, each batch cut among the workers,
// each line judged with every policy by Compile (kept in a compile cache
// per worker and policy) and Match, then written in order. It is the
// reference of TestEvalTablesMatchTextPath and BenchmarkEval, and reads
// well-formed input only.
func textEval(r io.Reader, w io.Writer, ps []engine.Policy, asJSON bool, workers int) error {
	type line struct {
		constraint, version string
		results             []engine.Result
	}
	caches := make([][]*compileCache, workers)
	for i := range caches {
		for _, p := range ps {
			caches[i] = append(caches[i], &compileCache{policy: p, compiled: map[string]compiled{}})
		}
	}
	out := bufio.NewWriterSize(w, 64*1024)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	pending := make([]line, 0, batchLines)
	judge := func() error {
		chunk := (len(pending) + workers - 1) / workers
		var wg sync.WaitGroup
		for i := range workers {
			lo, hi := i*chunk, min((i+1)*chunk, len(pending))
			if lo >= hi {
				break
			}
			wg.Add(1)
			go func(caches []*compileCache, part []line) {
				defer wg.Done()
				for i := range part {
					part[i].results = make([]engine.Result, len(caches))
					for j, c := range caches {
						part[i].results[j] = c.judge(part[i].constraint, part[i].version)
					}
				}
			}(caches[i], pending[lo:hi])
		}
		wg.Wait()
		for _, l := range pending {
			if asJSON {
				if err := enc.Encode(batch.NewJSONLine(ps, l.constraint, l.version, l.results)); err != nil {
					return err
				}
				continue
			}
			out.WriteString(l.constraint)
			out.WriteByte('\t')
			out.WriteString(l.version)
			for _, r := range l.results {
				out.WriteByte('\t')
				out.WriteString(r.Verdict.String())
			}
			out.WriteByte('\n')
		}
		pending = pending[:0]
		return nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), lines.Max+2)
	sc.Split(lines.Split)
	for sc.Scan() {
		text := lines.TrimCR(sc.Bytes())
		tab := bytes.IndexByte(text, '\t')
		if tab < 0 {
			return fmt.Errorf("textEval: no tab in %q", text)
		}
		pending = append(pending, line{constraint: string(text[:tab]), version: string(text[tab+1:])})
		if len(pending) == batchLines {
			if err := judge(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if err := judge(); err != nil {
		return err
	}
	return out.Flush()
}

// batchLines is how many lines textEval judges at a time.
const batchLines = batch.MaxLines

// compileCache keeps one policy's compiled constraints for textEval, up
// to 8192 of them, starting over empty when full.
type compileCache struct {
	policy   engine.Policy
	compiled map[string]compiled
}

type compiled struct {
	m   engine.Matcher
	err error
}

// judge is the result of the policy's Compile and Match.
func (c *compileCache) judge(constraint, version string) engine.Result {
	e, ok := c.compiled[constraint]
	if !ok {
		e.m, e.err = c.policy.Compile(constraint)
		if e.err == nil && e.m == nil {
			e.err = nilMatcherError(c.policy)
		}
		if len(c.compiled) >= 8192 {
			clear(c.compiled)
		}
		c.compiled[constraint] = e
	}
	if e.err != nil {
		return engine.InvalidResult(e.err)
	}
	return e.m.Match(version)
}

// nilMatcherError is the refusal of a constraint that p compiled to no
// matcher and no error, as the engine words it.
func nilMatcherError(p engine.Policy) error {
	return fmt.Errorf("policy %q %w", p.Name(), engine.ErrNilMatcher)
}

// nativePolicy is a native policy of package policies: a Policy with the
// Judge that its Compile and Match apply.
type nativePolicy interface {
	engine.Policy
	engine.Judge
}

// parsedReader is a native policy that reads versions in the simplest
// way of an engine.VersionReader: each parsed once by the engine, then
// judged by the policy's Judge. It refuses a constraint exactly as the
// policy's Compile does. The tests run eval's and select's table paths
// with it, whatever the registered policies implement.
type parsedReader struct{ native nativePolicy }

var _ engine.VersionReader = parsedReader{}

// parsedReaders returns a parsedReader of every native policy of the
// catalogue.
func parsedReaders(tb testing.TB) []engine.Policy {
	tb.Helper()
	var out []engine.Policy
	for _, p := range policies.All() {
		if n, ok := p.(nativePolicy); ok {
			out = append(out, parsedReader{n})
		}
	}
	if len(out) == 0 {
		tb.Fatal("no native policy with a Judge")
	}
	return out
}

func (p parsedReader) Name() string { return p.native.Name() + "-parsed" }
func (p parsedReader) Rule() string { return p.native.Rule() }

// Compile is the native policy's.
func (p parsedReader) Compile(constraint string) (engine.Matcher, error) {
	return p.native.Compile(constraint)
}

// ReadVersions parses each version once.
func (p parsedReader) ReadVersions(versions []string) engine.VersionTable {
	t := &parsedTable{p: p, versions: make([]engine.Version, len(versions)), errs: make([]error, len(versions))}
	for i, v := range versions {
		t.versions[i], t.errs[i] = engine.ParseVersion(v)
	}
	return t
}

// parsedTable is the VersionTable of a parsedReader.
type parsedTable struct {
	p        parsedReader
	versions []engine.Version
	errs     []error // the parse errors, nil for the versions read
}

func (t *parsedTable) Len() int { return len(t.versions) }

func (t *parsedTable) Compile(constraint string) (engine.TableMatcher, error) {
	if _, err := t.p.native.Compile(constraint); err != nil {
		return nil, err
	}
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		return nil, err
	}
	return &parsedMatcher{t: t, c: c}, nil
}

// parsedMatcher judges a parsedTable's versions against one constraint.
type parsedMatcher struct {
	t *parsedTable
	c engine.Constraint
}

func (m *parsedMatcher) Judge(i int) engine.Result {
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(err)
	}
	return m.t.p.native.Judge(&m.c, &m.t.versions[i])
}

func (m *parsedMatcher) Verdicts(out []engine.Verdict) {
	for i := range out {
		out[i] = m.Judge(i).Verdict
	}
}

// compilesToNil is a policy whose Compile returns neither a matcher nor an
// error: eval judges every version Invalid under engine.ErrNilMatcher.
type compilesToNil struct{}

func (compilesToNil) Name() string                           { return "compiles-to-nil" }
func (compilesToNil) Rule() string                           { return "no matcher" }
func (compilesToNil) Compile(string) (engine.Matcher, error) { return nil, nil }
