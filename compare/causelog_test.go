package compare

import (
	"context"
	"sync"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// countingPolicy is a policy judged on text (it hides any VersionReader
// of the policy it wraps), which counts the times it compiles each
// constraint.
type countingPolicy struct {
	engine.Policy
	mu       sync.Mutex
	compiled map[string]int
}

func counting(p engine.Policy) *countingPolicy {
	return &countingPolicy{Policy: p, compiled: map[string]int{}}
}

func (p *countingPolicy) Compile(c string) (engine.Matcher, error) {
	p.mu.Lock()
	p.compiled[c]++
	p.mu.Unlock()
	return p.Policy.Compile(c)
}

// groupsDomain is a domain of the groups given.
type groupsDomain []Group

func (d groupsDomain) Info() DomainInfo {
	n := 0
	for _, g := range d {
		n += len(g.Versions)
	}
	return DomainInfo{Name: "test", Description: "groups of a test", Cases: int64(n)}
}

func (d groupsDomain) Groups(yield func(Group) bool) error {
	for _, g := range d {
		if !yield(g) {
			return nil
		}
	}
	return nil
}

// The cases of CauseOf's steps that are cases of the run are read from
// the run's verdict log: the policies compile their constraints only for
// the run's own groups. The causes are CauseOf's all the same, for the
// witnesses whose steps are cases of the run and for those whose steps
// are not (judged on text), whether a constraint comes back with another
// list of versions or not.
func TestCausesReadCasesOfTheRunFromTheLog(t *testing.T) {
	list := []string{"1.2.0-rc.1", "1.2.0", "0.9.0", "1.3.0-rc.1", "1.3.0", "2.0.0"}
	other := []string{"1.2.0", "0.1.0"}
	d := groupsDomain{
		{Constraint: ">= 1.0.0-beta", Versions: list}, // prerelease step: (">= 1.0.0", "1.2.0"), ...
		{Constraint: ">= 1.0.0", Versions: other},     // ... a case of the run, in another list
		{Constraint: ">= 1.0.0", Versions: list},
		{Constraint: "~> 1.2", Versions: list}, // steps not in the run: ">= 1.2.0, < 2.0.0", ...
		{Constraint: ">=1.0.0", Versions: list[:2]},
	}
	pols := []engine.Policy{counting(policies.AnyPre{}), counting(policies.Strict{}), counting(policies.Cargo{})}
	r, err := Run(context.Background(), d, pols, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]engine.Policy{}
	for _, p := range pols {
		byName[p.Name()] = p
	}
	for _, c := range r.Classes {
		w := c.Witness
		if want := CauseOf(byName[c.A], byName[c.B], w.Constraint, w.Version); c.Cause != want {
			t.Errorf("%s vs %s on (%q, %q): cause %q, CauseOf %q", c.A, c.B, w.Constraint, w.Version, c.Cause, want)
		}
	}

	// The causes again, with and without the run's cases: with them, no
	// constraint of a case of the run is compiled.
	inRun := map[[2]string]bool{}
	k := newRunCases(r.verdicts.log)
	var offset int64
	for _, g := range d {
		k.add(g, offset)
		offset += int64(len(g.Versions))
		for _, v := range g.Versions {
			inRun[[2]string{g.Constraint, v}] = true
		}
	}
	stepsInRun := map[string]bool{} // constraints of step cases in the run
	for _, c := range r.Classes {
		for _, s := range counterfactuals(c.Witness.Constraint, c.Witness.Version) {
			for _, cv := range s.cases {
				if inRun[cv] {
					stepsInRun[cv[0]] = true
				}
			}
		}
	}
	if len(stepsInRun) == 0 {
		t.Fatal("no step of a witness is a case of the run")
	}
	for _, cases := range []*runCases{k, nil} {
		for _, p := range pols {
			clear(p.(*countingPolicy).compiled)
		}
		classes := append([]Class(nil), r.Classes...)
		for i := range classes {
			classes[i].Cause = ""
		}
		witnesses, classesOf, _ := classWitnesses(classes, 2)
		decideWitnessCauses(classes, sidesByName(classes, pols), witnesses, classesOf, pols, 2, cases)
		for i, c := range classes {
			if c.Cause != r.Classes[i].Cause {
				t.Errorf("with cases %v: %s vs %s on %v: cause %q, want %q", cases != nil, c.A, c.B, c.Witness, c.Cause, r.Classes[i].Cause)
			}
		}
		compiled := 0
		for _, p := range pols {
			for c := range stepsInRun {
				compiled += p.(*countingPolicy).compiled[c]
			}
		}
		if cases != nil && compiled > 0 {
			t.Errorf("the steps compiled constraints of cases of the run %d times", compiled)
		}
		if cases == nil && compiled == 0 {
			t.Error("without the run's cases, the steps compiled no constraint of a case of the run")
		}
	}
}

// runCases finds a case of the run by constraint and version, in
// whichever group of the constraint has the version; it keeps nothing
// past its bounds.
func TestRunCasesOffsets(t *testing.T) {
	a := []string{"1.0.0", "2.0.0", "1.0.0"}
	b := []string{"3.0.0"}
	log := newVerdictLog(7, 1)
	k := newRunCases(log)
	k.add(Group{Constraint: ">= 1.0.0", Versions: a}, 0)
	k.add(Group{Constraint: "< 2.0.0", Versions: a}, 3)
	k.add(Group{Constraint: ">= 1.0.0", Versions: b}, 6)
	if len(k.lists) != 2 {
		t.Errorf("%d lists kept, want 2", len(k.lists))
	}
	x := k.index(map[string]int32{">= 1.0.0": 0, "< 2.0.0": 1, "~> 1.0": 2})
	for _, tt := range []struct {
		number  int32
		version string
		want    int64
	}{
		{0, "1.0.0", 0},
		{0, "2.0.0", 1},
		{0, "3.0.0", 6}, // the constraint's other group
		{1, "2.0.0", 4},
		{1, "3.0.0", -1}, // not with this constraint
		{2, "1.0.0", -1}, // a constraint not in the run
		{0, "9.0.0", -1},
		{-1, "1.0.0", -1},
	} {
		if got := x.offset(tt.number, tt.version); got != tt.want {
			t.Errorf("offset(%d, %q) = %d, want %d", tt.number, tt.version, got, tt.want)
		}
	}
	log.overflow.Store(true)
	if k.index(map[string]int32{">= 1.0.0": 0}) != nil {
		t.Error("an index over an incomplete log")
	}
	if newRunCases(nil) != nil || (*runCases)(nil).index(nil) != nil {
		t.Error("cases kept without a log")
	}

	many := newRunCases(newVerdictLog(maxKeptGroups+1, 1))
	for i := range maxKeptGroups + 1 {
		many.add(Group{Constraint: ">= 1.0.0", Versions: a[:1]}, int64(i))
	}
	if many.index(map[string]int32{">= 1.0.0": 0}) != nil {
		t.Errorf("more than %d groups kept", maxKeptGroups)
	}
	long := newRunCases(newVerdictLog(maxKeptVersions+1, 1))
	long.add(Group{Constraint: ">= 1.0.0", Versions: make([]string, maxKeptVersions+1)}, 0)
	if long.index(map[string]int32{">= 1.0.0": 0}) != nil {
		t.Errorf("more than %d versions kept", maxKeptVersions)
	}
}
