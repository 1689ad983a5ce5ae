package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/impact"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/terraform/installer/installertest"
)

// impactJSON is the part of impact's JSON output scripts rely on.
type impactJSON struct {
	Schema  int    `json:"schema"`
	Policy  string `json:"policy"`
	Against struct {
		Module   string `json:"module"`
		Provider string `json:"provider"`
		Today    bool   `json:"today"`
	} `json:"against"`
	Data struct {
		Calls          int `json:"calls"`
		WithHistory    int `json:"with_history"`
		WithoutHistory int `json:"without_history"`
		Distinct       int `json:"distinct"`
	} `json:"data"`
	Simulated *struct {
		Histories int `json:"histories"`
		Calls     int `json:"calls"`
	} `json:"simulated"`
	Classes []struct {
		Class   string `json:"class"`
		Changed bool   `json:"changed"`
		Calls   int    `json:"calls"`
		ByCause *struct {
			PrereleaseRule struct {
				Calls int `json:"calls"`
			} `json:"prerelease_rule"`
			Reading struct {
				Calls int `json:"calls"`
			} `json:"reading"`
		} `json:"by_cause"`
		Example *struct {
			Repo       string `json:"repo"`
			Constraint string `json:"constraint"`
			History    struct {
				Simulated bool `json:"simulated"`
			} `json:"history"`
		} `json:"example"`
		Cases []json.RawMessage `json:"cases"`
	} `json:"classes"`
}

// impactRuns holds the runs of impactCLI, by their arguments.
var impactRuns sync.Map

// impactCLI runs prerel impact with args as runCLI does, once for each
// list of arguments in the test binary: a run on the corpus takes a
// tenth of a CPU second, and TestImpact and TestImpactTextWidth both
// read the text report of --policy linear.
func impactCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	key := strings.Join(args, "\x00")
	if r, ok := impactRuns.Load(key); ok {
		r := r.(result)
		return r.code, r.stdout, r.stderr
	}
	code, stdout, stderr := runCLI(t, "", append([]string{"impact"}, args...)...)
	impactRuns.Store(key, result{code, stdout, stderr})
	return code, stdout, stderr
}

// simulatedLinear is the report of prerel impact --policy linear
// --simulate-prereleases on the corpus, made as the command makes it,
// once for the tests of its renderings (TestImpactJSON,
// TestImpactMarkdown, TestImpactTextWidth): each run on the corpus takes
// a tenth of a CPU second. TestImpactRendersTheCommandsReport holds it
// to the command's own text report, byte for byte.
var simulatedLinear = sync.OnceValues(func() (*impact.Report, error) {
	d, err := impact.LoadCorpus(prerel.Corpus())
	if err != nil {
		return nil, err
	}
	reg := catalogue.New()
	ps, err := reg.Resolve([]string{"linear"})
	if err != nil {
		return nil, err
	}
	tf, tofu := installertest.Releases()
	return impact.Run(d, impact.Options{Policy: ps[0], Policies: reg, SimulatePrereleases: true, Terraform: tf, OpenTofu: tofu})
})

