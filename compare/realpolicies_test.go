package compare

import (
	"context"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// The native policies and go-version on the default exhaustive domain:
// every witness is re-evaluated, and the documented lexical/cargo
// divergence on ">= 1.0.0-beta, < 1.0.0" is found with its true smallest
// witness and its exact count.
func TestRealPoliciesOnDefaultExhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the default exhaustive domain")
	}
	policies, err := catalogue.New().Resolve([]string{"strict", "lexical", "cargo", "hashicorp"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Exhaustive(DefaultScope)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), d, policies, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]engine.Policy{}
	for _, p := range policies {
		byName[p.Name()] = p
	}

	for _, c := range r.Classes {
		w := c.Witness
		ra := engine.Evaluate(byName[c.A], w.Constraint, w.Version)
		rb := engine.Evaluate(byName[c.B], w.Constraint, w.Version)
		if ra.Verdict != w.AVerdict || rb.Verdict != w.BVerdict {
			t.Errorf("%s vs %s, %q with %q: reported %s/%s, evaluated %s/%s",
				c.A, c.B, w.Constraint, w.Version, w.AVerdict, w.BVerdict, ra.Verdict, rb.Verdict)
		}
		if s := signatureOf(byName[c.A], byName[c.B], w.Constraint, w.Version); s != c.Signature {
			t.Errorf("%s vs %s: witness %q with %q has signature %q, its class %q", c.A, c.B, w.Constraint, w.Version, s, c.Signature)
		}
	}

	const sig = ">= V-pre [=], < V [=]; version V-pre; a reject, b allow"
	var found *Class
	for _, c := range r.ClassesOf("lexical", "cargo") {
		if c.Signature == sig {
			found = &c
		}
	}
	if found == nil {
		t.Fatalf("lexical vs cargo: no class %q", sig)
	}
	if found.Cause != CausePrerelease {
		t.Errorf("cause %q, want %q", found.Cause, CausePrerelease)
	}

	// Brute force: every case of the domain in this class, and the
	// smallest of them.
	lexical, cargo := byName["lexical"], byName["cargo"]
	var count int64
	var best *caseKey
	err = d.Groups(func(g Group) bool {
		ml, errL := lexical.Compile(g.Constraint)
		mc, errC := cargo.Compile(g.Constraint)
		if errL != nil || errC != nil {
			return true
		}
		ci := newConstraintInfo(g.Constraint)
		for _, v := range g.Versions {
			a, b := ml.Match(v).Verdict, mc.Match(v).Verdict
			if a == b || signatureOf(lexical, cargo, g.Constraint, v) != sig {
				continue
			}
			count++
			vi := newVersionInfo(v)
			if k := makeCaseKey(&ci, &vi); best == nil || k.less(*best) {
				best = &k
			}
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if count != found.Count {
		t.Errorf("the class counts %d cases, the domain holds %d", found.Count, count)
	}
	if best == nil || best.constraint != found.Witness.Constraint || best.version != found.Witness.Version {
		t.Errorf("witness %q with %q, the smallest case is %+v", found.Witness.Constraint, found.Witness.Version, best)
	}
	want := Witness{Constraint: ">= 1.0.0-beta, < 1", Version: "1.0.0-beta", AVerdict: engine.Reject, BVerdict: engine.Allow}
	if got := found.Witness; got.Constraint != want.Constraint || got.Version != want.Version || got.AVerdict != want.AVerdict || got.BVerdict != want.BVerdict {
		t.Errorf("witness %+v, want %+v", got, want)
	}

	// go-version's quirks are named, in the classes and by CauseOf.
	for _, tt := range []struct {
		a, b, constraint, version string
		want                      Cause
	}{
		{"lexical", "hashicorp", ">= 1.0.0-alpha", "1.0.0-alpha.beta", CausePrecedence},
		{"strict", "hashicorp", "~> 1", "2.0.0", CausePessimistic},
		{"lexical", "cargo", "~> 1.0.0-beta", "1.0.1", CausePessimistic},
		// "~> 1" has no upper bound in go-version, but the divergence is
		// its prerelease gate: the expansion's "< 2.0.0" refuses 2.0.0-beta.
		{"strict", "hashicorp", "= 2.0.0-beta, ~> 1", "2.0.0-beta", CausePrerelease},
	} {
		cause := CauseOf(byName[tt.a], byName[tt.b], tt.constraint, tt.version)
		if cause != tt.want {
			t.Errorf("CauseOf(%s, %s, %q, %q) = %q, want %q", tt.a, tt.b, tt.constraint, tt.version, cause, tt.want)
		}
		sigOf := signatureOf(byName[tt.a], byName[tt.b], tt.constraint, tt.version)
		ok := false
		for _, c := range r.ClassesOf(tt.a, tt.b) {
			if c.Signature == sigOf {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s vs %s: no class %q for %q with %q", tt.a, tt.b, sigOf, tt.constraint, tt.version)
		}
	}
}

// TestDefaultDomainKeepsEveryClass runs every policy of the catalogue on
// the default exhaustive domain, as "prerel compare" does: no pair leaves
// a class out (MaxClasses says so), so the report the README shows is
// whole, but for the pairs of tfupdate, which does not read the
// constraint and so splits from every rule on nearly every case shape:
// they keep the shortest classes and count the cases of the others.
func TestDefaultDomainKeepsEveryClass(t *testing.T) {
	longtest.Skip(t)
	d, err := Exhaustive(DefaultScope)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), d, catalogue.New().All(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Pairs {
		if p.CasesLeftOut != 0 && p.A != "tfupdate" && p.B != "tfupdate" {
			t.Errorf("%s vs %s leaves out classes of %d cases (%d classes a pair)", p.A, p.B, p.CasesLeftOut, ClassesPerPair(len(r.Pairs)))
		}
	}
}
