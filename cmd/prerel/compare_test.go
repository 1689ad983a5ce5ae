package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/policies"
)

// runWith runs prerel in-process with a registry and environment of the
// test's choosing.
func runWith(t *testing.T, r *engine.Registry, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, registry: r,
		getenv: func(k string) string { return vars[k] }}
	code := run(e, args)
	return code, stdout.String(), stderr.String()
}

// renamed gives a policy another name, to stand in a registry for a policy
// whose behaviour changed.
type renamed struct {
	engine.Policy
	name string
}

func (r renamed) Name() string { return r.name }

func writeCases(t *testing.T, lines string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cases.tsv")
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompareBaselineGate checks the gate both ways: a run matches the
// baseline it wrote, and fails with the change in words when a policy's
// behaviour changes under the same name.
func TestCompareBaselineGate(t *testing.T) {
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n>= 1.1.0-beta.2\t1.1.0-beta.3\n= 2.0.0-beta.1\t2.0.0-beta.1\n>= 1.0.0\t1.2.0\n")
	baseline := filepath.Join(t.TempDir(), "baseline.json")

	before := engine.NewRegistry()
	for _, p := range []engine.Policy{policies.Strict{}, policies.Cargo{}} {
		if err := before.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runWith(t, before, nil, "compare", "--domain", cases, "--write-baseline", baseline)
	if code != exitOK {
		t.Fatalf("write-baseline: exit %d: %s", code, stderr)
	}
	code, _, stderr = runWith(t, before, nil, "compare", "--domain", cases, "--baseline", baseline)
	if code != exitOK || !strings.Contains(stderr, "matches the baseline") {
		t.Fatalf("same policies: exit %d: %s", code, stderr)
	}

	// "cargo" now behaves like lexical: the baseline must catch it.
	after := engine.NewRegistry()
	for _, p := range []engine.Policy{policies.Strict{}, renamed{policies.Lexical{}, "cargo"}} {
		if err := after.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	code, out, stderr := runWith(t, after, map[string]string{"GITHUB_STEP_SUMMARY": summary},
		"compare", "--domain", cases, "--baseline", baseline, "--format", "markdown")
	if code != exitFinding {
		t.Fatalf("changed policy: exit %d, want %d: %s", code, exitFinding, stderr)
	}
	// The changed verdicts, counted independently.
	moves := map[[2]engine.Verdict]int{}
	for _, c := range [][2]string{{">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1"}, {">= 1.1.0-beta.2", "1.1.0-beta.3"},
		{"= 2.0.0-beta.1", "2.0.0-beta.1"}, {">= 1.0.0", "1.2.0"}} {
		was, now := engine.Evaluate(policies.Cargo{}, c[0], c[1]).Verdict, engine.Evaluate(policies.Lexical{}, c[0], c[1]).Verdict
		if was != now {
			moves[[2]engine.Verdict{was, now}]++
		}
	}
	if len(moves) == 0 {
		t.Fatal("the cases do not tell cargo from lexical")
	}
	countOf := func(n int) string { return plural.Of(n, "case", "cases") }
	line := fmt.Sprintf("cargo: %s allow → reject, %s reject → allow", countOf(moves[[2]engine.Verdict{engine.Allow, engine.Reject}]),
		countOf(moves[[2]engine.Verdict{engine.Reject, engine.Allow}]))
	for _, want := range []string{"differs from the baseline", line, "--write-baseline"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("drift message lacks %q:\n%s", want, stderr)
		}
	}
	written, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for name, md := range map[string]string{"report": out, "step summary": string(written)} {
		if !strings.HasPrefix(md, "## prerel compare\n\n### Drift: the run differs from the baseline") {
			t.Errorf("the %s does not begin with the drift:\n%s", name, md)
		}
		if !strings.Contains(md, "- **`cargo`**: "+strings.TrimPrefix(line, "cargo: ")) || strings.Contains(md, "**`strict`**") {
			t.Errorf("the %s does not give cargo's changed verdicts alone:\n%s", name, md)
		}
	}
	_, out, _ = runWith(t, before, nil, "compare", "--domain", cases, "--baseline", baseline, "--format", "markdown")
	if !strings.HasPrefix(out, "## prerel compare\n\n**The run matches the baseline") {
		t.Errorf("a matching run does not say so first:\n%s", out)
	}
}

func TestCompareFormatsAndStepSummary(t *testing.T) {
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n")
	summary := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(summary, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runWith(t, catalogue.New(), map[string]string{"GITHUB_STEP_SUMMARY": summary},
		"compare", "--policies", "lexical,cargo", "--domain", cases, "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var report struct {
		Schema   int
		Domain   struct{ Cases int }
		Policies []string
		Pairs    []struct {
			A, B           string
			Agree, Diverge int
		}
		Classes []struct {
			A, B, Signature, Cause string
			Count                  int
			Witness                struct {
				Constraint, Version string
				AVerdict            string `json:"a_verdict"`
				BVerdict            string `json:"b_verdict"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if report.Schema < 1 || report.Domain.Cases != 1 || len(report.Pairs) != 1 || report.Pairs[0].Diverge != 1 || len(report.Classes) != 1 {
		t.Fatalf("unexpected report: %s", out)
	}
	w := report.Classes[0].Witness
	if w.Constraint != ">= 1.0.0-beta, < 1.0.0" || w.Version != "1.0.0-rc.1" || w.AVerdict != "reject" || w.BVerdict != "allow" {
		t.Errorf("witness = %+v", w)
	}
	got, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), "earlier step\n") || !strings.Contains(string(got), "## prerel compare") {
		t.Errorf("step summary was not appended to:\n%s", got)
	}
}

func TestCompareUsage(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"compare", "--policies", "strict"}, "at least two policies"},
		{[]string{"compare", "--scope", "9"}, "scope"},
		{[]string{"compare", "--domain", "/nonexistent/cases.tsv"}, "/nonexistent/cases.tsv"},
		{[]string{"compare", "--domain", "random", "--count", "0"}, "--count must be at least 1"},
		{[]string{"compare", "--domain", "corpus", "--pairing", "some"}, "some"},
		{[]string{"compare", "--baseline", "/nonexistent/baseline.json"}, "/nonexistent/baseline.json"},
		{[]string{"compare", "extra"}, "compare takes no arguments"},
		{[]string{"compare", "--policies", "strict,cargo", "--reference", "linear"}, `the reference "linear" is not among the policies compared`},
		{[]string{"compare", "--rank", "size"}, `unknown rank "size"`},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("prerel %q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.stderr)
		}
	}
	bad := writeCases(t, ">= 1.0.0\t1.0.0\nno tab\n")
	code, _, stderr := runCLI(t, "", "compare", "--domain", bad)
	if code != exitUsage || !strings.Contains(stderr, ":2:") {
		t.Errorf("bad case file: exit %d, stderr %q; want exit 2 naming line 2", code, stderr)
	}
}

func TestCompareRandomIsReproducible(t *testing.T) {
	args := []string{"compare", "--policies", "strict,cargo,hashicorp", "--domain", "random", "--seed", "7", "--count", "2000", "--format", "json"}
	_, first, _ := runCLI(t, "", args...)
	code, second, stderr := runCLI(t, "", args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if first != second || !strings.Contains(first, `"cases": 2000`) {
		t.Errorf("two runs with seed 7 differ or miscount")
	}
}

func TestProgressOnlyForLongRuns(t *testing.T) {
	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }
	tests := []struct {
		name  string
		steps []time.Duration // time of each report; the last one is the end
		want  string
	}{
		{"short run", []time.Duration{100 * time.Millisecond, 900 * time.Millisecond}, ""},
		{"long run", []time.Duration{500 * time.Millisecond, 1500 * time.Millisecond, 2 * time.Second},
			"\r50/100 cases (50%)\r100/100 cases (100%) in 2s\n"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		clock = time.Unix(0, 0)
		progress := progressPrinter(&env{stderr: &stderr}, now)
		for i, at := range tt.steps {
			clock = time.Unix(0, 0).Add(at)
			done := int64(50)
			if i == len(tt.steps)-1 {
				done = 100
			}
			progress(done, 100)
		}
		if stderr.String() != tt.want {
			t.Errorf("%s: progress %q, want %q", tt.name, stderr.String(), tt.want)
		}
	}
}

// TestDriftExampleBaseline keeps testdata/drift/cargo-before.json, the
// baseline the README's drift example reads, equal to what a cargo that
// behaved like lexical would have written (-update rewrites it).
func TestDriftExampleBaseline(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	before := engine.NewRegistry()
	for _, p := range []engine.Policy{policies.Strict{}, renamed{policies.Lexical{}, "cargo"}} {
		if err := before.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "baseline.json")
	code, _, stderr := runWith(t, before, nil, "compare", "--domain", "testdata/cases.tsv", "--write-baseline", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "drift", "cargo-before.json"), got)
}
