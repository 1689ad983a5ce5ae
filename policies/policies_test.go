package policies

import (
	"testing"

	"github.com/prerel/prerel/engine"
)

// TestAll checks that every native policy has a name of its own, a rule,
// and the fast path and explanations of the package (the catalogue's
// tests keep its order).
func TestAll(t *testing.T) {
	names := map[string]bool{}
	for _, p := range All() {
		if names[p.Name()] || p.Name() == "" {
			t.Errorf("All() has the name %q twice, or empty", p.Name())
		}
		names[p.Name()] = true
		if _, ok := p.(engine.VersionReader); !ok {
			t.Errorf("%s does not implement engine.VersionReader", p.Name())
		}
		if p.Rule() == "" {
			t.Errorf("%s: empty Rule", p.Name())
		}
		if _, ok := p.(engine.Judge); !ok {
			t.Errorf("%s does not implement engine.Judge", p.Name())
		}
		if _, ok := p.(engine.Explainer); !ok {
			t.Errorf("%s does not implement engine.Explainer", p.Name())
		}
	}
	if _, ok := Policy(Fallback{}).(engine.Selector); !ok {
		t.Error("fallback does not implement engine.Selector")
	}
}

// Policy is engine.Policy, for type assertions on values.
type Policy = engine.Policy

// TestJudgeAllocs checks that judging a parsed pair does not allocate, on
// every branch of each rule.
func TestJudgeAllocs(t *testing.T) {
	pairs := [][2]string{
		{"", "1.0.0"},
		{"", "1.0.0-beta"},
		{">= 1.0.0, < 2.0.0", "1.5.0"},
		{">= 1.0.0, < 2.0.0", "2.0.0-beta.1"},
		{">= 1.0.0, = 2.0.0-beta", "2.0.0-beta"},
		{">= 1.1.0-beta.2", "1.1.0-rc.1"},
		{">= 1.1.0-beta.2", "2.0.0-beta.1"},
		{"~> 1.2.3-beta", "1.2.4"},
		{"~> 1.2.3", "1.2.2"},
		{"!= 1.0.0-rc", "1.0.0-beta"},
		{"= 1.0.0+abc", "v1.0.0+def"},
		{"~> 1.2", "2.0.0-beta.1"},
		{"~> 1.2", "1.9.0-rc.1"},
		{"~> 2.0.0", "2.0.0-beta"},
		{"~> 2.0.1", "2.0.0-beta"},
		{"!= 2.0.0", "2.0.0-beta"},
		{">= 1.0.0, != 1.5.0-rc.1", "1.5.0-rc.2"},
		{">= 1.12.0-beta1", "1.12.0"},
	}
	for _, p := range All() {
		j := p.(engine.Judge)
		for _, pair := range pairs {
			c := engine.MustParseConstraint(pair[0])
			v := engine.MustParseVersion(pair[1])
			var r engine.Result
			n := testing.AllocsPerRun(100, func() { r = j.Judge(&c, &v) })
			if n != 0 {
				t.Errorf("%s: Judge(%q, %q) allocates %v times per run", p.Name(), pair[0], pair[1], n)
			}
			_ = r
		}
	}
}

// containment is a claim that every version sub admits, sup admits too,
// on every constraint for which when holds (nil: every constraint).
type containment struct {
	sub, sup engine.Policy
	when     func(engine.Constraint) bool
}

// noOp restricts a containment to constraints without the operator.
func noOp(op engine.Op) func(engine.Constraint) bool {
	return func(c engine.Constraint) bool {
		for _, cmp := range c.Comparators() {
			if cmp.Op == op {
				return false
			}
		}
		return true
	}
}

func namesNoPrerelease(c engine.Constraint) bool { return !c.NamesPrerelease() }

func namesNoPrereleaseNoNotEqual(c engine.Constraint) bool {
	return !c.NamesPrerelease() && noOp(engine.OpNotEqual)(c)
}

