package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/lines"
	"github.com/prerel/prerel/report"
)

// failingWriter fails every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// failingReader fails every read, as a device with an I/O error does.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("input/output error") }

// exitCase is one run of prerel and the exit status it must end with.
type exitCase struct {
	name   string
	args   []string
	stdin  io.Reader         // nil: empty
	stdout io.Writer         // nil: a buffer
	vars   map[string]string // the environment
	code   int
	stderr string // a part of stderr
}

func runExitCases(t *testing.T, tests []exitCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			e := &env{stdin: tt.stdin, stdout: tt.stdout, stderr: &stderr, registry: catalogue.New(),
				getenv: testEnv(tt.vars)}
			if e.stdin == nil {
				e.stdin = strings.NewReader("")
			}
			if e.stdout == nil {
				e.stdout = &stdout
			}
			code := run(e, tt.args)
			if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("prerel %q: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr.String(), tt.code, tt.stderr)
			}
		})
	}
}

func TestExitStatusPolicies(t *testing.T) {
	runExitCases(t, []exitCase{
		{name: "stdout fails", args: []string{"policies"}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
	})
}

func TestExitStatusCheck(t *testing.T) {
	runExitCases(t, []exitCase{
		{name: "stdout fails", args: []string{"check", ">= 1.0.0", "1.0.0"}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
		{name: "stdout fails, json", args: []string{"check", "--format", "json", ">= 1.0.0", "1.0.0"}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
	})
}

func TestExitStatusEval(t *testing.T) {
	runExitCases(t, []exitCase{
		{name: "success", args: []string{"eval"}, stdin: strings.NewReader(">= 1\t1.0.0\n"), code: exitOK},
		{name: "an invalid pair is a verdict", args: []string{"eval"}, stdin: strings.NewReader("=> 1\tx\n"), code: exitOK},
		{name: "bad line", args: []string{"eval"}, stdin: strings.NewReader("no tab\n"), code: exitUsage, stderr: "stdin line 1"},
		{name: "line too long", args: []string{"eval"}, stdin: strings.NewReader(strings.Repeat("x", lines.Max+1)), code: exitUsage, stderr: "stdin line 1: line longer than 1048576 bytes"},
		{name: "stdin fails", args: []string{"eval"}, stdin: failingReader{}, code: exitFailure, stderr: "stdin line 1: input/output error"},
		{name: "stdout fails", args: []string{"eval"}, stdin: strings.NewReader(">= 1\t1.0.0\n"), stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
		{name: "stdout fails, json", args: []string{"eval", "--format", "json"}, stdin: strings.NewReader(">= 1\t1.0.0\n"), stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
	})
}

func TestExitStatusSelect(t *testing.T) {
	dir := t.TempDir()
	runExitCases(t, []exitCase{
		{name: "missing versions file", args: []string{"select", "--versions-file", filepath.Join(dir, "nope.txt"), ">= 1"}, code: exitUsage, stderr: "nope.txt"},
		{name: "versions file is a directory", args: []string{"select", "--versions-file", dir, ">= 1"}, code: exitUsage, stderr: "is a directory"},
		{name: "stdout fails", args: []string{"select", ">= 1", "1.0.0"}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
	})
}

func TestExitStatusExplain(t *testing.T) {
	runExitCases(t, []exitCase{
		{name: "stdout fails", args: []string{"explain", "--policy", "strict", ">= 1", "1.0.0"}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
		{name: "stdout fails, json", args: []string{"explain", "--format", "json", "--policy", "strict", ">= 1", "1.0.0"}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
	})
}

func TestExitStatusCompare(t *testing.T) {
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n>= 1.0.0\t1.2.0\n")
	more := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n>= 1.0.0\t1.2.0\n>= 1.0.0-beta\t1.0.0-rc.1\n") // another domain: drift
	dir := t.TempDir()
	baseline := filepath.Join(dir, "baseline.json")
	if code, _, stderr := runCLI(t, "", "compare", "--policies", "strict,cargo", "--domain", cases, "--write-baseline", baseline); code != exitOK {
		t.Fatalf("write-baseline: exit %d: %s", code, stderr)
	}
	run := func(more ...string) []string {
		return append([]string{"compare", "--policies", "strict,cargo", "--domain", cases}, more...)
	}
	runExitCases(t, []exitCase{
		{name: "success", args: run(), code: exitOK},
		{name: "matches the baseline", args: run("--baseline", baseline), code: exitOK, stderr: "matches the baseline"},
		{name: "baseline drift", args: []string{"compare", "--policies", "strict,cargo", "--domain", more, "--baseline", baseline},
			code: exitFinding, stderr: "the run differs from the baseline " + baseline + " in "},
		{name: "policies other than the baseline's", args: []string{"compare", "--policies", "strict,lexical", "--domain", cases, "--baseline", baseline},
			code: exitUsage, stderr: "the policies chosen differ from the baseline's: only the baseline has cargo; only the policies chosen have lexical"},
		{name: "format md", args: run("--format", "md"), code: exitUsage, stderr: `unknown format "md" (expected text, markdown, json, html, sarif)`},
		{name: "one policy", args: []string{"compare", "--policies", "strict", "--domain", cases}, code: exitUsage, stderr: "at least two policies"},
		{name: "a policy twice", args: []string{"compare", "--policies", "strict,strict", "--domain", cases}, code: exitUsage, stderr: `policy "strict" given twice`},
		{name: "missing baseline", args: run("--baseline", filepath.Join(dir, "nope.json")), code: exitUsage, stderr: "nope.json"},
		{name: "malformed baseline", args: run("--baseline", cases), code: exitUsage, stderr: "cases.tsv:1:1: malformed JSON"},
		{name: "baseline cannot be written", args: run("--write-baseline", filepath.Join(dir, "no", "such", "dir", "b.json")), code: exitFailure, stderr: "cannot write"},
		{name: "step summary cannot be written", args: run(), vars: map[string]string{"GITHUB_STEP_SUMMARY": dir}, code: exitFailure, stderr: "GITHUB_STEP_SUMMARY"},
		{name: "stdout fails", args: run(), stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
	})
}

func TestExitStatusResolve(t *testing.T) {
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance", http.StatusInternalServerError)
	}))
	defer failing.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	badConfig := writeModule(t, map[string]string{
		"main.tf":    "module \"a\" {\n  source  = \"corp/a/aws\"\n  version = \">= 1.0.0\"\n}\n",
		"prerel.hcl": "default_policy = \"carg\"\n",
	})
	runExitCases(t, []exitCase{
		{name: "success", args: []string{"resolve", "--index", resolveIndex, "--lock-file", "-", resolveExample}, code: exitOK},
		{name: "unsatisfied module", args: []string{"resolve", "--index", resolveIndex, "--module-policy", "consul_next=terraform-module", resolveExample},
			code: exitFinding, stderr: `module "consul_next"`},
		{name: "unknown flag", args: []string{"resolve", "--nope", resolveExample}, code: exitUsage, stderr: "unknown flag: --nope"},
		{name: "two directories", args: []string{"resolve", "--index", resolveIndex, resolveExample, resolveExample}, code: exitUsage, stderr: "got 2 arguments"},
		{name: "config error", args: []string{"resolve", "--index", resolveIndex, badConfig}, code: exitUsage, stderr: `"carg"`},
		{name: "missing index", args: []string{"resolve", "--index", "nope.json", resolveExample}, code: exitUsage, stderr: "nope.json"},
		{name: "registry answers 500", args: []string{"resolve", "--registry-url", failing.URL, "--retries", "0", resolveExample},
			code: exitFailure, stderr: "could not be listed"},
		{name: "registry unreachable", args: []string{"resolve", "--registry-url", closed.URL, "--retries", "0", resolveExample},
			code: exitFailure, stderr: "could not be listed"},
		{name: "stdout fails", args: []string{"resolve", "--index", resolveIndex, resolveExample}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
	})
}

// writeModule writes files into a new directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestExitStatusOfErrors checks the mapping from a command's error to the
// exit status.
func TestExitStatusOfErrors(t *testing.T) {
	plain := errors.New("plain")
	notExist := &os.PathError{Op: "open", Path: "f", Err: os.ErrNotExist}
	denied := &os.PathError{Op: "open", Path: "f", Err: os.ErrPermission}
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, exitOK},
		{"usage", usage(plain), exitUsage},
		{"usagef", usagef("bad %s", "flag"), exitUsage},
		{"finding", finding(plain), exitFinding},
		{"failure", failure(plain), exitFailure},
		{"wrapped usage", fmt.Errorf("context: %w", usage(plain)), exitUsage},
		{"no status", plain, exitFailure},
		{"missing file", inputError(notExist), exitUsage},
		{"unreadable file", inputError(denied), exitFailure},
		{"malformed file", inputError(errors.New("f:1: no tab")), exitUsage},
		{"usage of nil", usage(nil), exitOK},
		{"failure of nil", failure(nil), exitOK},
	}
	for _, tt := range tests {
		if got := exitStatus(tt.err); got != tt.want {
			t.Errorf("%s: exitStatus(%v) = %d, want %d", tt.name, tt.err, got, tt.want)
		}
	}
}

// TestExitStatusDocumented checks that 'prerel --help' and the package
// documentation give the same exit status table.
func TestExitStatusDocumented(t *testing.T) {
	_, help, _ := runCLI(t, "", "--help")
	if !strings.Contains(help, exitStatusHelp) {
		t.Errorf("prerel --help lacks the exit status table:\n%s", help)
	}
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	for _, line := range strings.Split(string(src), "\n") {
		if line == "//" {
			doc.WriteString("\n")
		} else if text, ok := strings.CutPrefix(line, "// "); ok {
			doc.WriteString(text + "\n")
		} else if text, ok := strings.CutPrefix(line, "//"); ok {
			doc.WriteString(text + "\n")
		}
	}
	if !strings.Contains(doc.String(), exitStatusHelp) {
		t.Errorf("the package documentation in doc.go lacks the exit status table:\n%s", exitStatusHelp)
	}
}

// panicking is a policy that panics when it compiles a constraint or, when
// inMatch is set, when it judges a version: a bug, for run to report.
type panicking struct{ inMatch bool }

func (panicking) Name() string { return "panicking" }
func (panicking) Rule() string { return "panics" }
func (p panicking) Compile(string) (engine.Matcher, error) {
	if p.inMatch {
		return p, nil
	}
	panic("the policy broke")
}
func (panicking) Match(string) engine.Result { panic(fmt.Errorf("the matcher broke")) }

// admitsAll is a policy that admits every version.
type admitsAll struct{}

func (admitsAll) Name() string                           { return "admits-all" }
func (admitsAll) Rule() string                           { return "admits everything" }
func (admitsAll) Compile(string) (engine.Matcher, error) { return admitsAll{}, nil }
func (admitsAll) Match(string) engine.Result             { return engine.Allowed("admitted") }

// TestInternalErrorExitsFour checks that a panic, in a command or in a
// goroutine it started, is reported as an internal error with a stack
// trace and ends with exitInternal.
func TestInternalErrorExitsFour(t *testing.T) {
	tests := []struct {
		name    string
		inMatch bool
		stdin   string
		args    []string
		stderr  string
	}{
		{"check", false, "", []string{"check", "--policies", "panicking", ">= 1", "1.0.0"}, "prerel check: internal error: the policy broke\n"},
		{"select", true, "", []string{"select", "--policies", "panicking", ">= 1", "1.0.0"}, "prerel select: internal error: the matcher broke\n"},
		{"explain", false, "", []string{"explain", "--policy", "panicking", ">= 1", "1.0.0"}, "prerel explain: internal error: the policy broke\n"},
		{"eval, in a worker", false, ">= 1\t1.0.0\n>= 2\t1.0.0\n", []string{"eval", "--policies", "panicking"}, "prerel eval: internal error: the policy broke\n"},
		{"eval, matching in a worker", true, ">= 1\t1.0.0\n", []string{"eval", "--policies", "panicking"}, "prerel eval: internal error: the matcher broke\n"},
		{"compare, matching in a worker", true, "", []string{"compare", "--scope", "1", "--policies", "panicking,admits-all"}, `prerel compare: internal error: compare: policy "panicking" panicked on constraint`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := engine.NewRegistry()
			for _, p := range []engine.Policy{panicking{tt.inMatch}, admitsAll{}} {
				if err := reg.Register(p); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			e := &env{stdin: strings.NewReader(tt.stdin), stdout: &stdout, stderr: &stderr, registry: reg,
				getenv: testEnv(nil)}
			code := run(e, tt.args)
			if code != exitInternal || !strings.HasPrefix(stderr.String(), tt.stderr) {
				t.Errorf("exit %d, stderr %.300q; want exit %d and %q first", code, stderr.String(), exitInternal, tt.stderr)
			}
			// The stack names where the panic happened.
			if !strings.Contains(stderr.String(), "goroutine ") || !strings.Contains(stderr.String(), "panicking") {
				t.Errorf("no stack trace naming the panic:\n%s", stderr.String())
			}
		})
	}
}

// failOnce fails its first write only, as a stream that fails once does;
// later writes succeed.
type failOnce struct {
	failed bool
	buf    bytes.Buffer
}

func (f *failOnce) Write(p []byte) (int, error) {
	if !f.failed {
		f.failed = true
		return 0, errors.New("no space left on device")
	}
	return f.buf.Write(p)
}

// TestExplainTextReportsWriteErrors checks that the text report of
// explain returns an error when its writer fails, also when only a first
// write fails.
func TestExplainTextReportsWriteErrors(t *testing.T) {
	p, _ := catalogue.New().Lookup("strict")
	rep := report.NewExplainReport(p, ">= 1.0", "1.0.0")
	w := &failOnce{}
	if err := report.Explain(w, report.Text, rep, report.Options{}); err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Errorf("report.Explain to a failing writer: %v, want the write error", err)
	}
	if err := report.Explain(failingWriter{}, report.Text, rep, report.Options{}); err == nil {
		t.Error("report.Explain to a broken pipe: no error")
	}
	runExitCases(t, []exitCase{
		{name: "explain to a full device", args: []string{"explain", "--policy", "strict", ">=1.0", "1.0.0"}, stdout: &failOnce{},
			code: exitFailure, stderr: "no space left on device"},
	})
}

// TestErrorsEscapeControlCharacters checks that text from outside reaches
// stderr and the text reports with its control characters escaped.
func TestErrorsEscapeControlCharacters(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "v\x1b[2J.txt")
	code, _, stderr := runCLI(t, "", "select", "--versions-file", missing, ">= 1")
	if code != exitUsage || strings.Contains(stderr, "\x1b") || !strings.Contains(stderr, `v\x1b[2J.txt`) {
		t.Errorf("select with a missing file: exit %d, stderr %q", code, stderr)
	}
	file := writeVersions(t, "1.0.0\x1b[31m", "1.1.0")
	for _, cmd := range []string{"check", "select"} {
		code, out, stderr := runCLI(t, "", cmd, "--policies", "strict,cargo", "--versions-file", file, ">= 1")
		if code != exitOK || strings.Contains(out, "\x1b") || !strings.Contains(out, `1.0.0\x1b[31m`) {
			t.Errorf("%s: exit %d (%s), a raw escape in:\n%s", cmd, code, stderr, out)
		}
	}
}
