package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
)

// The golden files under testdata/explain are rewritten by
// go test ./cmd/prerel -run Explain -update.

var explainGolden = []struct {
	name                string
	args                []string
	constraint, version string
}{
	// The native policies, on the examples of docs/policies.md.
	{"strict", []string{"--policy", "strict"}, ">= 1.0.0, = 2.0.0-beta", "2.0.0-beta"},
	{"lexical", []string{"--policy", "lexical"}, ">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1"},
	{"cargo", []string{"--policy", "cargo"}, ">= 1.1.0-beta.2", "2.0.0-beta.1"},
	{"linear", []string{"--policy", "linear"}, "~> 1.2", "2.0.0-beta.1"},
	{"linear-tight", []string{"--policy", "linear-tight"}, "~> 1.2", "2.0.0-beta.1"},
	{"ga-bound", []string{"--policy", "ga-bound"}, "~> 2.0.0", "2.0.0-beta"},
	{"ga-bound-range", []string{"--policy", "ga-bound"}, ">= 1.0, < 2.0", "2.0.0-beta"},
	{"any-pre", []string{"--policy", "any-pre"}, ">= 1.0.0, != 1.5.0-rc.1", "1.5.0-rc.2"},
	{"fallback", []string{"--policy", "fallback"}, ">= 1.0.0", "1.1.0-beta.1"},
	{"core-only", []string{"--policy", "core-only"}, ">= 1.12", "1.12.0-beta1"},
	{"core-only-invalid", []string{"--policy", "core-only"}, ">= 1.12.0-beta1", "1.12.0"},
	// The adapters: what each library was asked and what it answered.
	{"hashicorp", []string{"--policy", "hashicorp"}, "~> 1", "2.0.0"},
	{"apparentlymart", []string{"--policy", "apparentlymart"}, ">= 1.1.0-beta.2", "1.1.0-beta.3"},
	{"apparentlymart-exact", []string{"--policy", "apparentlymart-exact"}, "~> 1.2", "2.0.0-beta.1"},
	{"masterminds", []string{"--policy", "masterminds"}, ">= 1.0.0, != 1.5.0-rc.1", "1.5.0-rc.2"},
	{"masterminds-pre", []string{"--policy", "masterminds-pre"}, "~> 1.2", "1.9.0-rc.1"},
	{"terraform-module", []string{"--policy", "terraform-module"}, "= 2.0.0-beta.1", "2.0.0-beta.1"},
	{"opentofu-module", []string{"--policy", "opentofu-module"}, "v0.0.3-alpha.1", "0.0.3-alpha.1"},
	// A policy written in HCL.
	{"hcl-cargo", []string{"--policy-file", "../../testdata/designs/hcl-cargo.hcl", "--policy", "hcl-cargo"}, ">= 1.0.0-beta", "1.0.0-rc"},
	// JSON.
	{"ga-bound.json", []string{"--policy", "ga-bound", "--format", "json"}, ">= 1.0.0-beta, < 2.0.0", "1.5.0-rc"},
}

func TestExplainGolden(t *testing.T) {
	for _, tt := range explainGolden {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"explain"}, tt.args...), tt.constraint, tt.version)
			code, out, stderr := runCLI(t, "", args...)
			if code != exitOK {
				t.Fatalf("prerel %q: exit %d: %s", args, code, stderr)
			}
			name := tt.name
			if !strings.HasSuffix(name, ".json") {
				name += ".txt"
				checkExplainWidth(t, out)
			}
			golden.Check(t, filepath.Join("testdata", "explain", name), []byte(out))
		})
	}
}

// checkExplainWidth fails t for each line of out wider than 80 columns,
// counted in runes.
func checkExplainWidth(t *testing.T, out string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("a line of %d columns: %q\n%s", n, line, out)
		}
	}
}

// TestExplainDesignsFit checks that the text explanation of every policy
// in testdata/designs fits 80 columns on a few cases: a prerelease floor,
// a ~> with a != and a prerelease ceiling, a range that a prerelease of
// its upper bound falls in, a long constraint, and a version with a "v"
// and build metadata.
func TestExplainDesignsFit(t *testing.T) {
	files, err := filepath.Glob("../../testdata/designs/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no designs: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".hcl")
		for _, pair := range [][2]string{
			{">= 1.0.0-beta", "1.0.0-rc"},
			{"~> 1.2.0-beta, != 1.2.5, < 1.2.9-rc.1", "1.2.3-rc.1"},
			{">= 1.0, < 2.0", "2.0.0-beta.1"},
			{">= 1.0.0-alpha.1, < 1.0.0-rc.10, != 1.0.0-beta.2, != 1.0.0-beta.3, != 1.0.0-beta.5", "1.0.0-beta.4"},
			{"~> 1.2", "v1.9.0-rc.1+build.5"},
		} {
			code, out, stderr := runCLI(t, "", "explain", "--policy-file", file, "--policy", name, pair[0], pair[1])
			if code != exitOK {
				t.Errorf("%s %q %q: exit %d: %s", name, pair[0], pair[1], code, stderr)
				continue
			}
			checkExplainWidth(t, out)
		}
	}
}

