package compare

import (
	"fmt"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// panickyTable is a native policy whose table panics when it compiles a
// constraint naming a prerelease, and whose Verdicts panic on every
// constraint with a "~>": the causes must then come from the text path,
// and be CauseOf's.
type panickyTable struct{ policies.Cargo }

func (panickyTable) Name() string { return "panicky-table" }

func (p panickyTable) ReadVersions(versions []string) engine.VersionTable {
	return panickyVersionTable{p.Cargo.ReadVersions(versions)}
}

type panickyVersionTable struct{ engine.VersionTable }

func (t panickyVersionTable) Compile(c string) (engine.TableMatcher, error) {
	if strings.Contains(c, "-") {
		panic("compile")
	}
	m, err := t.VersionTable.Compile(c)
	if err != nil {
		return nil, err
	}
	return panickyMatcher{m, strings.Contains(c, "~>")}, nil
}

type panickyMatcher struct {
	engine.TableMatcher
	panics bool
}

func (m panickyMatcher) Verdicts(out []engine.Verdict) {
	if m.panics {
		panic("verdicts")
	}
	m.TableMatcher.Verdicts(out)
}

// With every registered policy and one whose table panics,
// decideCauses gives every class CauseOf's cause on its witness, whether
// the steps are judged on the tables, on text for a table that panics,
// or on text for a version the tables did not read.
func TestDecideCausesEqualsCauseOf(t *testing.T) {
	pols := append(catalogue.New().All(), panickyTable{})
	witnesses := [][2]string{
		{">= 1.0.0-beta, < 1.0.0", "1.0.0-beta.2"},
		{"~> 1.2", "1.3.0-rc.1"},
		{"~> v1.2.0", "v1.2.5-alpha+build.1"},
		{">= 1.0", "2.0.0-beta"},
		{"= 1.2.3-rc.1", "1.2.3-rc.1"},
		{"< 2.0.0-alpha.10", "2.0.0-alpha.9"},
	}
	var classes []Class
	for _, w := range witnesses {
		for a := range pols {
			for b := a + 1; b < len(pols); b++ {
				va := engine.Evaluate(pols[a], w[0], w[1]).Verdict
				vb := engine.Evaluate(pols[b], w[0], w[1]).Verdict
				if va == vb {
					continue // no class
				}
				classes = append(classes, Class{A: pols[a].Name(), B: pols[b].Name(),
					Witness: Witness{Constraint: w[0], Version: w[1], AVerdict: va, BVerdict: vb}})
			}
		}
	}
	if len(classes) < 100 {
		t.Fatalf("only %d classes", len(classes))
	}
	if tablesOf(witnesses, pols) == nil {
		t.Fatal("no cause tables for a handful of witnesses")
	}
	for _, workers := range []int{1, 2} {
		got := append([]Class(nil), classes...)
		decideCauses(got, pols, workers)
		byName := map[string]engine.Policy{}
		for _, p := range pols {
			byName[p.Name()] = p
		}
		for _, c := range got {
			w := c.Witness
			want := CauseOf(byName[c.A], byName[c.B], w.Constraint, w.Version)
			if c.Cause != want {
				t.Errorf("workers %d: %s vs %s on (%q, %q): cause %q, CauseOf %q", workers, c.A, c.B, w.Constraint, w.Version, c.Cause, want)
			}
		}
	}
}

// A cause table judges a version it did not read on text.
func TestCauseTablesVersionNotRead(t *testing.T) {
	// The prerelease step judges ">= 1.0.0" on "1.2.0".
	tables := tablesOf([][2]string{{">= 1.0.0-beta", "1.2.0-rc.1"}}, []engine.Policy{policies.Cargo{}})
	if tables == nil {
		t.Fatal("no cause tables")
	}
	if v, ok := tables.verdict(0, ">= 1.0.0", 0, tables.at("1.2.0")); !ok || v != engine.Allow {
		t.Errorf("verdict on a version read = %v, %v; want allow, true", v, ok)
	}
	if _, ok := tables.verdict(0, ">= 1.0.0", 0, tables.at("9.9.9")); ok {
		t.Error("a version not read was judged on the table")
	}
}

// tablesOf is the cause tables of the steps of the witnesses.
func tablesOf(witnesses [][2]string, pols []engine.Policy) *causeTables {
	steps := stepsOf(witnesses)
	numbers, _ := numberConstraints(steps)
	return newCauseTables(steps, numbers, nil, pols, 2)
}

// stepsOf is the counterfactuals of each witness.
func stepsOf(witnesses [][2]string) [][]counterfactual {
	out := make([][]counterfactual, len(witnesses))
	for i, w := range witnesses {
		out[i] = counterfactuals(w[0], w[1])
	}
	return out
}

// decideCauses sets the cause of every class (decideWitnessCauses), of
// the policies its A and B name.
func decideCauses(classes []Class, policies []engine.Policy, workers int) {
	witnesses, classesOf, _ := classWitnesses(classes, workers)
	decideWitnessCauses(classes, sidesByName(classes, policies), witnesses, classesOf, policies, workers, nil)
}

// sidesByName is the policies (their indexes) of each class that A and B
// name, -1 for a name not among policies.
func sidesByName(classes []Class, policies []engine.Policy) [][2]int32 {
	index := make(map[string]int32, len(policies))
	for i, p := range policies {
		index[p.Name()] = int32(i)
	}
	of := func(name string) int32 {
		if i, ok := index[name]; ok {
			return i
		}
		return -1
	}
	sides := make([][2]int32, len(classes))
	for i := range classes {
		sides[i] = [2]int32{of(classes[i].A), of(classes[i].B)}
	}
	return sides
}

// The cause tables are made only when the vectors of every policy on
// every constraint they would judge fit in causeVectorBytes.
func TestCauseTablesBounded(t *testing.T) {
	// 1,024 constraints, each judged on 32 of 2,048 versions: the
	// vectors of 16 policies would take 32 MiB and more.
	steps := make([][]counterfactual, 1024)
	for i := range steps {
		var cases [][2]string
		for j := range 32 {
			cases = append(cases, [2]string{fmt.Sprintf(">= 0.%d.0", i), fmt.Sprintf("1.%d.0", (i*32+j)%2048)})
		}
		steps[i] = []counterfactual{{CausePrerelease, cases}}
	}
	numbers, _ := numberConstraints(steps)
	for _, tt := range []struct {
		policies int
		made     bool
	}{{8, true}, {16, false}} {
		pols := make([]engine.Policy, tt.policies)
		for i := range pols {
			pols[i] = policies.Cargo{}
		}
		if got := newCauseTables(steps, numbers, nil, pols, 2) != nil; got != tt.made {
			t.Errorf("%d policies: tables made %v, want %v", tt.policies, got, tt.made)
		}
	}
}
