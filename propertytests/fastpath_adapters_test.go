package propertytests

import (
	"flag"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/prerel/prerel/adapters"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/longtest"
)

// designsGlob finds the policies written in HCL.
const designsGlob = "../testdata/designs/*.hcl"

// fastPathScopeFlag overrides the exhaustive scope of the fast-path
// proof for every policy.
var fastPathScopeFlag = flag.Int("fastpath-scope", 0, "exhaustive scope of TestFastPathAdaptersEqualText for every policy (default: 1; with PREREL_LONG=1, 3 for the adapters)")

// fastPathPolicy is a policy the fast-path proof judges and the
// exhaustive scope it is judged on.
type fastPathPolicy struct {
	p     engine.Policy
	scope int
}

// fastPathPolicies are the policies whose tables (engine.ReadVersions)
// the fast-path proofs judge: every library adapter, each with a table
// of its own, on the largest exhaustive scope, and every policy of the
// HCL designs, on the default scope. An HCL policy has no table of its
// own (it keeps each version's value itself) and is judged through the
// generic table; it evaluates its expression for every case, three times
// here. Every day the adapters alone are judged, on the smallest scope,
// which already holds every operator against every kind of version; the
// long run (longtest) judges the adapters on scope 3 (1.6 million cases)
// and the designs on the smallest scope (package hclpolicy proves each
// design equal to its native policy on scope 3); -fastpath-scope sets one
// for all.
func fastPathPolicies(t *testing.T) []fastPathPolicy {
	t.Helper()
	adapterScope := longtest.Pick(compare.MinScope, 3)
	hclScope := compare.MinScope
	if s := *fastPathScopeFlag; s != 0 {
		adapterScope, hclScope = s, s
	}
	var ps []fastPathPolicy
	for _, p := range adapters.All() {
		if _, ok := p.(engine.VersionReader); !ok {
			t.Fatalf("adapter %s does not implement engine.VersionReader", p.Name())
		}
		ps = append(ps, fastPathPolicy{p, adapterScope})
	}
	if !longtest.Enabled() {
		// Every day the designs' generic table is proven in package
		// hclpolicy (TestGenericTable, TestDesignsEqualNativePolicies).
		return ps
	}
	files, err := filepath.Glob(designsGlob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no HCL designs at %s: %v", designsGlob, err)
	}
	for _, f := range files {
		loaded, diags := hclpolicy.Load(f, hclpolicy.Options{})
		for _, d := range diags {
			t.Log(diag.Format(d))
		}
		if diags.HasErrors() {
			t.Fatalf("loading %s failed", f)
		}
		for _, p := range loaded {
			ps = append(ps, fastPathPolicy{p, hclScope})
		}
	}
	return ps
}

// tablePair is one policy's table (engine.ReadVersions) and the text
// table it must equal.
type tablePair struct {
	p          engine.Policy
	fast, text engine.VersionTable
	out        []engine.Verdict
}

// newTablePair reads versions into p's table and into the text table.
func newTablePair(p engine.Policy, versions []string) *tablePair {
	return &tablePair{
		p:    p,
		fast: engine.ReadVersions(p, versions),
		text: engine.TextTable(p, versions),
		out:  make([]engine.Verdict, len(versions)),
	}
}

// check compiles constraint with both tables and returns "" when they
// agree: the same refusal, or the same verdicts (Verdicts) and the same
// results (Judge) for every version. versions are the tables' texts,
// for the message.
func (tp *tablePair) check(constraint string, versions []string) string {
	fm, ferr := tp.fast.Compile(constraint)
	tm, terr := tp.text.Compile(constraint)
	switch {
	case (ferr == nil) != (terr == nil):
		return fmt.Sprintf("%s %q: the table's Compile error is %v, Compile's %v", tp.p.Name(), constraint, ferr, terr)
	case ferr != nil:
		if ferr.Error() != terr.Error() {
			return fmt.Sprintf("%s %q: the table refuses with %q, Compile with %q", tp.p.Name(), constraint, ferr, terr)
		}
		return ""
	}
	if n := tp.fast.Len(); n != len(versions) {
		return fmt.Sprintf("%s: the table has %d versions, want %d", tp.p.Name(), n, len(versions))
	}
	for i := range tp.out {
		tp.out[i] = engine.Verdict(255)
	}
	fm.Verdicts(tp.out)
	for i, v := range versions {
		want := tm.Judge(i)
		if tp.out[i] != want.Verdict {
			return fmt.Sprintf("%s %q %q: Verdicts gives %s, Match %s (%s)", tp.p.Name(), constraint, v, tp.out[i], want.Verdict, want.Reason)
		}
		if got := fm.Judge(i); got != want {
			return fmt.Sprintf("%s %q %q: Judge gives %s (%s), Match %s (%s)", tp.p.Name(), constraint, v, got.Verdict, got.Reason, want.Verdict, want.Reason)
		}
	}
	return ""
}

