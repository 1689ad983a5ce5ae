package generate

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/prerel/prerel/engine"
)

func params(seed int64) *gopter.GenParameters {
	return &gopter.GenParameters{MaxSize: 100, MaxShrinkCount: 1000, Rng: rand.New(rand.NewSource(seed))}
}

// checkConstraint fails t unless c parses to the comparators it describes
// and prints back unchanged.
func checkConstraint(t *testing.T, c ConstraintSpec) {
	t.Helper()
	text := c.String()
	parsed, err := engine.ParseConstraint(text)
	if err != nil {
		t.Fatalf("constraint %q from %+v: %v", text, c.Comparators, err)
	}
	if got := parsed.String(); got != text {
		t.Fatalf("constraint %q prints back as %q", text, got)
	}
	if parsed.Len() != len(c.Comparators) || len(c.Comparators) == 0 {
		t.Fatalf("constraint %q: %d comparators parsed, %d generated", text, parsed.Len(), len(c.Comparators))
	}
	for i, pc := range parsed.Comparators() {
		g := c.Comparators[i]
		if pc.Op != g.Op || pc.Bare != g.Bare || pc.Precision != g.Precision {
			t.Fatalf("constraint %q comparator %d: parsed %v bare=%v precision %d, generated %v bare=%v precision %d",
				text, i, pc.Op, pc.Bare, pc.Precision, g.Op, g.Bare, g.Precision)
		}
		v := pc.Version
		w := g.Version
		if v.Major() != w.Major || v.Minor() != w.Minor || v.Patch() != w.Patch || v.Prerelease() != w.Prerelease || v.Build() != w.Build {
			t.Fatalf("constraint %q comparator %d: parsed version %v, generated %+v", text, i, v, w)
		}
	}
}

func checkVersion(t *testing.T, v VersionSpec) {
	t.Helper()
	text := v.String()
	parsed, err := engine.ParseVersion(text)
	if err != nil {
		t.Fatalf("version %q from %+v: %v", text, v, err)
	}
	if got := parsed.String(); got != text {
		t.Fatalf("version %q prints back as %q", text, got)
	}
	if parsed.Major() != v.Major || parsed.Minor() != v.Minor || parsed.Patch() != v.Patch ||
		parsed.Prerelease() != v.Prerelease || parsed.Build() != v.Build {
		t.Fatalf("version %q parsed as %v, generated %+v", text, parsed, v)
	}
}

func TestGeneratedTextParses(t *testing.T) {
	p := params(1)
	versions, constraints, cases := Version(), Constraint(4), Case(4)
	for i := 0; i < 20000; i++ {
		v, ok := versions(p).Retrieve()
		if !ok {
			t.Fatal("Version gave no value")
		}
		checkVersion(t, v.(VersionSpec))

		c, ok := constraints(p).Retrieve()
		if !ok {
			t.Fatal("Constraint gave no value")
		}
		if n := len(c.(ConstraintSpec).Comparators); n > 4 {
			t.Fatalf("Constraint(4) gave %d comparators", n)
		}
		checkConstraint(t, c.(ConstraintSpec))

		k, ok := cases(p).Retrieve()
		if !ok {
			t.Fatal("Case gave no value")
		}
		checkConstraint(t, k.(CaseSpec).Constraint)
		checkVersion(t, k.(CaseSpec).Version)
	}
	n := 0
	Cases(7, 20000, func(c, v string) bool {
		n++
		if _, err := engine.ParseConstraint(c); err != nil {
			t.Fatal(err)
		}
		if _, err := engine.ParseVersion(v); err != nil {
			t.Fatal(err)
		}
		return true
	})
	if n != 20000 {
		t.Fatalf("Cases yielded %d cases, want 20000", n)
	}
}

// TestShrinkCandidatesParse checks that everything shrinking proposes is
// valid too, and that each candidate is strictly smaller, so shrinking ends.
func TestShrinkCandidatesParse(t *testing.T) {
	p := params(2)
	g := Case(4)
	for i := 0; i < 300; i++ {
		r := g(p)
		c := r.Result.(CaseSpec)
		m := measure(c)
		for _, s := range r.Shrinker(c).All() {
			k := s.(CaseSpec)
			checkConstraint(t, k.Constraint)
			checkVersion(t, k.Version)
			if mk := measure(k); mk >= m {
				t.Fatalf("candidate %v of %v does not shrink (%d >= %d)", k, c, mk, m)
			}
		}
	}
}

