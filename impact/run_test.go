package impact_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/impact"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
)

// smallDomain is a hand-made corpus: a module with v-prefixed tags and a
// beta of its next major, a provider that publishes no prerelease, and a
// provider without a history.
func smallDomain() *impact.Domain {
	return &impact.Domain{
		Name: "corpus", Sample: true, Repositories: 3,
		Calls: []impact.Call{
			{Repo: "acme/infra", Path: "main.tf", Line: 3, Kind: impact.KindModule, Name: "vpc", Source: "acme/vpc/aws", SourceKey: "registry.terraform.io/acme/vpc/aws", Constraint: "~> 1.0", History: "vpc.txt"},
			{Repo: "acme/infra", Path: "prod/main.tf", Line: 9, Kind: impact.KindModule, Name: "vpc", Source: "acme/vpc/aws", SourceKey: "registry.terraform.io/acme/vpc/aws", Constraint: "~> 1.0", History: "vpc.txt"},
			{Repo: "acme/infra", Path: "dev/main.tf", Line: 9, Kind: impact.KindModule, Name: "vpc", Source: "acme/vpc/aws", SourceKey: "registry.terraform.io/acme/vpc/aws", Constraint: "~> 1.0", History: "vpc.txt"},
			{Repo: "zeta/app", Path: "net.tf", Line: 1, Kind: impact.KindModule, Name: "net", Source: "acme/vpc/aws//modules/net", SourceKey: "registry.terraform.io/acme/vpc/aws", Constraint: "1.0.0", History: "vpc.txt"},
			{Repo: "zeta/app", Path: "versions.tf", Line: 4, Kind: impact.KindProvider, Name: "thing", Source: "acme/thing", SourceKey: "registry.terraform.io/acme/thing", Constraint: ">= 2.0, < 3.0", History: "thing.txt"},
			{Repo: "zeta/app", Path: "versions.tf", Line: 8, Kind: impact.KindProvider, Name: "aws", Source: "hashicorp/aws", SourceKey: "registry.terraform.io/hashicorp/aws", Constraint: "~> 5.0"},
			{Repo: "other/app", Path: "versions.tf", Line: 2, Kind: impact.KindProvider, Name: "thing", Source: "acme/thing", SourceKey: "registry.terraform.io/acme/thing", Constraint: "", History: "thing.txt"},
		},
		Histories: map[string]*impact.History{
			"vpc.txt":   {Name: "vpc.txt", From: "tags of acme/terraform-aws-vpc", StripV: true, Lines: []string{"v0.9.0", "v1.0.0", "v1.1.0", "1.1.0", "v1.2", "v2.0.0-beta.1"}},
			"thing.txt": {Name: "thing.txt", From: "tags of acme/terraform-provider-thing", StripV: true, Lines: []string{"v2.0.0", "v2.1.0", "v3.0.0"}},
		},
	}
}

func mustPolicy(t *testing.T, name string) engine.Policy {
	t.Helper()
	p, ok := catalogue.New().Lookup(name)
	if !ok {
		t.Fatalf("no policy %s", name)
	}
	return p
}

