package propertytests

import (
	"fmt"
	"math"
	"testing"

	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// stretches move a generated case towards the limits of the native
// policies' compiled form, whose precedence keys hold a MAJOR below 2^24-1
// and a MINOR and a PATCH below 2^20-1 (past them Judge decides), or
// lengthen its prereleases, which the keys rank among the table's. Each is
// applied to every version of the case, the constraint's and the judged
// one, so that the case keeps its shape; the first leaves it as generated.
var stretches = []struct {
	name  string
	apply func(*generate.VersionSpec)
}{
	{"none", func(*generate.VersionSpec) {}},
	{"major at the key's limit", func(v *generate.VersionSpec) { v.Major = near(v.Major, 1<<24-4) }},
	{"minor at the key's limit", func(v *generate.VersionSpec) { v.Minor = near(v.Minor, 1<<20-4) }},
	{"patch at the key's limit", func(v *generate.VersionSpec) { v.Patch = near(v.Patch, 1<<20-4) }},
	{"major at the uint64 limit", func(v *generate.VersionSpec) { v.Major = near(v.Major, math.MaxUint64-4) }},
	{"minor at the uint64 limit", func(v *generate.VersionSpec) { v.Minor = near(v.Minor, math.MaxUint64-4) }},
	{"longer prerelease", func(v *generate.VersionSpec) {
		if v.Prerelease != "" {
			v.Prerelease = "abcd." + v.Prerelease
		}
	}},
	{"large numeric identifier", func(v *generate.VersionSpec) {
		if v.Prerelease != "" {
			v.Prerelease = "72057594037927935." + v.Prerelease
		}
	}},
}

// near returns base plus n, for the small n the generators draw, and n
// itself for the rare large one, so that the sum stays a uint64 and the
// generated order of small numbers is kept.
func near(n, base uint64) uint64 {
	if n > 8 {
		return n
	}
	return base + n
}

// stretched returns the case with stretches[i] applied.
func stretched(c generate.CaseSpec, i int) generate.CaseSpec {
	s := stretches[i].apply
	out := generate.CaseSpec{Version: c.Version}
	out.Constraint.Comparators = append([]generate.ComparatorSpec(nil), c.Constraint.Comparators...)
	for j := range out.Constraint.Comparators {
		s(&out.Constraint.Comparators[j].Version)
	}
	s(&out.Version)
	return out
}

// TestFastPathNative: for every native policy, a random constraint and
// version, stretched or not towards the limits of the compiled form, get
// the same result through the fast path (engine.ReadVersions, the table's
// Compile, Judge and Verdicts, also for the version alone) as through
// Compile and Match: the same verdict and reason, or the same refusal of
// the constraint.
func TestFastPathNative(t *testing.T) {
	for _, p := range policies.All() {
		if _, ok := p.(engine.VersionReader); !ok {
			t.Errorf("%s does not implement engine.VersionReader", p.Name())
			continue
		}
		name := p.Name() + ": the compiled path agrees with Compile and Match"
		t.Run(p.Name(), func(t *testing.T) {
			res := prop.ForAll(func(c generate.CaseSpec, s int) string {
				return fastPathAgrees(p, stretched(c, s))
			}, generate.Case(maxComparators), gen.IntRange(0, len(stretches)-1)).Check(parameters(t))
			requireHolds(t, name, res, nil)
		})
	}
}

// fastPathAgrees judges the case, and the case's version as generated,
// through p's table and a table of the version alone, and says how they
// differ from
// engine.Evaluate, or returns "".
func fastPathAgrees(p engine.Policy, c generate.CaseSpec) string {
	constraint := c.Constraint.String()
	versions := []string{c.Version.String(), generate.VersionSpec{Major: c.Version.Major % 4, Prerelease: c.Version.Prerelease}.String()}
	table := engine.ReadVersions(p, versions)
	m, err := table.Compile(constraint)
	if _, cerr := p.Compile(constraint); (err == nil) != (cerr == nil) || err != nil && err.Error() != cerr.Error() {
		return fmt.Sprintf("%s: %q: table error %v, Compile error %v", p.Name(), constraint, err, cerr)
	}
	out := make([]engine.Verdict, len(versions))
	if m != nil {
		m.Verdicts(out)
	}
	for i, v := range versions {
		want := engine.Evaluate(p, constraint, v)
		if m != nil {
			if got := m.Judge(i); got != want {
				return fmt.Sprintf("%s: %q | %q: table %v (%s), Match %v (%s)", p.Name(), constraint, v, got.Verdict, got.Reason, want.Verdict, want.Reason)
			}
			if out[i] != want.Verdict {
				return fmt.Sprintf("%s: %q | %q: Verdicts %v, Match %v (%s)", p.Name(), constraint, v, out[i], want.Verdict, want.Reason)
			}
		}
		alone, err := engine.ReadVersions(p, []string{v}).Compile(constraint)
		switch {
		case err != nil:
			if want.Verdict != engine.Invalid || err.Error() != want.Reason {
				return fmt.Sprintf("%s: %q | %q: one-version table error %v, Match %v (%s)", p.Name(), constraint, v, err, want.Verdict, want.Reason)
			}
		case alone.Judge(0) != want:
			got := alone.Judge(0)
			return fmt.Sprintf("%s: %q | %q: one-version table %v (%s), Match %v (%s)", p.Name(), constraint, v, got.Verdict, got.Reason, want.Verdict, want.Reason)
		}
	}
	return ""
}