// TestFastPathAdaptersEqualText proves, for every adapter and every HCL
// design, that the policy's table (engine.ReadVersions, then Compile,
// Verdicts and Judge) gives what Compile and Match give on the text
// (engine.TextTable), on every group of the exhaustive domain: the same
// refusal of a constraint, error text included, and for every version
// the same verdict and the same result, reason included. The table of
// each version list is read once and judges every constraint, as the
// harness uses it. The policies run in parallel.
func TestFastPathAdaptersEqualText(t *testing.T) {
	longtest.SkipShort(t)
	for _, fp := range fastPathPolicies(t) {
		t.Run(fp.p.Name(), func(t *testing.T) {
			t.Parallel()
			d, err := compare.Exhaustive(fp.scope)
			if err != nil {
				t.Fatal(err)
			}
			var (
				tp       *tablePair
				versions []string
				groups   int
				failures []string
			)
			err = d.Groups(func(g compare.Group) bool {
				if tp == nil || !sameList(versions, g.Versions) {
					tp, versions = newTablePair(fp.p, g.Versions), g.Versions
				}
				groups++
				if msg := tp.check(g.Constraint, g.Versions); msg != "" {
					failures = append(failures, msg)
				}
				return len(failures) < 10
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(failures) > 0 {
				t.Fatalf("the table differs from the text on exhaustive scope %d:\n  %s", fp.scope, strings.Join(failures, "\n  "))
			}
			t.Logf("%s: %d groups, %d cases (exhaustive scope %d) equal", fp.p.Name(), groups, d.Info().Cases, fp.scope)
		})
	}
}

// sameList reports whether a and b are the same slice.
func sameList(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// fastPathCase is what the fast-path property draws: constraints judged,
// one after another, against one list of versions.
type fastPathCase struct {
	Constraints []generate.ConstraintSpec
	Versions    []generate.VersionSpec
}

// String renders the case for gopter's reports.
func (c fastPathCase) String() string {
	var b strings.Builder
	b.WriteString("constraints")
	for _, k := range c.Constraints {
		fmt.Fprintf(&b, " %q", k.String())
	}
	b.WriteString(" versions")
	for _, v := range c.Versions {
		fmt.Fprintf(&b, " %q", v.String())
	}
	return b.String()
}

// constraintTexts writes each constraint as the engine prints it and
// without spaces, which some libraries read differently.
func (c fastPathCase) constraintTexts() []string {
	var out []string
	for _, k := range c.Constraints {
		s := k.String()
		out = append(out, s, strings.ReplaceAll(s, " ", ""))
	}
	return out
}

// versionTexts writes each version.
func (c fastPathCase) versionTexts() []string {
	out := make([]string, len(c.Versions))
	for i, v := range c.Versions {
		out[i] = v.String()
	}
	return out
}

// TestFastPathAdaptersProperty checks the same equality on random
// constraints and versions (compare/generate): each drawn list of
// versions is read into one table per policy, which then judges every
// drawn constraint, written as printed and without spaces, so that the
// tables' pieces are shared between constraints as the harness shares
// them. Each test judges twelve constraint texts against twelve versions
// with every policy, so the property runs a twentieth of the tests of
// the other properties (see -tests).
func TestFastPathAdaptersProperty(t *testing.T) {
	var ps []engine.Policy
	for _, fp := range fastPathPolicies(t) {
		ps = append(ps, fp.p)
	}
	params := parameters(t)
	params.MinSuccessfulTests = max(1, tests(t)/20)
	gens := gen.Struct(reflect.TypeOf(fastPathCase{}), map[string]gopter.Gen{
		"Constraints": gen.SliceOfN(6, generate.Constraint(maxComparators)),
		"Versions":    gen.SliceOfN(12, generate.Version()),
	})
	property := prop.ForAll(func(c fastPathCase) string {
		versions := c.versionTexts()
		for _, p := range ps {
			tp := newTablePair(p, versions)
			for _, k := range c.constraintTexts() {
				if msg := tp.check(k, versions); msg != "" {
					return msg
				}
			}
		}
		return ""
	}, gens)
	requireHolds(t, "the fast path equals the text", property.Check(params), nil)
}