func runSmall(t *testing.T, policy string, simulate bool) *impact.Report {
	t.Helper()
	r, err := runImpact(smallDomain(), impact.Options{Policy: mustPolicy(t, policy), Policies: catalogue.New(), SimulatePrereleases: simulate})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunCounts(t *testing.T) {
	r := runSmall(t, "linear", false)
	d := r.Data
	if d.Calls != 7 || d.ModuleCalls != 4 || d.ProviderCalls != 3 || d.WithHistory != 6 || d.WithoutHistory != 1 {
		t.Errorf("data %+v: want 7 calls, 4 modules, 3 providers, 6 with a history, 1 without", d)
	}
	// Distinct (repo, source, constraint): the three acme/infra calls are one.
	if d.Distinct != 5 || d.DistinctWithHistory != 4 || d.Repositories != 3 || d.Histories != 2 {
		t.Errorf("data %+v: want 5 distinct, 4 with a history, 3 repositories, 2 histories", d)
	}
	c := r.Class(impact.PrereleaseLaterMinorOrMajor)
	if c.Calls != 3 || c.Distinct != 1 || len(c.Cases) != 1 || c.Cases[0].Calls != 3 || c.Cases[0].Repos != 1 {
		t.Fatalf("%s: %+v; want the 3 calls of ~> 1.0 in one case", c.Class, c)
	}
	if c.ByCause.PrereleaseRule.Calls != 3 || c.ByCause.Reading.Calls != 0 {
		t.Errorf("by cause %+v: want 3 by the prerelease rule", c.ByCause)
	}
	// The smallest example: same history and constraint, so the path decides.
	if x := c.Example; x.Path != "dev/main.tf" || x.Against.Version() != "1.1.0" || x.Policy.Version() != "2.0.0-beta.1" {
		t.Errorf("example %s %s: %s -> %s; want dev/main.tf:9, 1.1.0 -> 2.0.0-beta.1", x.Repo, x.Place(), x.Against, x.Policy)
	}
	if r.Changed.Calls != 3 || r.Count(impact.Unchanged) != 3 {
		t.Errorf("changed %d, unchanged %d; want 3 and 3", r.Changed.Calls, r.Count(impact.Unchanged))
	}
	total := 0
	for _, c := range r.Classes {
		total += c.Calls
	}
	if total != d.WithHistory {
		t.Errorf("the classes hold %d calls, want every call with a history, %d", total, d.WithHistory)
	}
	if len(r.WithoutHistory) != 1 || r.WithoutHistory[0].SourceKey != "registry.terraform.io/hashicorp/aws" {
		t.Errorf("without history: %+v", r.WithoutHistory)
	}
	// v1.2 is not a version; 1.1.0 repeats v1.1.0 once the v is stripped.
	if r.NotVersions.Lines != 1 || r.NotVersions.Examples[0].Line != "v1.2" || r.Repeated.Lines != 1 || r.Repeated.Examples[0].Line != "1.1.0" {
		t.Errorf("left out: not versions %+v, repeated %+v", r.NotVersions, r.Repeated)
	}
	if r.Simulated != nil {
		t.Errorf("simulated without asking: %+v", r.Simulated)
	}
}

func TestRunSimulate(t *testing.T) {
	r := runSmall(t, "linear", true)
	s := r.Simulated
	// thing.txt publishes no prerelease; vpc.txt publishes a beta.
	if s == nil || s.Histories != 1 || s.HistoriesUsed != 2 || s.Calls != 2 {
		t.Fatalf("simulated %+v: want 1 of 2 histories, 2 calls", s)
	}
	// >= 2.0, < 3.0 now meets 3.0.0-rc.1 under linear; "" (any version)
	// does not: linear takes the newest, 3.0.0.
	c := r.Class(impact.PrereleaseLaterMinorOrMajor)
	if c.Calls != 4 || c.Simulated != 1 {
		t.Fatalf("%s: %d calls, %d simulated; want 4 and 1", c.Class, c.Calls, c.Simulated)
	}
	var sim *impact.Case
	for i := range c.Cases {
		if c.Cases[i].Simulated {
			sim = &c.Cases[i]
		}
	}
	if sim == nil || sim.Constraint != ">= 2.0, < 3.0" || sim.Policy.Version() != "3.0.0-rc.1" || sim.Against.Version() != "2.1.0" {
		t.Errorf("simulated case %+v: want >= 2.0, < 3.0: 2.1.0 -> 3.0.0-rc.1", sim)
	}
	if u := r.Class(impact.Unchanged); u.Simulated != 1 {
		t.Errorf("unchanged: %d simulated, want 1 (the empty constraint)", u.Simulated)
	}
	// The example comes from the shorter history: thing.txt publishes 3.
	x := c.Example
	if x.History.Name != "thing.txt" || !x.History.Simulated || x.History.Published != 3 || x.History.Versions != 9 {
		t.Errorf("example history %+v: want thing.txt, simulated, 3 published, 9 offered", x.History)
	}
	var text bytes.Buffer
	if err := impact.Render(&text, report.Text, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"simulated: X.Y.Z-beta.1 and X.Y.Z-rc.1 inserted", "SIMULATED", "SIMULATED: 6 prereleases inserted", "simulated history"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report does not say %q:\n%s", want, text.String())
		}
	}
}

