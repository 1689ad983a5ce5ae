package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/prerel/prerel/batch"
	"github.com/prerel/prerel/catalogue"
)

// runCLI runs prerel in-process with the given stdin and returns the exit
// status, stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{
		stdin:    strings.NewReader(stdin),
		stdout:   &stdout,
		stderr:   &stderr,
		registry: catalogue.New(),
		getenv:   func(string) string { return "" },
	}
	code := run(e, args)
	return code, stdout.String(), stderr.String()
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{nil, exitUsage, "Usage:"},
		{[]string{"frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{[]string{"check"}, exitUsage, "check needs a constraint and at least one version"},
		{[]string{"check", ">= 1.0.0"}, exitUsage, "check needs a constraint and at least one version"},
		{[]string{"check", ">= ", "1.0.0"}, exitUsage, `constraint ">= ": column 4: expected a version after ">="`},
		{[]string{"check", ">= 1.0.0", "1.0"}, exitUsage, `version "1.0": column 4`},
		{[]string{"check", "--policies", "strict,nope", ">= 1.0.0", "1.0.0"}, exitUsage, `unknown policy "nope"`},
		{[]string{"check", "--policies", "strict,,cargo", ">= 1.0.0", "1.0.0"}, exitUsage, "empty policy name"},
		{[]string{"check", "--format", "xml", ">= 1.0.0", "1.0.0"}, exitUsage, `unknown format "xml"`},
		{[]string{"policies", "extra"}, exitUsage, "policies takes no arguments"},
		{[]string{"eval", "extra"}, exitUsage, "eval reads stdin and takes no arguments"},
		{[]string{"select"}, exitUsage, "select needs a constraint"},
		{[]string{"select", ">= 1.0.0"}, exitUsage, "select needs versions"},
		{[]string{"select", "=> 1", "1.0.0"}, exitUsage, `unknown operator "=>"`},
		{[]string{"select", "--versions-file", "/nonexistent/versions.txt", ">= 1"}, exitUsage, "/nonexistent/versions.txt"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, "", tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("prerel %q: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.stderr)
		}
	}
}

func TestPoliciesListsEveryRegisteredPolicy(t *testing.T) {
	code, out, _ := runCLI(t, "", "policies")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	all := catalogue.New().All()
	if len(lines) != len(all)+1 {
		t.Fatalf("%d lines for %d policies:\n%s", len(lines), len(all), out)
	}
	for i, p := range all {
		if f := strings.Fields(lines[i+1]); f[0] != p.Name() || !strings.Contains(lines[i+1], p.Rule()) {
			t.Errorf("line %d = %q, want %s and its rule", i+1, lines[i+1], p.Name())
		}
	}
	var names []string
	for _, l := range lines[1:] {
		names = append(names, strings.Fields(l)[0])
	}
	if got := strings.Join(names, ","); got != strings.Join(catalogueOrder, ",") {
		t.Errorf("policies lists\n%s\nwant\n%s", got, strings.Join(catalogueOrder, ","))
	}
}

func TestCheck(t *testing.T) {
	code, out, stderr := runCLI(t, "", "check", "--policies", "strict,lexical,cargo",
		">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", "0.9.0", "v1.0.0-beta")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `constraint: >= 1.0.0-beta, < 1.0.0
policies disagree on 2 of 3 versions (marked *)

   VERSION      strict  lexical  cargo
*  1.0.0-rc.1   reject  reject   allow
   0.9.0        reject  reject   reject
*  v1.0.0-beta  reject  reject   allow

* the policies do not all give this version the same verdict
`
	if out != want {
		t.Errorf("check output:\n%s\nwant:\n%s", out, want)
	}
}

func TestCheckJSON(t *testing.T) {
	code, out, _ := runCLI(t, "", "check", "--format", "json", "--policies", "strict,cargo", "= 2.0.0-beta.1", "2.0.0-beta.1")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Constraint string
		Versions   []struct {
			Version string
			Results []struct{ Policy, Verdict, Reason string }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Constraint != "= 2.0.0-beta.1" || len(got.Versions) != 1 || len(got.Versions[0].Results) != 2 {
		t.Fatalf("unexpected JSON: %s", out)
	}
	for _, r := range got.Versions[0].Results {
		if r.Verdict != "allow" || r.Reason == "" {
			t.Errorf("%s: %s %q, want allow with a reason", r.Policy, r.Verdict, r.Reason)
		}
	}
}

func TestEval(t *testing.T) {
	in := ">= 1.1.0-beta.2\t1.1.0-beta.3\n" +
		">= 1.1.0-beta.2\t2.0.0-beta.1\r\n" +
		"= 2.0.0-beta.1\t2.0.0-beta.1\n" +
		">=  1.0.0 \tv1.2.0\n" +
		"~> v5.3.1\t5.3.9\n" +
		"=> 1\t1.0.0\n" +
		">= 1.0.0\tnot-a-version\n" +
		"\t1.0.0\n"
	code, out, stderr := runCLI(t, in, "eval", "--policies", "strict,lexical,cargo")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := ">= 1.1.0-beta.2\t1.1.0-beta.3\treject\tallow\tallow\n" +
		">= 1.1.0-beta.2\t2.0.0-beta.1\treject\treject\treject\n" +
		"= 2.0.0-beta.1\t2.0.0-beta.1\tallow\tallow\tallow\n" +
		">=  1.0.0 \tv1.2.0\tallow\tallow\tallow\n" +
		"~> v5.3.1\t5.3.9\tallow\tallow\tallow\n" +
		"=> 1\t1.0.0\tinvalid\tinvalid\tinvalid\n" +
		">= 1.0.0\tnot-a-version\tinvalid\tinvalid\tinvalid\n" +
		"\t1.0.0\tallow\tallow\tallow\n"
	if out != want {
		t.Errorf("eval output:\n%q\nwant:\n%q", out, want)
	}
}

// catalogueOrder is the order of "prerel policies" and the default verdict
// columns of "prerel eval": a contract scripts rely on.
var catalogueOrder = []string{
	"strict", "lexical", "cargo", "linear", "linear-tight", "ga-bound", "any-pre", "fallback", "core-only",
	"hashicorp", "apparentlymart", "apparentlymart-exact", "masterminds", "masterminds-pre",
	"terraform-module", "opentofu-module", "go-versions-cargo",
}

func TestEvalDefaultsToEveryPolicyInOrder(t *testing.T) {
	code, out, _ := runCLI(t, ">= 1.0.0\t1.5.0\n", "eval")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	fields := strings.Split(strings.TrimSuffix(out, "\n"), "\t")
	if got, want := len(fields)-2, len(catalogueOrder); got != want {
		t.Fatalf("%d verdict columns, want one per policy (%d): %q", got, want, out)
	}
	for i, f := range fields[2:] {
		if f != "allow" {
			t.Errorf("column %d (%s) = %s, want allow", i, catalogueOrder[i], f)
		}
	}
	code, out, _ = runCLI(t, ">= 1.0.0\t1.5.0\n", "eval", "--format", "json")
	var line struct{ Results []struct{ Policy string } }
	if err := json.Unmarshal([]byte(out), &line); code != exitOK || err != nil {
		t.Fatalf("eval --format json: exit %d, %v: %s", code, err, out)
	}
	var columns []string
	for _, r := range line.Results {
		columns = append(columns, r.Policy)
	}
	if got := strings.Join(columns, ","); got != strings.Join(catalogueOrder, ",") {
		t.Errorf("eval's default columns are\n%s\nwant\n%s", got, strings.Join(catalogueOrder, ","))
	}
}

func TestEvalBadLines(t *testing.T) {
	tests := []struct {
		in     string
		stdout string
		stderr string
	}{
		{">= 1.0.0\t1.0.0\nno tab here\n>= 1\t1.0.0\n", ">= 1.0.0\t1.0.0\tallow\n", "stdin line 2: expected 2 tab-separated fields (CONSTRAINT<TAB>VERSION), found 1"},
		{"a\tb\tc\n", "", "stdin line 1: expected 2 tab-separated fields (CONSTRAINT<TAB>VERSION), found 3"},
		{">= 1\t1.0.0\n\n", ">= 1\t1.0.0\tallow\n", "stdin line 2: expected 2 tab-separated fields"},
		{">= 1\t" + strings.Repeat("9", maxLine+1) + "\n", "", "stdin line 1: line longer than 1048576 bytes"},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, tt.in, "eval", "--policies", "strict")
		if code != exitUsage || out != tt.stdout || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("eval on %.40q: exit %d, stdout %q, stderr %q; want exit 2, %q, %q", tt.in, code, out, stderr, tt.stdout, tt.stderr)
		}
	}
}

