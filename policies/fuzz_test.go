package policies

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

// FuzzNative checks every native policy on arbitrary input: no panic, the
// same result twice, Compile+Match equal to Prepare's check, Invalid exactly
// when the engine's parsers refuse the input, every admitted version
// satisfying B, strict and cargo equal to B on releases, and whatever strict
// admits admitted by cargo.
func FuzzNative(f *testing.F) {
	seeds := [][2]string{
		{">= 1.1.0-beta.2", "1.1.0-beta.3"},
		{"= 2.0.0-beta.1", "2.0.0-beta.1"},
		{">= 1.0.0, = 2.0.0-beta", "2.0.0-beta"},
		{">= 1.1.0-beta.2", "1.1.0-rc.1"},
		{">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1"},
		{"~> 1.0.0-beta", "1.0.1"},
		{">= 1.1.0-beta.2", "2.0.0-beta.1"},
		{"~> 1.2", "2.0.0-beta.1"},
		{"~> 1", "2.0.0"},
		{"~> 1.2-beta", "1.2.0-rc"},
		{"~> 18446744073709551615", "18446744073709551615.0.0-0"},
		{"~> 1.18446744073709551615.0", "1.18446744073709551615.1"},
		{"!= 1.0.0-beta", "1.0.0-rc"},
		{">= 1.0.0, != 1.5.0-rc.1", "1.5.0-rc.2"},
		{"= 1.0.0+abc", "1.0.0+def"},
		{"~> v5.3.1", "v5.3.9"},
		{"", "1.0.0-beta"},
		{"  ", "0.0.0"},
		{">= 1.2", "1.2.0"},
		{"< 2", "2.0.0-0"},
		{"1.0.0-alpha.1.beta, <= 1.0.0-alpha.beta", "1.0.0-alpha.1.beta+x.y"},
		{">=", "1.0.0"},
		{"=> 1.0.0", "1.0.0"},
		{">= 1.0.0,", "1.0.0"},
		{">= 1.0.0", "1.0"},
		{">= 1.0.0", "01.0.0"},
		{">= 1.0.0", "1.0.0-"},
		{"~>v1", "v1.0.0-v"},
		{"\t=\t1.0.0 ,\t!=1.0.1", "1.0.0"},
		{"\x00", "\xff"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, constraint, version string) {
		c, cerr := engine.ParseConstraint(constraint)
		v, verr := engine.ParseVersion(version)
		parsed := cerr == nil && verr == nil
		verdicts := map[string]engine.Verdict{}
		for _, p := range All() {
			r := engine.Evaluate(p, constraint, version)
			if again := engine.Evaluate(p, constraint, version); again != r {
				t.Fatalf("%s: %q | %q: %+v, then %+v", p.Name(), constraint, version, r, again)
			}
			if r.Reason == "" {
				t.Errorf("%s: %q | %q: empty reason", p.Name(), constraint, version)
			}
			if (r.Verdict == engine.Invalid) != !parsed {
				t.Fatalf("%s: %q | %q: %v (%s), but constraint error %v, version error %v",
					p.Name(), constraint, version, r.Verdict, r.Reason, cerr, verr)
			}
			m, err := p.Compile(constraint)
			if (err != nil) != (cerr != nil) {
				t.Fatalf("%s: Compile(%q) error %v, ParseConstraint error %v", p.Name(), constraint, err, cerr)
			}
			if err == nil {
				if got := m.Match(version); got != r {
					t.Fatalf("%s: %q | %q: Match %+v, Evaluate %+v", p.Name(), constraint, version, got, r)
				}
			}
			check, err := p.(engine.Preparer).Prepare(constraint, version)
			if (err != nil) != !parsed {
				t.Fatalf("%s: Prepare(%q, %q) error %v, want error %v", p.Name(), constraint, version, err, !parsed)
			}
			if err == nil {
				if got := check(); got != r {
					t.Fatalf("%s: %q | %q: Prepare check %+v, Evaluate %+v", p.Name(), constraint, version, got, r)
				}
			}
			if parsed {
				if r.Verdict == engine.Allow && !c.Holds(v) {
					t.Fatalf("%s: %q | %q: allowed, but B does not hold", p.Name(), constraint, version)
				}
				if p.Name() != "lexical" && r.Verdict == engine.Reject && !strings.HasPrefix(r.Reason, "prerelease:") && c.Holds(v) {
					t.Fatalf("%s: %q | %q: rejected by precedence (%s), but B holds", p.Name(), constraint, version, r.Reason)
				}
			}
			verdicts[p.Name()] = r.Verdict
		}
		if verdicts["strict"] == engine.Allow && verdicts["cargo"] != engine.Allow {
			t.Fatalf("%q | %q: strict allows, cargo says %v", constraint, version, verdicts["cargo"])
		}
		if parsed && !v.IsPrerelease() {
			b := engine.Reject
			if c.Holds(v) {
				b = engine.Allow
			}
			if verdicts["strict"] != b || verdicts["cargo"] != b {
				t.Fatalf("%q | %q: release: strict %v, cargo %v, B %v", constraint, version, verdicts["strict"], verdicts["cargo"], b)
			}
		}
	})
}