// containments are the containments that hold between the native policies.
// Each is checked on every table pair here and on arbitrary input by
// FuzzNative.
var containments = []containment{
	{Strict{}, Cargo{}, nil},
	{Cargo{}, AnyPre{}, nil},
	{AnyPre{}, Linear{}, nil},
	{Strict{}, AnyPre{}, nil},
	{Lexical{}, LinearTight{}, nil},
	{LinearTight{}, Linear{}, nil},
	{Lexical{}, GABound{}, nil},
	{Linear{}, Fallback{}, nil},
	{Fallback{}, Linear{}, nil},
	// Where the constraint has no "=" comparator.
	{CoreOnly{}, GABound{}, noOp(engine.OpEqual)},
	// Where the constraint names no prerelease and has no "!=".
	{GABound{}, CoreOnly{}, namesNoPrereleaseNoNotEqual},
	// Where the constraint names no prerelease (any-pre, and so strict
	// and cargo, then admit releases only).
	{AnyPre{}, CoreOnly{}, namesNoPrerelease},
}

// nonContainments are witnesses that the other containments do not hold:
// sub admits the version, sup does not.
var nonContainments = []struct {
	sub, sup            engine.Policy
	constraint, version string
}{
	{Lexical{}, Strict{}, ">= 1.1.0-beta.2", "1.1.0-rc.1"},
	{Lexical{}, Cargo{}, "!= 1.0.0", "1.0.0-beta"},
	{Lexical{}, AnyPre{}, "", "1.0.0-beta"},
	{Lexical{}, CoreOnly{}, "!= 1.0.0", "1.0.0-beta"},
	{Strict{}, Lexical{}, ">= 1.0.0, = 2.0.0-beta", "2.0.0-beta"},
	{Strict{}, LinearTight{}, "~> 1.0, = 2.0.0-beta", "2.0.0-beta"},
	{Strict{}, GABound{}, "= 2.0.0-beta, < 2.0.0", "2.0.0-beta"},
	{Cargo{}, Strict{}, ">= 1.1.0-beta.2", "1.1.0-beta.3"},
	{Cargo{}, GABound{}, ">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1"},
	{AnyPre{}, Cargo{}, ">= 1.1.0-beta.2", "2.0.0-beta.1"},
	{Linear{}, AnyPre{}, ">= 1.0.0, < 2.0.0", "2.0.0-beta.1"},
	{Linear{}, LinearTight{}, "~> 1.2", "2.0.0-beta.1"},
	{LinearTight{}, AnyPre{}, "< 2.0.0", "2.0.0-beta.1"},
	{LinearTight{}, Lexical{}, "< 2.0.0", "2.0.0-beta.1"},
	{LinearTight{}, GABound{}, "< 2.0.0", "2.0.0-beta.1"},
	{GABound{}, Linear{}, "~> 2.0.0", "2.0.0-beta"},
	{GABound{}, Lexical{}, "~> 2.0.0", "2.0.0-beta"},
	{GABound{}, CoreOnly{}, "!= 2.0.0", "2.0.0-beta"},
	{GABound{}, CoreOnly{}, ">= 1.1.0-beta.2", "1.1.0-beta.3"},
	{CoreOnly{}, Linear{}, ">= 1.12.0", "1.12.0-beta1"},
	{CoreOnly{}, Lexical{}, ">= 1.12.0", "1.12.0-beta1"},
	{CoreOnly{}, GABound{}, "= 2.0.0", "2.0.0-beta"},
}

// checkContainments fails when a containment does not hold on the pair.
// The containments are claims on what the engine's parser reads: a pair
// it refuses (core-only reads more than three numeric parts) is skipped.
func checkContainments(t testing.TB, constraint, version string) {
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		return
	}
	if _, err := engine.ParseVersion(version); err != nil {
		return
	}
	for _, k := range containments {
		if k.when != nil && !k.when(c) {
			continue
		}
		sub := engine.Evaluate(k.sub, constraint, version)
		if sub.Verdict != engine.Allow {
			continue
		}
		if sup := engine.Evaluate(k.sup, constraint, version); sup.Verdict != engine.Allow {
			t.Errorf("%q | %q: %s allows, %s says %v (%s)", constraint, version, k.sub.Name(), k.sup.Name(), sup.Verdict, sup.Reason)
		}
	}
}