func TestEvalJSON(t *testing.T) {
	code, out, _ := runCLI(t, ">= 1.0.0, < 2.0.0\t2.0.0-beta.1\n", "eval", "--format", "json", "--policies", "cargo,strict")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var line struct {
		Constraint, Version string
		Results             []struct{ Policy, Verdict, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &line); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if line.Constraint != ">= 1.0.0, < 2.0.0" || line.Version != "2.0.0-beta.1" || len(line.Results) != 2 ||
		line.Results[0].Policy != "cargo" || line.Results[1].Policy != "strict" {
		t.Fatalf("unexpected line: %s", out)
	}
	for _, r := range line.Results {
		if r.Verdict != "reject" || r.Reason == "" {
			t.Errorf("%s: %s %q, want reject with a reason", r.Policy, r.Verdict, r.Reason)
		}
	}
}

// TestEvalKeepsOrderAcrossBatches feeds more lines than one parallel batch
// and checks that every output line answers its own input line.
func TestEvalKeepsOrderAcrossBatches(t *testing.T) {
	var in strings.Builder
	n := batch.MaxLines*2 + 17
	for i := 0; i < n; i++ {
		fmt.Fprintf(&in, ">= %d.0.0\t%d.0.0\n", i%7, i%5)
	}
	code, out, _ := runCLI(t, in.String(), "eval", "--policies", "strict,hashicorp")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d output lines for %d input lines", len(lines), n)
	}
	for i, l := range lines {
		want := "reject"
		if i%5 >= i%7 {
			want = "allow"
		}
		if l != fmt.Sprintf(">= %d.0.0\t%d.0.0\t%s\t%s", i%7, i%5, want, want) {
			t.Fatalf("line %d = %q", i+1, l)
		}
	}
}

