package compare_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

func TestDescribeCase(t *testing.T) {
	tests := []struct{ constraint, version, want string }{
		{"~> 1.0", "2.0.0-beta.1", "a prerelease of the next major"},
		{"~> 1.2.0", "1.3.0-rc.1", "a prerelease of the next minor"},
		{"~> 1.0", "1.5.0-beta.1", "a prerelease inside the range"},
		{"~> 1.0", "3.0.0-beta.1", "a prerelease outside the range"},
		{">= 1.0, < 2.0", "2.0.0-beta", "a prerelease of the upper bound's release"},
		{">= 1.2.0", "1.2.0-rc.1", "a prerelease of the lower bound's release"},
		{"1.2.0", "1.2.0-rc.1", "a prerelease of the pinned release"},
		{">= 1.0.0-beta.2", "1.0.0-beta.3", "a later prerelease of a named prerelease's release"},
		{">= 1.0.0-beta.2", "1.0.0-beta.1", "an earlier prerelease of a named prerelease's release"},
		{"1.0.0-beta", "1.0.0-beta+b", "the named prerelease (+build)"},
		{"~> 1", "2.0.1", "a release outside the range"},
		{">= 1", "v1.5.0", "a release inside the range (v-prefixed)"},
		{"main", "1.0.0", "text the engine cannot read"},
	}
	for _, tt := range tests {
		if got := compare.DescribeCase(tt.constraint, tt.version); got != tt.want {
			t.Errorf("DescribeCase(%q, %q) = %q, want %q", tt.constraint, tt.version, got, tt.want)
		}
	}
}

func TestRelevance(t *testing.T) {
	table := compare.NewRelevanceTable("test", []string{"~> 5.0", "~> 1.2", ">= 1.0.0", ">=1.0.0", "~> 1.2.3", "main"})
	tests := []struct {
		constraint, shape string
		count             int
	}{
		{"~> 3.1", "~> N.N", 2},
		{"~> 3", "~> N", 0},
		{"~> 3.1.4", "~> N.N.N", 1},
		{">= 2.0.0", ">= V", 1},
		{">=2", ">=V", 1},
		{"master", `syntax "a"`, 1},
		{"", "(any)", 0},
	}
	for _, tt := range tests {
		r := table.Of(tt.constraint)
		if r.Shape != tt.shape || r.Count != tt.count || r.Of != 6 {
			t.Errorf("Of(%q) = %+v, want shape %q, %d of 6", tt.constraint, r, tt.shape, tt.count)
		}
	}
	if got := table.Of("~> 1.0").String(); got != "33.3%" {
		t.Errorf("relevance of ~> 1.0 = %s, want 33.3%%", got)
	}
	var none *compare.RelevanceTable
	if none.Of("~> 1.0") != nil {
		t.Error("a nil table gives a relevance")
	}
}

// The summary compares each policy with the reference, with the
// direction of the difference and witnesses in words.
func TestSummary(t *testing.T) {
	r := goldenReport(t)
	if r.Reference != "linear" {
		t.Fatalf("reference %q, want the first policy when %s is not compared", r.Reference, compare.DefaultReference)
	}
	rows := map[string]compare.SummaryRow{}
	for _, row := range r.Summary {
		rows[strings.Join(row.Policies, ",")] = row
	}
	sb := rows["same-base"]
	if sb.Relation != "⊆" || sb.AdmitsMore != 0 || sb.AdmitsFewer != 6 || sb.Diverge != 6 {
		t.Errorf("same-base against linear: %+v, want ⊆ with 6 fewer", sb)
	}
	nv := rows["no-v"]
	if nv.Refuses != 4 {
		t.Errorf("no-v refuses %d cases, want 4", nv.Refuses)
	}
	var found bool
	for _, row := range r.Summary {
		for _, w := range row.Witnesses {
			if w.Constraint == "~> 1.2" && w.Version == "2.0.0-beta" && w.What == "rejects a prerelease of the next major" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no witness says what happens to a prerelease of the next major: %+v", r.Summary)
	}
	if _, err := compare.Run(context.Background(), goldenDomain, goldenPolicies, compare.Options{Reference: "nope"}); err == nil {
		t.Error("a reference that is not compared is accepted")
	}
}

// Splits group the cases the policies do not all agree on by shape and
// sides, and count every such case once.
func TestSplits(t *testing.T) {
	r := goldenReport(t)
	var total int64
	found := false
	for _, s := range r.Splits {
		total += s.Count
		if s.Witness.Constraint == "~> 1.2" && s.Witness.Version == "2.0.0-beta" {
			found = strings.Join(s.Allow, ",") == "linear,no-v" && strings.Join(s.Reject, ",") == "same-base,tilde"
		}
	}
	if !found {
		t.Errorf("no split of ~> 1.2 with 2.0.0-beta into linear, no-v and same-base, tilde: %+v", r.Splits)
	}
	var split int64
	for _, g := range goldenDomain.groups {
		for _, v := range g.Versions {
			seen := map[engine.Verdict]bool{}
			for _, p := range goldenPolicies {
				seen[engine.Evaluate(p, g.Constraint, v).Verdict] = true
			}
			if len(seen) > 1 {
				split++
			}
		}
	}
	if total != split {
		t.Errorf("splits count %d cases, want the %d cases the policies do not all agree on", total, split)
	}
	for i := 1; i < len(r.Splits); i++ {
		a, b := r.Splits[i-1], r.Splits[i]
		if a.Relevance.Share < b.Relevance.Share {
			t.Errorf("split %d (%s) is less relevant than the next (%s)", i-1, a.Relevance, b.Relevance)
		}
	}
}

// A drift names the policy whose verdicts changed, counts every changed
// verdict by direction, and shows the changed cases with a witness.
func TestDrift(t *testing.T) {
	ctx := context.Background()
	before, err := compare.Run(ctx, goldenDomain, goldenPolicies, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := compare.WriteBaseline(path, before); err != nil {
		t.Fatal(err)
	}
	base, err := compare.ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	same, err := compare.ComputeDrift(ctx, goldenDomain, base, before, goldenRelevance)
	if err != nil || !same.Matches || len(same.Policies) != 0 {
		t.Fatalf("a run drifts from its own baseline: %+v, %v", same, err)
	}
	// same-base now admits what linear admits.
	drifted := rule{name: "same-base", judge: linear.judge}
	after, err := compare.Run(ctx, goldenDomain, []engine.Policy{linear, drifted, tilde, noV}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := compare.ComputeDrift(ctx, goldenDomain, base, after, goldenRelevance)
	if err != nil {
		t.Fatal(err)
	}
	if d.Matches || !d.Exact || len(d.Policies) != 1 || d.Policies[0].Policy != "same-base" {
		t.Fatalf("drift %+v, want same-base alone, exactly", d)
	}
	pair, _ := before.PairOf("linear", "same-base")
	pd := d.Policies[0]
	if pd.Changed != pair.Diverge || pd.MovesText() != "6 cases reject → allow, 0 cases allow → reject" {
		t.Errorf("same-base: %d changed (%s), want the %d cases it diverged from linear on, reject → allow", pd.Changed, pd.MovesText(), pair.Diverge)
	}
	if len(pd.Classes) == 0 || pd.Classes[0].Witness.Constraint == "" || pd.Classes[0].From != engine.Reject {
		t.Errorf("no changed class with a witness: %+v", pd.Classes)
	}
}