func TestNearby(t *testing.T) {
	d := &impact.Domain{
		Name:  "corpus",
		Calls: []impact.Call{{Repo: "r", Path: "p.tf", Line: 1, Kind: impact.KindModule, Name: "m", Source: "a/b/c", SourceKey: "a/b/c", Constraint: "~> 1.0", History: "h"}},
		Histories: map[string]*impact.History{"h": {Name: "h", Lines: []string{
			"2.0.0-beta.1", "0.1.0", "0.2.0", "0.3.0", "1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0", "2.0.0", "2.1.0", "2.2.0", "2.3.0",
		}}},
	}
	r, err := runImpact(d, impact.Options{Policy: mustPolicy(t, "linear"), Policies: catalogue.New()})
	if err != nil {
		t.Fatal(err)
	}
	x := r.Class(impact.PrereleaseLaterMinorOrMajor).Example
	var got []string
	for _, n := range x.History.Nearby {
		s := n.Version
		if n.Skipped > 0 {
			s = "(" + strings.Repeat(".", n.Skipped) + ")" + s
		}
		if n.Against {
			s += "*B"
		}
		if n.Policy {
			s += "*P"
		}
		got = append(got, s)
	}
	// In precedence order, two each side of each selected version.
	want := []string{"(.......)1.4.0", "1.5.0", "1.6.0*B", "2.0.0-beta.1*P", "2.0.0", "2.1.0"}
	if !slices.Equal(got, want) || x.History.After != 2 {
		t.Errorf("nearby %q, %d after; want %q, 2 after", got, x.History.After, want)
	}
}

func TestRunOptions(t *testing.T) {
	if _, err := runImpact(smallDomain(), impact.Options{}); err == nil {
		t.Error("no policy: no error")
	}
	if _, err := runImpact(smallDomain(), impact.Options{Policy: mustPolicy(t, "cargo")}); err == nil {
		t.Error("no registry for today's installers: no error")
	}
	r, err := runImpact(smallDomain(), impact.Options{Policy: mustPolicy(t, "cargo"), Against: mustPolicy(t, "linear")})
	if err != nil {
		t.Fatal(err)
	}
	if r.Against.Today || r.Against.Module != "linear" || r.Against.Provider != "linear" {
		t.Errorf("against %+v: want linear for both", r.Against)
	}
	if got := r.Count(impact.ReleaseInsteadOfPrerelease); got != 3 {
		t.Errorf("cargo against linear: %d calls release-instead-of-prerelease, want 3", got)
	}
}

// TestRenderGolden keeps the three forms of the small domain's report,
// simulated, in golden files (go test ./impact -update rewrites them).
func TestRenderGolden(t *testing.T) {
	r := runSmall(t, "linear", true)
	var text, md, js bytes.Buffer
	if err := impact.Render(&text, report.Text, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	if err := impact.Render(&md, report.Markdown, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	if err := impact.Render(&js, report.JSON, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/golden/small.txt", text.Bytes())
	golden.Check(t, "testdata/golden/small.md", md.Bytes())
	golden.Check(t, "testdata/golden/small.json", js.Bytes())
	for i, line := range strings.Split(text.String(), "\n") {
		if n := len([]rune(line)); n > impact.TextWidth {
			t.Errorf("text line %d is %d columns: %q", i+1, n, line)
		}
	}
}

// cliOptions are the render options prerel impact passes without
// --show-all: its reports name the flags, as the golden files do.
var cliOptions = report.Options{Hints: report.Hints{ShowAll: "--show-all", JSON: "--format json"}}