func TestSelect(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "versions.txt")
	if err := os.WriteFile(file, []byte("# a history\n1.0.0\n1.1.0-beta.1\n\nnot-a-version\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "select", "--policies", "strict,cargo", "--versions-file", file, ">= 1.1.0-beta.1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"strict  none", "cargo   1.1.0-beta.1", `note: strict and cargo cannot read "not-a-version": version "not-a-version": column 1:`} {
		if !strings.Contains(out, want) {
			t.Errorf("select output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "", "select", "--format", "json", "--policies", "strict", ">= 1.0.0", "1.0.0", "1.2.0")
	if code != exitOK || !strings.Contains(out, `"selected": "1.2.0"`) {
		t.Errorf("select json: exit %d\n%s", code, out)
	}
}

func TestSelectUsesEachPolicysOwnSelection(t *testing.T) {
	// hashicorp/go-version sorts 1.0.0-beta.alpha below 1.0.0-beta; SemVer
	// puts it above.
	code, out, _ := runCLI(t, "", "select", "--policies", "lexical,hashicorp", "--format", "json",
		">= 1.0.0-alpha", "1.0.0-beta.alpha", "1.0.0-beta")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Policies []struct {
			Policy   string
			Selected *string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"lexical": "1.0.0-beta.alpha", "hashicorp": "1.0.0-beta"}
	for _, p := range got.Policies {
		if p.Selected == nil || *p.Selected != want[p.Policy] {
			t.Errorf("%s selects %v, want %s", p.Policy, p.Selected, want[p.Policy])
		}
	}
}

// TestResolveGroupsErrors checks that a registry that is down gives one
// line for all the items it concerns, in the report and in the error,
// the items cut with a count unless --show-all.
func TestResolveGroupsErrors(t *testing.T) {
	down := httptest.NewServer(nil)
	down.Close()
	base := []string{"resolve", "--registry-url", down.URL, "--retries", "0", "--lock-file", "-", resolveExample}
	const problem = " (11 items): service discovery for registry.terraform.io: GET "
	tests := []struct {
		name           string
		args           []string
		stdout, stderr []string
		leftOut        bool
	}{
		{
			name:    "cut",
			args:    base,
			stdout:  []string{"\nProblems:\n  modules consul, consul_beta, consul_next, eks, vpc, network.vpc and 5 more" + problem},
			stderr:  []string{`could not be listed:` + "\n" + `  modules "consul", "consul_beta", "consul_next", "eks", "vpc", "network.vpc" and 5 more` + problem},
			leftOut: true,
		},
		{
			name:   "--show-all",
			args:   append(append([]string{}, base...), "--show-all"),
			stdout: []string{"\nProblems:\n  modules consul, consul_beta, consul_next, eks, vpc, network.vpc; providers cloudflare, google, helm, ibm, kubernetes" + problem},
			stderr: []string{`  modules "consul", "consul_beta", "consul_next", "eks", "vpc", "network.vpc"; providers "cloudflare", "google", "helm", "ibm", "kubernetes"` + problem},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tt.args...)
			if code != exitFailure {
				t.Fatalf("exit %d, want %d: %s", code, exitFailure, stderr)
			}
			mustContain(t, "stdout", stdout, tt.stdout)
			mustContain(t, "stderr", stderr, tt.stderr)
			if n := strings.Count(stdout, "service discovery"); n != 1 {
				t.Errorf("the registry error is in the report %d times, want once:\n%s", n, stdout)
			}
			if got := strings.HasSuffix(stdout, "\n5 items left out; --show-all lists them\n"); got != tt.leftOut {
				t.Errorf("ends with what it left out: %v, want %v:\n%s", got, tt.leftOut, stdout)
			}
		})
	}
}

// mustContain fails t for each text of want that out, a command's stdout
// or stderr as name says, lacks.
func mustContain(t *testing.T, name, out string, want []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", name, w, out)
		}
	}
}

// prerel runs with a soft memory limit of its own unless GOMEMLIMIT is
// set, which then decides.
func TestLimitMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, tt := range []struct {
		gomemlimit string
		want       int64
	}{
		{"", defaultMemoryLimit},
		{"1GiB", 12345},
		{"off", 12345},
	} {
		debug.SetMemoryLimit(12345)
		limitMemory(func(k string) string {
			if k == "GOMEMLIMIT" {
				return tt.gomemlimit
			}
			return ""
		})
		if got := debug.SetMemoryLimit(-1); got != tt.want {
			t.Errorf("GOMEMLIMIT=%q: memory limit %d, want %d", tt.gomemlimit, got, tt.want)
		}
	}
}