// measure is the sum the shrinkers promise to decrease.
func measure(c CaseSpec) int {
	s := shape{cmps: c.Constraint.Comparators, v: c.Version, hasV: true}
	n := 1000 * len(s.cmps)
	for _, p := range s.numbers() {
		n += int(*p)
	}
	for _, v := range s.versions() {
		n += preRank(v.Prerelease)
		if v.Build != "" {
			n++
		}
		if v.VPrefix {
			n++
		}
	}
	for _, c := range s.cmps {
		n += opRank(c.Op) + 3 - c.Precision
		if c.Bare {
			n++
		}
	}
	return n
}

func TestDeterministicPerSeed(t *testing.T) {
	collect := func(seed int64, count int) []string {
		var out []string
		Cases(seed, count, func(c, v string) bool {
			out = append(out, c+" | "+v)
			return true
		})
		return out
	}
	a, b := collect(42, 500), collect(42, 500)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatal("Cases gave different streams for the same seed")
	}
	if strings.Join(a, "\n") == strings.Join(collect(43, 500), "\n") {
		t.Fatal("Cases gave the same stream for different seeds")
	}
	short := collect(42, 10)
	if strings.Join(short, "\n") != strings.Join(a[:10], "\n") {
		t.Fatal("a shorter stream is not a prefix of the longer one")
	}

	gen := Case(4)
	x, y := params(9), params(9)
	for i := 0; i < 200; i++ {
		if s, u := gen(x).Result.(CaseSpec).String(), gen(y).Result.(CaseSpec).String(); s != u {
			t.Fatalf("Case gave %s and %s for the same seed", s, u)
		}
	}
}

func TestCasesStopsEarly(t *testing.T) {
	n := 0
	Cases(1, 100, func(string, string) bool {
		n++
		return n < 3
	})
	if n != 3 {
		t.Fatalf("Cases went on after yield returned false: %d calls", n)
	}
}

// TestBias checks that the cases exercise prerelease rules: many versions
// are prereleases sharing their base with a comparator, and the operators
// and precisions all occur. A history is generated around
// HistoryConstraints constraints and each meets all of it, so a version
// shares its base with a comparator of the constraint it meets less often
// than a version of Case does.
func TestBias(t *testing.T) {
	const n = 10000
	sameBasePre, pre, multi := 0, 0, 0
	ops := map[engine.Op]int{}
	precisions := map[int]int{}
	Cases(3, n, func(cs, vs string) bool {
		c := engine.MustParseConstraint(cs)
		v := engine.MustParseVersion(vs)
		if c.Len() > 1 {
			multi++
		}
		if v.IsPrerelease() {
			pre++
			for _, cmp := range c.Comparators() {
				if cmp.Version.SameCore(v) {
					sameBasePre++
					break
				}
			}
		}
		for _, cmp := range c.Comparators() {
			ops[cmp.Op]++
			precisions[cmp.Precision]++
		}
		return true
	})
	if sameBasePre < n/10 {
		t.Errorf("only %d of %d versions are prereleases with a comparator's base", sameBasePre, n)
	}
	if pre < n/3 || pre > 3*n/4 {
		t.Errorf("%d of %d versions are prereleases", pre, n)
	}
	if multi < n/3 {
		t.Errorf("only %d of %d constraints have several comparators", multi, n)
	}
	for _, o := range opsByRank {
		if ops[o] < n/20 {
			t.Errorf("operator %v occurs %d times", o, ops[o])
		}
	}
	for p := 1; p <= 3; p++ {
		if precisions[p] < n/20 {
			t.Errorf("precision %d occurs %d times", p, precisions[p])
		}
	}
}

// shrunk runs an always-false-somewhere property and returns the shrunk
// counterexample.
func shrunk(t *testing.T, gen gopter.Gen, holds interface{}) interface{} {
	t.Helper()
	tp := gopter.DefaultTestParametersWithSeed(5)
	tp.MinSuccessfulTests = 2000
	res := prop.ForAll(holds, gen).Check(tp)
	if res.Status != gopter.TestFailed {
		t.Fatalf("property not falsified: %v", res.Status)
	}
	return res.Args[0].Arg
}