func TestContainments(t *testing.T) {
	for _, tc := range verdictRows(t) {
		checkContainments(t, tc.constraint, tc.version)
	}
}

// TestContainmentsSmallScope checks the containments on every constraint
// of up to two comparators over a small alphabet, against versions around
// each bound: most counterexamples have a small witness.
func TestContainmentsSmallScope(t *testing.T) {
	if testing.Short() {
		t.Skip("exhaustive over a small scope")
	}
	bounds := []string{"1", "1.1", "1.0.0", "1.0.1", "1.0.0-beta", "1.1.0-rc", "2", "2.0.0", "2.0.0-0", "2.0.0-beta"}
	var comparators []string
	for _, op := range []string{"", "= ", "!= ", "> ", ">= ", "< ", "<= ", "~> "} {
		for _, b := range bounds {
			comparators = append(comparators, op+b)
		}
	}
	constraints := append([]string{""}, comparators...)
	for _, a := range comparators {
		for _, b := range comparators {
			constraints = append(constraints, a+", "+b)
		}
	}
	versions := []string{"0.9.0", "1.0.0-alpha", "1.0.0-beta", "1.0.0", "1.0.1-rc", "1.0.1", "1.1.0-beta", "1.1.0",
		"1.9.0", "2.0.0-0", "2.0.0-beta", "2.0.0-rc", "2.0.0", "2.1.0-rc", "3.0.0-beta"}
	// Judge on parsed values gives Evaluate's verdicts (the tables check
	// it), without parsing each pair again.
	parsed := make([]engine.Version, len(versions))
	for i, v := range versions {
		parsed[i] = engine.MustParseVersion(v)
	}
	for _, text := range constraints {
		c := engine.MustParseConstraint(text)
		for i, v := range parsed {
			for _, k := range containments {
				if k.when != nil && !k.when(c) {
					continue
				}
				if k.sub.(engine.Judge).Judge(&c, &v).Verdict != engine.Allow {
					continue
				}
				if sup := k.sup.(engine.Judge).Judge(&c, &v); sup.Verdict != engine.Allow {
					t.Errorf("%q | %q: %s allows, %s says %v (%s)", text, versions[i], k.sub.Name(), k.sup.Name(), sup.Verdict, sup.Reason)
				}
			}
		}
	}
}

func TestNonContainments(t *testing.T) {
	for _, w := range nonContainments {
		sub := engine.Evaluate(w.sub, w.constraint, w.version)
		sup := engine.Evaluate(w.sup, w.constraint, w.version)
		if sub.Verdict != engine.Allow || sup.Verdict == engine.Allow {
			t.Errorf("%q | %q: %s %v, %s %v; want a witness that %s admits what %s does not",
				w.constraint, w.version, w.sub.Name(), sub.Verdict, w.sup.Name(), sup.Verdict, w.sub.Name(), w.sup.Name())
		}
	}
}

// TestReleases checks that on a release every native policy is B(c, v),
// except lexical ("~>" with a prerelease admits prereleases only) and
// core-only (a constraint that names a prerelease is invalid).
func TestReleases(t *testing.T) {
	for _, tc := range verdictRows(t) {
		c, cerr := engine.ParseConstraint(tc.constraint)
		v, verr := engine.ParseVersion(tc.version)
		if cerr != nil || verr != nil || v.IsPrerelease() {
			continue
		}
		b := engine.Reject
		if c.Holds(v) {
			b = engine.Allow
		}
		for _, p := range All() {
			switch p.Name() {
			case "lexical":
				continue
			case "core-only":
				if c.NamesPrerelease() {
					continue
				}
			}
			if got := engine.Evaluate(p, tc.constraint, tc.version).Verdict; got != b {
				t.Errorf("%s: %q | %q = %v, want B = %v", p.Name(), tc.constraint, tc.version, got, b)
			}
		}
	}
}

