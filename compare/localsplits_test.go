package compare

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
)

// splitVersions is a list of versions with prereleases, build metadata,
// "v" prefixes and text no policy reads, so that the policies of the
// catalogue split it many ways.
var splitVersions = []string{
	"0.9.0", "1.0.0-alpha", "1.0.0-beta.2", "1.0.0", "1.0.1+build.5",
	"v1.2.0", "1.2.0-rc.1", "1.2.3", "1.3.0-rc.1", "2.0.0-beta.1",
	"2.0.0", "2.1.0", "v2.1.0-pre", "3.0.0", "1.2", "latest", "01.2.3",
	"1.2.3.4", "2.0.0-0", "1.1.1-x.7.z.92",
}

// splitConstraints are constraints the policies judge, refuse, or some of
// them refuse.
var splitConstraints = []string{
	">= 1.0.0-beta, < 2.0.0", "~> 1.2", "~> 1.0", ">= v1.0.0, < 2.0.0-rc.1",
	"= 1.2.3", "!= 1.0.0", "> 1.0, <= 2.1.0", "1.2.3", "", ">= 1.0.0 < 2.0.0",
	"~> 1.2.0-beta", "^1.2", "< 2.0.0-0",
}

// fileGroup has w judge constraint against versions and file its local
// splits, on the string keys when strings is set, and returns them.
func fileGroup(w *worker, constraint string, versions []string, strings bool) []localSplit {
	g := Group{Constraint: constraint, Versions: versions}
	w.list = w.lists.get(versions)
	odd := w.judge(g)
	w.countPairs(len(versions), odd)
	ci := newConstraintInfo(constraint)
	// The string keys are those of a group with a verdict none of the
	// three: filing them as if it were odd takes them.
	w.fileLocalSplits(&ci, odd || strings)
	return append([]localSplit(nil), w.local...)
}

// The local splits filed by their packed keys are those filed by string
// keys: the same shapes, verdicts, counts and witnesses, in the same
// order, and one for each shape and verdict vector of the diverging
// versions.
func TestPackedSplitKeys(t *testing.T) {
	pols := catalogue.New().All()
	if len(pols) > maxPackedPolicies {
		pols = pols[:maxPackedPolicies]
	}
	w := newWorker(0, pols, allPairs(len(pols)), newSharedAggregate(len(pols)*(len(pols)-1)/2, 1))
	for _, c := range splitConstraints {
		packed := fileGroup(w, c, splitVersions, false)
		if len(w.packed) != len(packed) {
			t.Errorf("%q: %d packed keys for %d local splits", c, len(w.packed), len(packed))
		}
		byString := fileGroup(w, c, splitVersions, true)
		if !reflect.DeepEqual(packed, byString) {
			t.Errorf("%q: local splits by packed keys\n%+v\nby string keys\n%+v", c, packed, byString)
		}
		// Every diverging version is in the split of its shape and
		// verdicts.
		seen := map[string]int64{}
		for i := range splitVersions {
			if w.diverged[i>>6]>>(i&63)&1 == 0 {
				continue
			}
			seen[w.shapes.shapes[w.shapes.shapeID(w.list.info(i))]+"|"+w.verdictsAt(i)]++
		}
		if len(seen) != len(packed) {
			t.Errorf("%q: %d local splits, want %d", c, len(packed), len(seen))
		}
		for _, s := range packed {
			if n := seen[w.shapes.shapes[s.shape]+"|"+s.verdicts]; n != s.count {
				t.Errorf("%q: split %q %v counts %d, want %d", c, w.shapes.shapes[s.shape], []byte(s.verdicts), s.count, n)
			}
		}
	}
}

// allPairs is every pair of n policies.
func allPairs(n int) [][2]int {
	var out [][2]int
	for a := range n {
		for b := a + 1; b < n; b++ {
			out = append(out, [2]int{a, b})
		}
	}
	return out
}

// What a policy refuses of a constraint, comparator by comparator, is
// the same compiled through its table of versions as through its
// Compile.
func TestRefusedConstraintThroughTable(t *testing.T) {
	for _, p := range catalogue.New().All() {
		table := engine.ReadVersions(p, splitVersions)
		for _, c := range splitConstraints {
			if _, err := table.Compile(c); err == nil {
				continue
			}
			ci := newConstraintInfo(c)
			spaced := operatorSpacing(&ci, nil)
			got := refusedConstraint(tableCompiles(table), &ci, spaced)
			if want := refusedConstraint(policyCompiles(p), &ci, spaced); got != want {
				t.Errorf("%s refuses %q: %q through its table, %q through Compile", p.Name(), c, got, want)
			}
		}
	}
}

// A shape known from an earlier group is the shape of a later group only
// for the same comparators: the template numbers keep them apart, also
// once the known shapes are forgotten.
func TestKnownShapesByTemplate(t *testing.T) {
	var g groupShapes
	vi := newVersionInfo("1.2.0")
	for round := range 2 {
		for _, c := range []string{">= 1.0.0", "> 1.0.0", ">=1.0.0", ">= 1.0.0", "<= 1.0.0", "> 1.0.0"} {
			ci := newConstraintInfo(c)
			g.reset(&ci)
			if got, want := g.shapeOf(&vi), caseShape(c, "1.2.0"); got != want {
				t.Errorf("round %d: shape of %q = %q, want %q", round, c, got, want)
			}
		}
		if len(g.templates) != 4 {
			t.Errorf("round %d: %d templates, want 4", round, len(g.templates))
		}
		// Past the bound, the known shapes are forgotten.
		for i := len(g.templates); i < maxKnownShapes; i++ {
			g.templates["t"+strconv.Itoa(i)] = uint32(i)
		}
	}
}