func TestShrinkingReachesMinimalValues(t *testing.T) {
	tests := []struct {
		name  string
		gen   gopter.Gen
		holds interface{}
		want  string
	}{
		{
			name:  "any case",
			gen:   Case(4),
			holds: func(CaseSpec) bool { return false },
			want:  `constraint ">= 0.0.0" version "0.0.0"`,
		},
		{
			name:  "version is a release",
			gen:   Case(4),
			holds: func(c CaseSpec) bool { return c.Version.Prerelease == "" },
			want:  `constraint ">= 0.0.0" version "0.0.0-alpha"`,
		},
		{
			name: "no prerelease version shares a prerelease comparator's base",
			gen:  Case(4),
			holds: func(c CaseSpec) bool {
				v := c.Version.Engine()
				for _, cmp := range c.Constraint.Engine().Comparators() {
					if v.IsPrerelease() && cmp.NamesPrerelease() && cmp.Version.SameCore(v) {
						return false
					}
				}
				return true
			},
			want: `constraint ">= 0.0.0-alpha" version "0.0.0-alpha"`,
		},
		{
			name: "versions with the same prerelease tag as a comparator have another base",
			gen:  Case(4),
			holds: func(c CaseSpec) bool {
				v := c.Version.Engine()
				for _, cmp := range c.Constraint.Engine().Comparators() {
					if v.IsPrerelease() && cmp.Version.Equal(v) && v.Major() > 0 {
						return false
					}
				}
				return true
			},
			want: `constraint ">= 1.0.0-alpha" version "1.0.0-alpha"`,
		},
		{
			name:  "at most one comparator",
			gen:   Case(4),
			holds: func(c CaseSpec) bool { return len(c.Constraint.Comparators) < 2 },
			want:  `constraint ">= 0.0.0, >= 0.0.0" version "0.0.0"`,
		},
		{
			name:  "constraint: no pessimistic",
			gen:   Constraint(4),
			holds: func(c ConstraintSpec) bool { return !strings.Contains(c.String(), "~>") },
			want:  "~> 0.0.0",
		},
		{
			name:  "version: below 5.0.0",
			gen:   Version(),
			holds: func(v VersionSpec) bool { return v.Major < 5 },
			want:  "5.0.0",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shrunk(t, tt.gen, tt.holds)
			s, ok := got.(interface{ String() string })
			if !ok {
				t.Fatalf("shrunk value %v has no String method", got)
			}
			if s.String() != tt.want {
				t.Errorf("shrunk to %s, want %s", s.String(), tt.want)
			}
		})
	}
}

func TestShrinkShiftsParts(t *testing.T) {
	c := CaseSpec{
		Constraint: ConstraintSpec{Comparators: []ComparatorSpec{
			{Op: engine.OpGreaterEqual, Precision: 3, Version: VersionSpec{Minor: 4, Prerelease: "alpha"}},
			{Op: engine.OpPessimistic, Precision: 3, Version: VersionSpec{Minor: 3}},
		}},
		Version: VersionSpec{Minor: 4, Prerelease: "alpha"},
	}
	want := map[string]bool{
		`constraint ">= 0.1.0-alpha, ~> 0.0.0" version "0.1.0-alpha"`: false,
		`constraint ">= 0.3.0-alpha, ~> 0.2.0" version "0.3.0-alpha"`: false,
	}
	for _, s := range shrinkCase(c).All() {
		if _, ok := want[s.(CaseSpec).String()]; ok {
			want[s.(CaseSpec).String()] = true
		}
	}
	for w, found := range want {
		if !found {
			t.Errorf("no shrink candidate %s", w)
		}
	}
}

// TestGroups checks the shape of Groups: GroupSize versions to a
// constraint, the last group shorter, HistoryConstraints constraints to a
// history, handed the same slice, and the cases of Cases in order.
func TestGroups(t *testing.T) {
	const count = 5*HistoryConstraints*GroupSize + 100
	var cases []string
	Cases(11, count, func(c, v string) bool {
		cases = append(cases, c+" | "+v)
		return true
	})
	var got []string
	groups, histories := 0, 0
	var last *string
	Groups(11, count, func(c string, versions []string) bool {
		if &versions[0] != last {
			if groups%HistoryConstraints != 0 {
				t.Fatalf("group %d starts a new history", groups)
			}
			histories++
			last = &versions[0]
		}
		if len(versions) != GroupSize && len(got)+len(versions) != count {
			t.Fatalf("group %d has %d versions", groups, len(versions))
		}
		if _, err := engine.ParseConstraint(c); err != nil {
			t.Fatal(err)
		}
		distinct := map[string]bool{}
		for _, v := range versions {
			distinct[v] = true
			got = append(got, c+" | "+v)
		}
		if len(distinct) < len(versions)*3/4 {
			t.Errorf("group %d: %d distinct versions of %d", groups, len(distinct), len(versions))
		}
		groups++
		return true
	})
	if len(got) != count || groups != (count+GroupSize-1)/GroupSize || histories != 6 {
		t.Fatalf("%d cases in %d groups of %d histories", len(got), groups, histories)
	}
	if strings.Join(got, "\n") != strings.Join(cases, "\n") {
		t.Fatal("Cases is not the cases of Groups in order")
	}
	n := 0
	Groups(11, count, func(string, []string) bool {
		n++
		return n < 3
	})
	if n != 3 {
		t.Fatalf("Groups went on after yield returned false: %d calls", n)
	}
}
