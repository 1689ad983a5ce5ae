package policies

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

// FuzzNative checks every native policy on arbitrary input: no panic, the
// same result twice, Compile+Match and Explain equal to the policy's own
// table (engine.ReadVersions), Invalid exactly when the engine's parsers refuse the input (or, for
// core-only, when the constraint names a prerelease), every admitted
// version satisfying B (ga-bound: each comparator for the version or its GA
// release; core-only: B for the version core), every policy but lexical
// and core-only equal to B on releases, the containments between the
// policies, and fallback selecting a lone version exactly when it admits
// it.
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
		{"~> 2.0.0", "2.0.0-beta"},
		{">= 1.0.0, < 2.0.0", "2.0.0-beta"},
		{"~> 1.2", "1.9.0-rc.1"},
		{"< 2.0.0", "2.0.0-beta.1"},
		{">= 1.0.0-0, < 2.0.0", "2.0.0-beta.1"},
		{">= 1.12.0", "1.12.0-beta1"},
		{">= 1.12.0-beta1", "1.12.0"},
		{"= 2.0.0", "2.0.0-beta"},
		{"!= 2.0.0", "2.0.0-beta"},
		{"~> 1.0, = 2.0.0-beta", "2.0.0-beta"},
		{"= 2.0.0-beta, < 2.0.0", "2.0.0-beta"},
		{"~> 2.0.0-beta", "2.1.0-rc"},
		{"~> 16777214", "16777214.0.0-rc"},
		{">= 1.0.0-abcdefgh, != 1.0.0-abcdefg.1", "1.0.0-abcdefghi"},
		{"> 1.1048574.1048574-1.2.3.4", "1.1048574.1048574-1.2.3.4.5"},
		{"~> 1.15.9.0", "1.15.9"},
		{">= 1.2.3", "1.2.3.4-beta"},
		{"= 1.0.0.0-rc", "1.0.0"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, constraint, version string) {
		c, cerr := engine.ParseConstraint(constraint)
		v, verr := engine.ParseVersion(version)
		parsed := cerr == nil && verr == nil
		// core-only reads more than three numeric parts too.
		mc, mcerr := engine.ParseMultipartConstraint(constraint)
		_, mverr := engine.ParseMultipartVersion(version)
		verdicts := map[string]engine.Verdict{}
		for _, p := range All() {
			r := engine.Evaluate(p, constraint, version)
			if again := engine.Evaluate(p, constraint, version); again != r {
				t.Fatalf("%s: %q | %q: %+v, then %+v", p.Name(), constraint, version, r, again)
			}
			if r.Reason == "" {
				t.Errorf("%s: %q | %q: empty reason", p.Name(), constraint, version)
			}
			refused := !parsed
			if p.Name() == "core-only" {
				refused = mcerr != nil || mverr != nil || mc.NamesPrerelease()
			}
			if (r.Verdict == engine.Invalid) != refused {
				t.Fatalf("%s: %q | %q: %v (%s), but constraint error %v, version error %v",
					p.Name(), constraint, version, r.Verdict, r.Reason, cerr, verr)
			}
			m, err := p.Compile(constraint)
			compileRefused := cerr != nil
			if p.Name() == "core-only" {
				compileRefused = mcerr != nil || mc.NamesPrerelease()
			}
			if (err != nil) != compileRefused {
				t.Fatalf("%s: Compile(%q) error %v, ParseConstraint error %v", p.Name(), constraint, err, cerr)
			}
			if err == nil {
				if got := m.Match(version); got != r {
					t.Fatalf("%s: %q | %q: Match %+v, Evaluate %+v", p.Name(), constraint, version, got, r)
				}
			}
			tm, err := engine.ReadVersions(p, []string{version}).Compile(constraint)
			if (err != nil) != compileRefused {
				t.Fatalf("%s: table Compile(%q) error %v, want error %v", p.Name(), constraint, err, compileRefused)
			}
			if err == nil {
				out := make([]engine.Verdict, 1)
				tm.Verdicts(out)
				if got := tm.Judge(0); got != r || out[0] != r.Verdict {
					t.Fatalf("%s: %q | %q: table %+v (Verdicts %v), Evaluate %+v", p.Name(), constraint, version, got, out[0], r)
				}
			}
			if x := p.(engine.Explainer).Explain(constraint, version); x.Result != r {
				t.Fatalf("%s: %q | %q: Explain %+v, Evaluate %+v", p.Name(), constraint, version, x.Result, r)
			}
			if parsed {
				if r.Verdict == engine.Allow && !admitsWithin(p.Name(), c, v) {
					t.Fatalf("%s: %q | %q: allowed, but B does not hold", p.Name(), constraint, version)
				}
				if p.Name() != "lexical" && r.Verdict == engine.Reject && !strings.HasPrefix(r.Reason, "prerelease:") && c.Holds(v) {
					t.Fatalf("%s: %q | %q: rejected by precedence (%s), but B holds", p.Name(), constraint, version, r.Reason)
				}
			}
			verdicts[p.Name()] = r.Verdict
		}
		if cerr != nil {
			return
		}
		for _, k := range containments {
			if verr != nil {
				break // core-only alone may read the version (four parts)
			}
			if k.when != nil && !k.when(c) {
				continue
			}
			if verdicts[k.sub.Name()] == engine.Allow && verdicts[k.sup.Name()] != engine.Allow {
				t.Fatalf("%q | %q: %s allows, %s says %v", constraint, version, k.sub.Name(), k.sup.Name(), verdicts[k.sup.Name()])
			}
		}
		sel, err := engine.Select(Fallback{}, constraint, []string{version})
		if err != nil || sel.Found != (verdicts["fallback"] == engine.Allow) {
			t.Fatalf("%q | %q: fallback selects %+v (error %v) from the version alone, but answers %v", constraint, version, sel, err, verdicts["fallback"])
		}
		if parsed && !v.IsPrerelease() {
			b := engine.Reject
			if c.Holds(v) {
				b = engine.Allow
			}
			for name, got := range verdicts {
				if name == "lexical" || name == "core-only" && c.NamesPrerelease() {
					continue
				}
				if got != b {
					t.Fatalf("%q | %q: release: %s %v, B %v", constraint, version, name, got, b)
				}
			}
		}
	})
}

// admitsWithin reports whether an admitted version lies where the policy's
// rule allows it: B(c, v) for most; for ga-bound each comparator holds for
// the version or for its GA release; for core-only B holds for the version
// core.
func admitsWithin(policy string, c engine.Constraint, v engine.Version) bool {
	switch policy {
	case "ga-bound":
		for _, cmp := range c.Comparators() {
			if !cmp.Holds(v) && !cmp.Holds(v.Core()) {
				return false
			}
		}
		return true
	case "core-only":
		return c.Holds(v.Core())
	}
	return c.Holds(v)
}
