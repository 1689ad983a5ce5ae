package compare

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
)

// tallyPolicy is a policy on text that counts the versions it judges
// per constraint, and names itself, the constraint and the version in
// its reasons.
type tallyPolicy struct {
	name   string
	mu     *sync.Mutex
	judged map[[2]string]int // (constraint, version) -> times judged
}

func newTallyPolicy(name string) tallyPolicy {
	return tallyPolicy{name: name, mu: &sync.Mutex{}, judged: map[[2]string]int{}}
}

func (p tallyPolicy) Name() string { return p.name }
func (p tallyPolicy) Rule() string {
	return "allows a version whose text is longer than the constraint's"
}

func (p tallyPolicy) Compile(c string) (engine.Matcher, error) {
	if strings.Contains(c, "!") {
		return nil, fmt.Errorf("%s refuses %q", p.name, c)
	}
	return tallyMatcher{p, c}, nil
}

type tallyMatcher struct {
	p tallyPolicy
	c string
}

func (m tallyMatcher) Match(v string) engine.Result {
	m.p.mu.Lock()
	m.p.judged[[2]string{m.c, v}]++
	m.p.mu.Unlock()
	verdict := engine.Reject
	if len(v) > len(m.c) {
		verdict = engine.Allow
	}
	return engine.Result{Verdict: verdict, Reason: fmt.Sprintf("%s on %q, %q", m.p.name, m.c, v)}
}

// fillClassReasons gives each side of every class its policy's reason on
// the class's witness, exactly what engine.Evaluate gives, and judges
// each witness once per policy with a side on it and not at all for the
// others, however many classes share the witness and however far apart
// they lie: with the policies' tables (every registered policy), on text
// for each constraint's versions (short lists and long ones), and with
// more policies than one word of a set holds.
func TestFillClassReasonsJudgesEachWitnessOnce(t *testing.T) {
	many := func() []engine.Policy {
		ps := make([]engine.Policy, 70)
		for i := range ps {
			ps[i] = newTallyPolicy(fmt.Sprintf("tally-%d", i))
		}
		return ps
	}
	longList := make([]string, minReadVersions+4) // the versions of one constraint, read whole
	for i := range longList {
		longList[i] = fmt.Sprintf("1.%d.0", i)
	}
	for _, tc := range []struct {
		name     string
		policies func() []engine.Policy // fresh tallies for each case
	}{
		{"registered policies on their tables", func() []engine.Policy { return append(catalogue.New().All(), newTallyPolicy("tally")) }},
		{"text policies", func() []engine.Policy {
			return []engine.Policy{newTallyPolicy("tally"), newTallyPolicy("other"), newTallyPolicy("third")}
		}},
		{"more policies than a word", many},
	} {
		t.Run(tc.name, func(t *testing.T) {
			policies := tc.policies()
			witnesses := [][2]string{
				{">= 1.0.0-beta, < 1.0.0", "1.0.0-beta.2"},
				{">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1"},
				{"~> 1.2", "1.3.0-rc.1"},
				{"~> v1.2.0", "v1.2.5-alpha+build.1"},
				{"! not a constraint", "1.0.0"},
				{"1.x", "1.2.3"},
			}
			for _, v := range longList {
				witnesses = append(witnesses, [2]string{"^1.2", v})
			}
			// Classes pair by pair, each pair with a class on every
			// witness that its index picks, so that a witness's classes
			// lie apart and the policies with a side differ by witness.
			n := len(policies)
			var classes []Class
			var sides [][2]int32
			for a := range n {
				for b := a + 1; b < n; b++ {
					for w, wt := range witnesses {
						if (a+b+w)%3 == 0 {
							continue
						}
						classes = append(classes, Class{Witness: Witness{Constraint: wt[0], Version: wt[1]}})
						sides = append(sides, [2]int32{int32(a), int32(b)})
					}
				}
			}
			ws, _, witnessOf := classWitnesses(classes, 2)
			// The policies with a side on each witness.
			sided := map[[2]string]map[int32]bool{}
			for i, c := range classes {
				k := [2]string{c.Witness.Constraint, c.Witness.Version}
				if sided[k] == nil {
					sided[k] = map[int32]bool{}
				}
				sided[k][sides[i][0]], sided[k][sides[i][1]] = true, true
			}
			if err := fillClassReasons(classes, sides, ws, witnessOf, policies, 2); err != nil {
				t.Fatal(err)
			}
			// Counted before engine.Evaluate judges them again.
			for pi, p := range policies {
				cp, ok := p.(tallyPolicy)
				if !ok {
					continue
				}
				for _, wt := range witnesses {
					want := 0
					if sided[wt][int32(pi)] && !strings.Contains(wt[0], "!") {
						want = 1
					}
					if got := cp.judged[wt]; got != want {
						t.Errorf("%s judged %q, %q %d times, want %d", cp.name, wt[0], wt[1], got, want)
					}
				}
			}
			for i, c := range classes {
				w := c.Witness
				for s, got := range []string{w.AReason, w.BReason} {
					p := policies[sides[i][s]]
					if want := engine.Evaluate(p, w.Constraint, w.Version).Reason; got != want {
						t.Errorf("class %d (%s on %q, %q): reason %q, want %q", i, p.Name(), w.Constraint, w.Version, got, want)
					}
				}
			}
		})
	}
}

// panicsOnVersion is a policy on text whose matcher panics on one
// version: a bug in a policy that the reasons meet.
type panicsOnVersion struct{ tallyPolicy }

func (p panicsOnVersion) Compile(c string) (engine.Matcher, error) {
	m, err := p.tallyPolicy.Compile(c)
	return panicsOnVersionMatcher{m}, err
}

type panicsOnVersionMatcher struct{ engine.Matcher }

func (m panicsOnVersionMatcher) Match(v string) engine.Result {
	if v == "6.6.6" {
		panic("the matcher broke")
	}
	return m.Matcher.Match(v)
}

// A policy that panics on a witness makes fillClassReasons return a
// PanicError naming the policy, the constraint and the version, though
// other policies come before it in the witness's set.
func TestFillClassReasonsReportsAPanickingPolicy(t *testing.T) {
	policies := []engine.Policy{newTallyPolicy("first"), newTallyPolicy("second"), panicsOnVersion{newTallyPolicy("panics")}}
	classes := []Class{
		{Witness: Witness{Constraint: ">= 1.0", Version: "1.0.0"}},
		{Witness: Witness{Constraint: ">= 2.0", Version: "6.6.6"}},
		{Witness: Witness{Constraint: ">= 2.0", Version: "6.6.6"}},
	}
	sides := [][2]int32{{0, 2}, {0, 1}, {1, 2}}
	ws, _, witnessOf := classWitnesses(classes, 2)
	err := fillClassReasons(classes, sides, ws, witnessOf, policies, 2)
	pe, ok := err.(*PanicError)
	if !ok {
		t.Fatalf("error %v, want a *PanicError", err)
	}
	if pe.Policy != "panics" || pe.Constraint != ">= 2.0" || pe.Version != "6.6.6" || pe.Value != "the matcher broke" {
		t.Errorf("PanicError %+v, want the policy panics on >= 2.0, 6.6.6", pe)
	}
}
