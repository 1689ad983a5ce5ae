package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
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
		getenv: testEnv(vars)}
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
	if !strings.HasPrefix(string(got), "earlier step\n") || !strings.Contains(string(got), "## prerel compare") ||
		!strings.Contains(string(got), "**Policies by group:**  \n**proposals**: `lexical` *(reference)*, `cargo`\n") {
		t.Errorf("step summary was not appended to:\n%s", got)
	}
}

// TestCompareHTML checks that --format html writes a page, with the name
// of a domain file shown as text.
func TestCompareHTML(t *testing.T) {
	// A policy of each group, today's rules among them.
	policies := "terraform-module,apparentlymart,strict,renovate,terraform-ls,hashicorp,linear"
	code, out, stderr := runCLI(t, "", "compare", "--scope", "1", "--policies", policies, "--format", "html")
	if code != exitOK || !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.Contains(out, "<svg") {
		t.Fatalf("exit %d, stdout %.60q, stderr %s", code, out, stderr)
	}
	// The policies are grouped as the catalogue groups them.
	for _, want := range []string{"Policies by group:<br>\n<strong>installers</strong>: ", "<code>terraform-module</code> <em>(today&#39;s rule, reference)</em>",
		"<code>apparentlymart</code> <em>(today&#39;s rule)</em>", "<strong>updaters</strong>: ", "<th>group</th>"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	// A domain file's name is part of the report; here it is markup.
	dir := t.TempDir()
	cases := filepath.Join(dir, "<img src=x onerror=alert(1)>.tsv")
	if err := os.WriteFile(cases, []byte(">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runWith(t, catalogue.New(), nil, "compare", "--policies", "lexical,cargo", "--domain", cases, "--format", "html")
	if code != exitOK || strings.Contains(out, "<img") || !strings.Contains(out, "&lt;img src=x onerror=alert(1)&gt;.tsv") {
		t.Errorf("hostile file name: exit %d, stderr %s, page:\n%s", code, stderr, out)
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
		{[]string{"compare", "--domain", "random", "--count", "0"}, "--count must be from 1 to 1000000, got 0"},
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

// TestDriftExampleBaseline keeps testdata/drift/cargo-before.json, the
// baseline the drift example of docs/ci.md reads, equal to what a cargo that
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

// twoPolicies is a registry of strict and cargo alone, to keep the runs
// small.
func twoPolicies(t *testing.T) *engine.Registry {
	t.Helper()
	r := engine.NewRegistry()
	for _, p := range []engine.Policy{policies.Strict{}, policies.Cargo{}} {
		if err := r.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// divergingCase is a case on which strict and cargo differ.
const divergingCase = ">= 1.0.0-beta\t1.0.0-rc\n"

// Flags that apply to one kind of domain only are refused with any other,
// when given on the command line.
func TestCompareFlagsThatDoNotApply(t *testing.T) {
	cases := writeCases(t, divergingCase)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--scope", "1", "--pairing", "bogus"}, "--pairing applies only to --domain corpus, and this run has --domain exhaustive"},
		{[]string{"--pairing", "all", "--domain", "random"}, "--pairing applies only to --domain corpus"},
		{[]string{"--count", "5"}, "--count applies only to --domain random, and this run has --domain exhaustive"},
		{[]string{"--seed", "3", "--domain", "corpus"}, "--seed applies only to --domain random, and this run has --domain corpus"},
		{[]string{"--domain", "random", "--scope", "2"}, "--scope applies only to --domain exhaustive, and this run has --domain random"},
		{[]string{"--domain", cases, "--scope", "1"}, "--scope applies only to --domain exhaustive, and this run has a file domain"},
		{[]string{"--domain", cases, "--count=10"}, "--count applies only to --domain random"},
	}
	for _, tt := range tests {
		code, out, stderr := runWith(t, twoPolicies(t), nil, append([]string{"compare"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || out != "" {
			t.Errorf("compare %q: exit %d, stderr %q; want exit 2 and %q before any run", tt.args, code, stderr, tt.want)
		}
	}
	// The flags of the domain in use are fine.
	for _, args := range [][]string{{"--scope", "1"}, {"--domain", "random", "--seed", "3", "--count", "50"}} {
		if code, _, stderr := runWith(t, twoPolicies(t), nil, append([]string{"compare"}, args...)...); code != exitOK {
			t.Errorf("compare %q: exit %d: %s", args, code, stderr)
		}
	}
}

// A --domain that names neither a domain nor a file lists the domains.
func TestCompareDomainNames(t *testing.T) {
	t.Chdir(t.TempDir())
	tests := []struct {
		domain string
		want   []string
	}{
		{"", []string{"--domain is empty: expected exhaustive, random, corpus, ages or a file of CONSTRAINT<TAB>VERSION lines"}},
		{"Exhaustive", []string{"--domain Exhaustive: no such domain or file: expected exhaustive, random, corpus, ages or a file", "(did you mean exhaustive?)"}},
		{"rand", []string{"--domain rand: no such domain or file: expected exhaustive, random, corpus"}},
		{"corpsu", []string{"--domain corpsu: no such domain or file", "(did you mean corpus?)"}},
		{"missing/cases.tsv", []string{"missing/cases.tsv: no such file or directory"}},
	}
	for _, tt := range tests {
		code, _, stderr := runWith(t, twoPolicies(t), nil, "compare", "--domain", tt.domain)
		if code != exitUsage {
			t.Errorf("--domain %q: exit %d, want 2", tt.domain, code)
		}
		mustContain(t, fmt.Sprintf("--domain %q", tt.domain), stderr, tt.want)
	}
}

// The random domain's --count has an upper limit.
func TestCompareRandomCountLimit(t *testing.T) {
	for _, n := range []string{"1000001", "9223372036854775807", "-5"} {
		code, _, stderr := runWith(t, twoPolicies(t), nil, "compare", "--domain", "random", "--count", n)
		if code != exitUsage || !strings.Contains(stderr, "--count must be from 1 to 1000000") {
			t.Errorf("--count %s: exit %d, stderr %q", n, code, stderr)
		}
	}
}

// pipePath returns a path that reads what is written to the returned
// writer: the read end of a pipe under /proc/self/fd.
func pipePath(t *testing.T, text string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	go func() { w.WriteString(text); w.Close() }()
	return fmt.Sprintf("/proc/self/fd/%d", r.Fd())
}

// A --domain read from a pipe runs every case it holds; a pipe without
// cases is an error.
func TestCompareDomainFromAPipe(t *testing.T) {
	file := writeCases(t, divergingCase)
	_, fromFile, _ := runWith(t, twoPolicies(t), nil, "compare", "--domain", file, "--format", "json")

	path := pipePath(t, divergingCase)
	baseline := filepath.Join(t.TempDir(), "b.json")
	code, out, stderr := runWith(t, twoPolicies(t), nil, "compare", "--domain", path, "--format", "json", "--write-baseline", baseline)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, want := strings.ReplaceAll(out, path, "F"), strings.ReplaceAll(fromFile, file, "F"); got != want {
		t.Errorf("the report of the pipe differs from that of the file:\n%s\nwant\n%s", got, want)
	}
	mustContain(t, "report", out, []string{`"cases": 1`, ": 1 case\""})
	written, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "baseline", string(written), []string{`"cases":1`, `"diverge":1`})

	code, _, stderr = runWith(t, twoPolicies(t), nil, "compare", "--domain", pipePath(t, "# nothing\n"))
	if code != exitUsage || !strings.Contains(stderr, "no cases") {
		t.Errorf("a pipe without cases: exit %d, stderr %q", code, stderr)
	}
}

// --write-baseline writes a symbolic link's target with its mode, and
// refuses a directory, FIFO or device before the run.
func TestCompareWriteBaselineTargets(t *testing.T) {
	cases := writeCases(t, divergingCase)
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runWith(t, twoPolicies(t), nil, "compare", "--domain", cases, "--write-baseline", link)
	if code != exitOK || !strings.Contains(stderr, "wrote the baseline to "+link) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symbolic link was replaced")
	}
	if fi, err := os.Stat(real); err != nil || fi.Mode().Perm() != 0o600 || fi.Size() < 10 {
		t.Errorf("the link's target: %v, %v; want the baseline with mode 0600", fi, err)
	}

	fifo := filepath.Join(dir, "fifo1")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	somedir := filepath.Join(dir, "somedir")
	if err := os.Mkdir(somedir, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want string
	}{
		{somedir, "--write-baseline: " + somedir + " is a directory"},
		{fifo, "--write-baseline: " + fifo + " is not a regular file (it is a FIFO or pipe)"},
		{"/dev/null", "--write-baseline: /dev/null is not a regular file (it is a character device)"},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		var code int
		var out, stderr string
		go func() {
			defer close(done)
			code, out, stderr = runWith(t, twoPolicies(t), nil, "compare", "--domain", cases, "--write-baseline", tt.path)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("--write-baseline %s blocked", tt.path)
		}
		if code != exitUsage || !strings.Contains(stderr, tt.want) || out != "" || strings.Contains(stderr, ".tmp") {
			t.Errorf("--write-baseline %s: exit %d, stdout %d bytes, stderr %q; want exit 2 and %q before the run", tt.path, code, len(out), stderr, tt.want)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
	// A directory that does not exist cannot be written: an outside
	// failure, also told before the run.
	nodir := filepath.Join(dir, "nodir", "b.json")
	code, out, stderr := runWith(t, twoPolicies(t), nil, "compare", "--domain", cases, "--write-baseline", nodir)
	if want := "cannot write " + nodir + ": the directory " + filepath.Dir(nodir) + " does not exist"; code != exitFailure || out != "" || !strings.Contains(stderr, want) {
		t.Errorf("a missing directory: exit %d, stderr %q; want exit 3 and %q", code, stderr, want)
	}
}

// A step summary that cannot be written does not stop the baseline from
// being written and checked: the drift is still told, with exit status 3
// for the failure.
func TestCompareStepSummaryFailureKeepsTheBaseline(t *testing.T) {
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n>= 1.1.0-beta.2\t1.1.0-beta.3\n>= 1.0.0\t1.2.0\n")
	dir := t.TempDir()
	somedir := filepath.Join(dir, "somedir")
	if err := os.Mkdir(somedir, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "summary.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	drifted := filepath.Join(dir, "drifted.json")
	after := engine.NewRegistry()
	for _, p := range []engine.Policy{policies.Strict{}, renamed{policies.Lexical{}, "cargo"}} {
		if err := after.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runWith(t, after, nil, "compare", "--domain", cases, "--write-baseline", drifted); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, summary := range []string{somedir, fifo} {
		vars := map[string]string{"GITHUB_STEP_SUMMARY": summary}
		written := filepath.Join(dir, "nb.json")
		os.Remove(written)
		code, out, stderr := runWith(t, twoPolicies(t), vars, "compare", "--domain", cases, "--write-baseline", written)
		if code != exitFailure {
			t.Errorf("%s: exit %d, want 3: %s", summary, code, stderr)
		}
		mustContain(t, "stderr", stderr, []string{"warning: cannot append the report to GITHUB_STEP_SUMMARY " + summary, "wrote the baseline to " + written})
		if _, err := compare.ReadBaseline(written); err != nil {
			t.Errorf("%s: the baseline was not written: %v", summary, err)
		}
		if !strings.Contains(out, "prerel compare:") {
			t.Errorf("%s: no report on stdout", summary)
		}

		code, _, stderr = runWith(t, twoPolicies(t), vars, "compare", "--domain", cases, "--baseline", drifted)
		if code != exitFailure {
			t.Errorf("%s with a drift: exit %d, want 3: %s", summary, code, stderr)
		}
		mustContain(t, "stderr", stderr, []string{"warning: cannot append", "the run differs from the baseline " + drifted,
			"cargo: ", "although the run also differs from the baseline"})
	}
}

// A baseline matches a run over the same cases whatever the file is
// called and whichever policy is named first; an older baseline without a
// digest still reads.
func TestCompareBaselineIgnoresPathAndPolicyOrder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("div.tsv", []byte(divergingCase+">= 1.0.0\t1.2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "compare", "--policies", "strict,cargo", "--domain", "div.tsv", "--write-baseline", "b.json"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{
		{"--policies", "strict,cargo", "--domain", "./div.tsv"},
		{"--policies", "strict,cargo", "--domain", filepath.Join(dir, "div.tsv")},
		{"--policies", "cargo,strict", "--domain", "div.tsv"},
	} {
		code, _, stderr := runCLI(t, "", append([]string{"compare", "--baseline", "b.json"}, args...)...)
		if code != exitOK || !strings.Contains(stderr, "matches the baseline") {
			t.Errorf("%q: exit %d: %s", args, code, stderr)
		}
	}
	data, err := os.ReadFile("b.json")
	if err != nil {
		t.Fatal(err)
	}
	var digest = regexp.MustCompile(`,"digest":"sha256:[0-9a-f]+"`)
	if !digest.Match(data) {
		t.Fatalf("the baseline has no digest:\n%s", data)
	}
	if err := os.WriteFile("old.json", digest.ReplaceAll(data, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "compare", "--policies", "strict,cargo", "--domain", "div.tsv", "--baseline", "old.json"); code != exitOK {
		t.Errorf("an older baseline of the same file: exit %d: %s", code, stderr)
	}
	code, _, stderr := runCLI(t, "", "compare", "--policies", "strict,cargo", "--domain", "./div.tsv", "--baseline", "old.json")
	if code != exitFinding || !strings.Contains(stderr, "written by an older prerel") {
		t.Errorf("an older baseline of another path: exit %d: %s", code, stderr)
	}
}

// A corrupt baseline or one that is not a baseline is bad input, with the
// place of the error.
func TestCompareCorruptBaseline(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text, want string
	}{
		{"empty.json", "", "empty.json: the file is empty"},
		{"truncated.json", `{"schema":1,`, "truncated.json:1:13: the file ends in the middle of the report"},
		{"trailing.json", "{\"schema\":1}\n{\"x\":1}", "trailing.json:2:1: data after the end of the report"},
		{"schema-only.json", `{"schema":1}`, "schema-only.json: not a report or baseline written by prerel compare"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runWith(t, twoPolicies(t), nil, "compare", "--scope", "1", "--baseline", path)
		if code != exitUsage || !strings.Contains(stderr, filepath.Join(dir, tt.want)) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", tt.name, code, stderr, tt.want)
		}
	}
}

// stderr lists the first changes of a large drift and counts the rest.
func TestCompareDriftOnStderrIsCapped(t *testing.T) {
	cases := writeCases(t, divergingCase)
	path := filepath.Join(t.TempDir(), "b.json")
	if code, _, stderr := runWith(t, twoPolicies(t), nil, "compare", "--domain", cases, "--write-baseline", path); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var b map[string]json.RawMessage
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &b); err != nil {
		t.Fatal(err)
	}
	var classes []map[string]any
	if err := json.Unmarshal(b["classes"], &classes); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		c := map[string]any{}
		for k, v := range classes[0] {
			c[k] = v
		}
		c["signature"] = fmt.Sprintf("gone %d; a reject, b allow", i)
		classes = append(classes, c)
	}
	if b["classes"], err = json.Marshal(classes); err != nil {
		t.Fatal(err)
	}
	if data, err = json.Marshal(b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runWith(t, twoPolicies(t), nil, "compare", "--domain", cases, "--baseline", path)
	if code != exitFinding {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mustContain(t, "stderr", stderr, []string{"in 40 ways", "... and 20 more changes"})
	if n := strings.Count(stderr, "  - "); n != stderrChanges {
		t.Errorf("stderr lists %d changes, want %d", n, stderrChanges)
	}
}

// TestCompareBaselinePolicies checks that a baseline gates the policies
// it records: without --policies the run compares those, and one note
// after the drift's answer names the registered policies the baseline
// does not gate; --policies other than the baseline's, or a baseline
// policy no longer registered, is a usage error that names them.
func TestCompareBaselinePolicies(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("div.tsv", []byte(divergingCase+">= 1.0.0\t1.2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("mine.hcl", []byte(`policy "mine" { admit = !version.is_prerelease }`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, w := range [][]string{
		{"--policies", "strict,cargo", "--write-baseline", "b.json"},
		{"--policy-file", "mine.hcl", "--policies", "strict,mine", "--write-baseline", "mine.json"},
	} {
		if code, _, stderr := runCLI(t, "", append([]string{"compare", "--domain", "div.tsv"}, w...)...); code != exitOK {
			t.Fatalf("%q: exit %d: %s", w, code, stderr)
		}
	}
	// note is the note for a baseline of path holding the policies in:
	// every other registered policy, in the catalogue's order.
	note := func(path string, in ...string) string {
		var ungated []string
		for _, n := range catalogue.New().Names() {
			if !slices.Contains(in, n) {
				ungated = append(ungated, n)
			}
		}
		return "prerel compare: note: not in the baseline " + path + ": " + strings.Join(ungated, ", ") + "; compare --write-baseline without --baseline gates every policy\n"
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		policies string // of the JSON report, when the run succeeds
		stderr   string // exactly
	}{
		{"no --policies: the baseline's, and a note", []string{"--baseline", "b.json"}, exitOK, "strict,cargo",
			"prerel compare: the run matches the baseline b.json\n" + note("b.json", "strict", "cargo")},
		{"the baseline's policies in another order", []string{"--baseline", "b.json", "--policies", "cargo,strict"}, exitOK, "cargo,strict",
			"prerel compare: the run matches the baseline b.json\n"},
		{"--policies other than the baseline's", []string{"--baseline", "b.json", "--policies", "strict,linear"}, exitUsage, "",
			"prerel compare: --baseline b.json: the policies chosen differ from the baseline's: only the baseline has cargo; only the policies chosen have linear; without --policies the run compares the baseline's policies\n"},
		{"one policy more", []string{"--baseline", "b.json", "--policies", "strict,cargo,linear"}, exitUsage, "",
			"prerel compare: --baseline b.json: the policies chosen differ from the baseline's: only the policies chosen have linear; without --policies the run compares the baseline's policies\n"},
		{"a baseline policy not registered", []string{"--baseline", "mine.json"}, exitUsage, "",
			"prerel compare: --baseline mine.json: the baseline has policies that are not registered: mine; load them (--policy-file, --policy-cmd) or rewrite the baseline with --write-baseline\n"},
		{"its policy file loaded", []string{"--baseline", "mine.json", "--policy-file", "mine.hcl"}, exitOK, "strict,mine",
			"prerel compare: the run matches the baseline mine.json\n" + note("mine.json", "strict")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", append([]string{"compare", "--domain", "div.tsv", "--format", "json"}, tt.args...)...)
			if code != tt.code || stderr != tt.stderr {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and\n%s", code, stderr, tt.code, tt.stderr)
			}
			if tt.code != exitOK {
				if out != "" {
					t.Errorf("a report after a usage error:\n%s", out)
				}
				return
			}
			var rep struct{ Policies []string }
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(rep.Policies, ","); got != tt.policies {
				t.Errorf("the run compares %s, want %s", got, tt.policies)
			}
		})
	}
}