// renderSimulatedLinear writes simulatedLinear in format f as prerel
// impact writes its report, with --show-all when showAll.
func renderSimulatedLinear(t *testing.T, f report.Format, showAll bool) string {
	t.Helper()
	rep, err := simulatedLinear()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rendered(impact.Render, f, rep, renderOptions(showAll), nil).report(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestImpactRendersTheCommandsReport checks that the report the tests of
// impact's renderings take (simulatedLinear) is the command's: its text
// is what prerel impact --policy linear --simulate-prereleases writes.
func TestImpactRendersTheCommandsReport(t *testing.T) {
	longtest.SkipShort(t)
	code, stdout, stderr := impactCLI(t, "--policy", "linear", "--simulate-prereleases")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := renderSimulatedLinear(t, report.Text, false); got != stdout {
		t.Errorf("the report of the tests differs from the command's:\n%s\nthe command's:\n%s", got, stdout)
	}
}

func TestImpact(t *testing.T) {
	longtest.SkipShort(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{
			name: "corpus, text: the data first, then the answer",
			args: []string{"--policy", "linear"},
			code: exitOK,
			stdout: []string{
				"data: 6289 calls (2900 module calls, 3389 provider requirements) in 117 of the",
				"a sample of public repositories, not a census",
				"answer: 39 of the 5222 calls with a history (0.7%; 10 distinct triples) would",
				"prerelease-later-minor-or-major     39   0.7%       10    39       0",
				"smallest example: awslabs/data-on-eks infra/terraform/versions.tf:21",
				"apparentlymart installs 3.6.3; linear installs 3.7.0-alpha1",
				"1067 calls without a history counted but not classified: hashicorp/aws",
			},
		},
		{
			name:   "cargo changes nothing: --fail-on passes",
			args:   []string{"--policy", "cargo", "--fail-on", "changed"},
			code:   exitOK,
			stdout: []string{"answer: 0 of the 5222 calls with a history"},
		},
		{
			name:   "--fail-on matched: the answer, then exit 1",
			args:   []string{"--policy", "linear", "--fail-on", "refused", "--fail-on", "prerelease-later-minor-or-major"},
			code:   exitFinding,
			stdout: []string{"answer: 39 of the 5222 calls"},
			stderr: []string{"prerel impact: --fail-on: 39 calls fall in the classes named: prerelease-later-minor-or-major 39"},
		},
		{
			name:   "--against one policy for every call",
			args:   []string{"--policy", "cargo", "--against", "linear"},
			code:   exitOK,
			stdout: []string{"against: linear for every call", "release-instead-of-prerelease       39   0.7%"},
		},
		{
			name: "simulated prereleases are marked",
			args: []string{"--policy", "linear", "--simulate-prereleases"},
			code: exitOK,
			stdout: []string{
				"simulated: X.Y.Z-beta.1 and X.Y.Z-rc.1 inserted before each release X.Y.Z of the",
				"129 of 169 histories that publish no prerelease",
				"CLASS                            CALLS  SHARE DISTINCT  RULE READING SIMULATED",
				"SIMULATED: 18",
				"(prerelease rule, simulated history)",
				"(--show-all lists them)",
			},
		},
		{
			name:   "a directory with an offline index",
			args:   []string{"--policy", "linear", "--domain", resolveExample, "--index", resolveIndex},
			code:   exitOK,
			stdout: []string{"data: 11 calls (6 module calls, 5 provider requirements) in the configurations", "version-instead-of-none              2", "smallest example: ../../testdata/resolve main.tf:23:13"},
		},
		{
			name:   "directories as arguments after --domain",
			args:   []string{"--policy", "linear", "--index", resolveIndex, "--domain", resolveExample, resolveExample + "/modules/network"},
			code:   exitOK,
			stdout: []string{"data: 14 calls (7 module calls, 7 provider requirements)"},
		},
		{
			// TestImpactJSON and TestImpactMarkdown render the report on the
			// corpus; here --format reaches the renderer.
			name:   "--format json",
			args:   []string{"--policy", "linear", "--domain", resolveExample, "--index", resolveIndex, "--format", "json"},
			code:   exitOK,
			stdout: []string{"{\n  \"schema\": 1,\n  \"policy\": \"linear\","},
		},
		{
			name:   "--format markdown",
			args:   []string{"--policy", "linear", "--domain", resolveExample, "--index", resolveIndex, "--format", "markdown"},
			code:   exitOK,
			stdout: []string{"## prerel impact: what would install differently under `linear`\n"},
		},
		{name: "no policy", args: nil, code: exitUsage, stderr: []string{"impact needs --policy P"}},
		{name: "unknown policy", args: []string{"--policy", "nope"}, code: exitUsage, stderr: []string{`unknown policy "nope"`}},
		{name: "unknown against", args: []string{"--policy", "cargo", "--against", "nope"}, code: exitUsage, stderr: []string{`unknown policy "nope"`}},
		{name: "unknown class", args: []string{"--policy", "cargo", "--fail-on", "surprising"}, code: exitUsage,
			stderr: []string{`unknown class "surprising" (valid: prerelease-later-minor-or-major, prerelease-later-patch,`, "or changed for every class but unchanged"}},
		{name: "a class given twice", args: []string{"--policy", "cargo", "--fail-on", "refused", "--fail-on", "changed,refused"}, code: exitUsage,
			stderr: []string{`class "refused" given twice`}},
		{name: "unknown flag", args: []string{"--policy", "cargo", "--frobnicate"}, code: exitUsage, stderr: []string{"unknown flag: --frobnicate"}},
		{name: "unknown format", args: []string{"--policy", "cargo", "--format", "xml"}, code: exitUsage, stderr: []string{`unknown format "xml"`}},
		{name: "index on the corpus", args: []string{"--policy", "cargo", "--index", resolveIndex}, code: exitUsage, stderr: []string{"--index: only for directory domains"}},
		{name: "corpus and a directory", args: []string{"--policy", "cargo", "--domain", "corpus", resolveExample}, code: exitUsage, stderr: []string{"cannot be combined"}},
		{name: "no such directory", args: []string{"--policy", "cargo", "--domain", "nope-dir", "--index", resolveIndex}, code: exitUsage, stderr: []string{"nope-dir"}},
		{name: "missing index", args: []string{"--policy", "cargo", "--domain", resolveExample, "--index", "nope.json"}, code: exitUsage, stderr: []string{"nope.json"}},
		{name: "help", args: []string{"-h"}, code: exitOK, stdout: []string{"Usage: prerel impact", "prerelease-later-minor-or-major  P: a prerelease of a later minor or major"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := impactCLI(t, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			mustContain(t, "stdout", stdout, tt.stdout)
			mustContain(t, "stderr", stderr, tt.stderr)
		})
	}
}

// TestImpactTextWidth checks that every line of the text reports fits an
// 80-column terminal.
func TestImpactTextWidth(t *testing.T) {
	longtest.SkipShort(t)
	reports := map[string]string{
		// The report of the tests of the renderings (simulatedLinear).
		"--policy linear --simulate-prereleases --show-all": renderSimulatedLinear(t, report.Text, true),
	}
	for _, args := range [][]string{
		{"--policy", "linear"},
		{"--policy", "hashicorp", "--against", "cargo", "--show-all"},
		{"--policy", "strict", "--domain", resolveExample, "--index", resolveIndex, "--show-all"},
	} {
		code, stdout, stderr := impactCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		reports[strings.Join(args, " ")] = stdout
	}
	for args, stdout := range reports {
		for i, line := range strings.Split(stdout, "\n") {
			if w := columns(line); w > helpWidth {
				t.Errorf("%s: line %d is %d columns wide:\n%s", args, i+1, w, line)
			}
		}
	}
}

// TestImpactJSON checks the JSON of the report of prerel impact --policy
// linear --simulate-prereleases (simulatedLinear).
func TestImpactJSON(t *testing.T) {
	longtest.SkipShort(t)
	stdout := renderSimulatedLinear(t, report.JSON, false)
	if strings.Contains(stdout, `\u003e`) {
		t.Error("the JSON escapes > as \\u003e")
	}
	var r impactJSON
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Schema != 1 || r.Policy != "linear" || !r.Against.Today || r.Against.Module != "terraform-module" || r.Against.Provider != "apparentlymart" {
		t.Errorf("head: schema %d, policy %s, against %+v", r.Schema, r.Policy, r.Against)
	}
	if r.Data.Calls != 6289 || r.Data.WithHistory+r.Data.WithoutHistory != r.Data.Calls || r.Data.Distinct != 1527 {
		t.Errorf("data %+v", r.Data)
	}
	if r.Simulated == nil || r.Simulated.Histories != 129 {
		t.Errorf("simulated %+v, want 129 histories", r.Simulated)
	}
	sum, sawSimulatedExample := 0, false
	for _, c := range r.Classes {
		sum += c.Calls
		if c.Changed != (c.Class != "unchanged") {
			t.Errorf("%s: changed %v", c.Class, c.Changed)
		}
		if c.Changed && c.ByCause.PrereleaseRule.Calls+c.ByCause.Reading.Calls != c.Calls {
			t.Errorf("%s: causes %+v do not add up to %d", c.Class, c.ByCause, c.Calls)
		}
		if c.Changed && c.Calls > 0 && (c.Example == nil || len(c.Cases) == 0) {
			t.Errorf("%s: no example or no cases", c.Class)
		}
		if c.Example != nil && c.Example.History.Simulated {
			sawSimulatedExample = true
		}
	}
	if sum != r.Data.WithHistory {
		t.Errorf("the classes hold %d calls, want %d", sum, r.Data.WithHistory)
	}
	if !sawSimulatedExample {
		t.Error("no example is marked as chosen from a simulated history")
	}
}

// TestImpactMarkdown checks the Markdown of the report of prerel impact
// --policy linear --simulate-prereleases (simulatedLinear).
func TestImpactMarkdown(t *testing.T) {
	longtest.SkipShort(t)
	stdout := renderSimulatedLinear(t, report.Markdown, false)
	for _, want := range []string{
		"## prerel impact: what would install differently under `linear`",
		"| class | calls | share | distinct | prerelease rule | reading | simulated |",
		"| **`prerelease-later-minor-or-major`** | 683 |",
		"**Simulated:**",
		"**simulated**: 18 prereleases inserted",
		"<details><summary>45 more cases</summary>",
		"69 more cases are left out (`--show-all` or `--format json` lists them).",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the Markdown lacks %q", want)
		}
	}
	if strings.Count(stdout, "<details>") != strings.Count(stdout, "</details>") {
		t.Error("unbalanced <details>")
	}
}

// TestImpactUnlisted: a call whose versions cannot be listed has no
// history; the report is written and the run ends with exit 3.
func TestImpactUnlisted(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.json")
	body := `{"modules": {"terraform-aws-modules/vpc/aws": {"modules": [{"versions": [{"version": "5.0.0"}, {"version": "5.1.0"}, {"version": "6.0.0-beta.1"}]}]}}}`
	if err := os.WriteFile(index, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "impact", "--policy", "linear", "--domain", resolveExample, "--index", index)
	if code != exitFailure {
		t.Fatalf("exit %d, want %d\nstderr:\n%s", code, exitFailure, stderr)
	}
	for _, want := range []string{"2 have a version history", "9 do not", "versions not listed: ../../testdata/resolve: module consul", "and 4 more calls whose versions were not listed"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "prerel impact: the versions of 9 calls could not be listed") {
		t.Errorf("stderr: %s", stderr)
	}
}