// TestExplain checks that every policy's explanation ends in the verdict
// Evaluate gives, with steps a person can read.
func TestExplain(t *testing.T) {
	for _, p := range All() {
		x := p.(engine.Explainer)
		for _, tc := range verdictRows(t) {
			got := x.Explain(tc.constraint, tc.version)
			want := engine.Evaluate(p, tc.constraint, tc.version)
			if got.Result != want {
				t.Errorf("%s: Explain(%q, %q).Result = %+v, Evaluate %+v", p.Name(), tc.constraint, tc.version, got.Result, want)
			}
			if len(got.Steps) == 0 {
				t.Errorf("%s: Explain(%q, %q) has no steps", p.Name(), tc.constraint, tc.version)
			}
			for _, s := range got.Steps {
				if s.Subject == "" || s.Detail == "" {
					t.Errorf("%s: Explain(%q, %q): empty step %+v", p.Name(), tc.constraint, tc.version, s)
				}
			}
		}
	}
}

func TestSelect(t *testing.T) {
	tests := []struct {
		policy     engine.Policy
		constraint string
		available  []string
		want       string // "" when nothing is selected
	}{
		{Strict{}, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0"},
		{Lexical{}, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0"},
		{Cargo{}, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0"},
		{Strict{}, ">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}, ""},
		{Lexical{}, ">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}, ""},
		{Cargo{}, ">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}, ""},
		{Strict{}, ">= 3.0.0", []string{"1.9.0", "2.1.0-rc.1"}, ""},
		{Strict{}, "~> 1.2.3-beta", []string{"1.2.3-beta", "1.2.3-rc.1", "1.2.3", "1.2.4", "1.3.0-beta"}, "1.2.4"},
		{Lexical{}, "~> 1.2.3-beta", []string{"1.2.3-beta", "1.2.3-rc.1", "1.2.3", "1.2.4", "1.3.0-beta"}, "1.2.3-rc.1"},
		{Cargo{}, "~> 1.2.3-beta", []string{"1.2.3-beta", "1.2.3-rc.1", "1.2.3", "1.2.4", "1.3.0-beta"}, "1.2.4"},
		{Strict{}, "", []string{"1.0.0", "2.0.0-beta.1"}, "1.0.0"},
		{Lexical{}, "", []string{"1.0.0", "2.0.0-beta.1"}, "2.0.0-beta.1"},
		{Cargo{}, "", []string{"1.0.0", "2.0.0-beta.1"}, "1.0.0"},
		{Linear{}, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.1.0-beta.1"},
		{LinearTight{}, "~> 1.2", []string{"1.9.0", "1.9.1-rc.1", "2.0.0-beta.1"}, "1.9.1-rc.1"},
		{GABound{}, "~> 2.0.0", []string{"1.9.0", "2.0.0-beta", "2.1.0-beta"}, "2.0.0-beta"},
		{AnyPre{}, ">= 1.1.0-beta.2", []string{"1.1.0", "2.0.0-beta.1"}, "2.0.0-beta.1"},
		{AnyPre{}, ">= 1.0.0, != 1.5.0-rc.1", []string{"1.4.0", "1.5.0-rc.2"}, "1.4.0"},
		{Fallback{}, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0"},
		{Fallback{}, ">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}, "1.1.0-beta.1"},
		{Fallback{}, ">= 3.0.0", []string{"1.9.0", "2.1.0-rc.1"}, ""},
		{CoreOnly{}, "< 2.0.0", []string{"1.9.0", "2.0.0-beta.1"}, "1.9.0"},
		{CoreOnly{}, ">= 1.12.0", []string{"1.11.0", "1.12.0-beta1"}, "1.12.0-beta1"},
	}
	for _, tt := range tests {
		sel, err := engine.Select(tt.policy, tt.constraint, tt.available)
		if err != nil {
			t.Errorf("%s: Select(%q): %v", tt.policy.Name(), tt.constraint, err)
			continue
		}
		if sel.Version != tt.want || sel.Found != (tt.want != "") {
			t.Errorf("%s: Select(%q, %v) = %q (found %v), want %q", tt.policy.Name(), tt.constraint, tt.available, sel.Version, sel.Found, tt.want)
		}
	}
}