// TestExplainEveryPolicy checks that explain answers for every registered
// policy, native or adapter, with the verdict check gives.
func TestExplainEveryPolicy(t *testing.T) {
	pairs := [][2]string{
		{">= 1.0.0, < 2.0.0", "2.0.0-beta.1"},
		{"~> 1.2", "1.9.0-rc.1"},
		{">= 1.12.0-beta1", "1.12.0"},
		{"", "1.0.0-beta"},
		{"!= 1.5.0-rc.1, >= v1.0", "v1.5.0-rc.2+build"},
	}
	for _, p := range catalogue.New().All() {
		for _, pair := range pairs {
			code, out, stderr := runCLI(t, "", "explain", "--policy", p.Name(), "--format", "json", pair[0], pair[1])
			if code != exitOK {
				t.Errorf("explain --policy %s %q %q: exit %d: %s", p.Name(), pair[0], pair[1], code, stderr)
				continue
			}
			var got struct {
				Policy  string
				Steps   []struct{ Subject, Detail string }
				Verdict string
				Reason  string
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%s: %v: %s", p.Name(), err, out)
			}
			want := engine.Evaluate(p, pair[0], pair[1])
			if got.Policy != p.Name() || got.Verdict != want.Verdict.String() || got.Reason != want.Reason || len(got.Steps) == 0 {
				t.Errorf("explain --policy %s %q %q: %s %q with %d steps; check gives %v %q",
					p.Name(), pair[0], pair[1], got.Verdict, got.Reason, len(got.Steps), want.Verdict, want.Reason)
			}
		}
	}
}

// opaque is a policy that does not explain itself.
type opaque struct{}

func (opaque) Name() string { return "opaque" }
func (opaque) Rule() string { return "releases from 1.0.0 on" }
func (opaque) Compile(c string) (engine.Matcher, error) {
	if c == "bad" {
		return nil, os.ErrInvalid
	}
	return opaqueMatcher{}, nil
}

type opaqueMatcher struct{}

func (opaqueMatcher) Match(v string) engine.Result {
	if strings.HasPrefix(v, "0.") || strings.Contains(v, "-") {
		return engine.Rejected("not a release from 1.0.0 on")
	}
	return engine.Allowed("a release from 1.0.0 on")
}

func TestExplainGeneric(t *testing.T) {
	r := engine.NewRegistry()
	if err := r.Register(opaque{}); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, registry: r, getenv: func(string) string { return "" }}
	if code := run(e, []string{"explain", "--policy", "opaque", ">= 1.0", "1.2.0-rc.1"}); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	golden.Check(t, filepath.Join("testdata", "explain", "generic.txt"), stdout.Bytes())
}

// TestSelectFallback checks that select honours a selection-level policy:
// fallback picks a prerelease only when no release fits.
func TestSelectFallback(t *testing.T) {
	tests := []struct {
		constraint string
		versions   []string
		want       string
	}{
		{">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0"},
		{">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}, "1.1.0-beta.1"},
		{">= 3.0.0", []string{"1.9.0", "2.1.0-rc.1"}, ""},
		{"~> 1.2", []string{"1.2.0", "1.9.0-rc.1", "2.0.0-beta.1"}, "1.2.0"},
	}
	for _, tt := range tests {
		args := append([]string{"select", "--format", "json", "--policies", "fallback,linear", tt.constraint}, tt.versions...)
		code, out, stderr := runCLI(t, "", args...)
		if code != exitOK {
			t.Fatalf("prerel %q: exit %d: %s", args, code, stderr)
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
		sel := got.Policies[0].Selected
		if got.Policies[0].Policy != "fallback" || (sel == nil) != (tt.want == "") || sel != nil && *sel != tt.want {
			t.Errorf("select %q over %q: fallback selects %v, want %q", tt.constraint, tt.versions, sel, tt.want)
		}
	}
}
