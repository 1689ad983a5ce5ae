package compare

import (
	"sync/atomic"

	"github.com/prerel/prerel/engine"
)

// causeTables judge the cases of the steps of CauseOf on the fast path:
// for each policy that is an engine.VersionReader, one table over every
// version the steps of the report's witnesses name, against which each
// rewritten constraint is compiled once and judged into a vector of
// verdicts. The verdicts are those of Compile and Match (VersionTable's
// contract); a case whose version is not in the tables, a policy that is
// not a VersionReader, and a constraint a table panicked on are judged on
// text as before.
//
// They are made only when the witnesses are few enough
// (maxCauseWitnesses), name few enough versions (maxCauseVersions), the
// vectors of every policy on every constraint, and the array that holds
// them, fit in causeVectorBytes,
// and the steps judge enough cases for every constraint of theirs against
// every version (maxCauseSpread):
// in a domain whose cases are nearly all different, such as the random
// domain, every rewritten constraint is met with a handful of versions,
// and judging them one at a time on text is cheaper.
type causeTables struct {
	index  map[string]int32      // version -> its position in the tables
	tables []engine.VersionTable // per policy; nil: on text

	// vectors are those judged so far, by constraint number and policy:
	// [number*len(tables)+policy]. Goroutines that need the same vector
	// at the same time may both judge it, to the same verdicts; they take
	// no lock.
	vectors []atomic.Pointer[causeVector]
}

// causeVector is one policy's verdicts of one constraint on every version
// of the tables; text is set when the table panicked, and the constraint
// is judged on text.
type causeVector struct {
	v    []engine.Verdict
	text bool
}

// Bounds of causeTables.
const (
	maxCauseWitnesses = 1 << 15
	maxCauseVersions  = 1 << 11
	// causeVectorBytes bounds the verdicts the vectors would keep were
	// every policy to judge every constraint, with the array of them.
	causeVectorBytes = 32 << 20
	// maxCauseSpread bounds the verdicts the tables would work out for
	// each case the steps judge: every constraint against every version.
	maxCauseSpread = 64
)

// newCauseTables reads the versions the steps of the witnesses name, but
// those of cases read from the run's log (inRun[w][k] at least 0, for
// case k of steps[w]; nil for none), or returns nil when there are none,
// or too many, or when steps is nil (too many witnesses). numbers are
// the numbers of the constraints of the cases (numberConstraints).
func newCauseTables(steps [][]counterfactual, numbers [][]int32, inRun [][]int64, policies []engine.Policy, workers int) *causeTables {
	readers := false
	for _, p := range policies {
		if _, ok := p.(engine.VersionReader); ok {
			readers = true
		}
	}
	if steps == nil || !readers {
		return nil
	}
	count := 0 // constraints numbered
	for _, ns := range numbers {
		for _, n := range ns {
			count = max(count, int(n)+1)
		}
	}
	index := map[string]int32{}
	var versions []string
	judged := make([]bool, count) // the constraints of the cases the tables judge
	constraints, cases := 0, 0
	for w, ws := range steps {
		k := 0
		for _, s := range ws {
			for _, c := range s.cases {
				if k++; inRun != nil && inRun[w][k-1] >= 0 {
					continue // read from the log
				}
				if n := numbers[w][k-1]; !judged[n] {
					judged[n] = true
					constraints++
				}
				cases++
				if _, ok := index[c[1]]; !ok {
					if len(versions) == maxCauseVersions {
						return nil
					}
					index[c[1]] = int32(len(versions))
					versions = append(versions, c[1])
				}
			}
		}
	}
	// The vectors' verdicts, and a pointer for each vector of every
	// constraint numbered.
	size := (constraints*len(versions) + count*8) * len(policies)
	if len(versions) == 0 || constraints*len(versions) > maxCauseSpread*cases || size > causeVectorBytes {
		return nil
	}
	t := &causeTables{index: index, tables: make([]engine.VersionTable, len(policies)),
		vectors: make([]atomic.Pointer[causeVector], count*len(policies))}
	parallel(len(policies), workers, func() func(int) {
		return func(p int) {
			if r, ok := policies[p].(engine.VersionReader); ok {
				t.tables[p] = readTable(r, versions)
			}
		}
	})
	return t
}

// readTable is r's table of versions, or nil when r panics or gives
// none.
func readTable(r engine.VersionReader, versions []string) (t engine.VersionTable) {
	defer func() {
		if recover() != nil {
			t = nil
		}
	}()
	if t = r.ReadVersions(versions); isNilValue(t) {
		return nil
	}
	return t
}

// verdict is policy p's verdict on constraint, numbered number
// (numberConstraints), and the version at position at of the tables
// (causeTables.at), and true, when the tables can give it; false when the
// case is to be judged on text, and for a number below 0.
func (t *causeTables) verdict(p int, constraint string, number, at int32) (engine.Verdict, bool) {
	if t == nil || t.tables[p] == nil || at < 0 || number < 0 {
		return 0, false
	}
	slot := &t.vectors[int(number)*len(t.tables)+p]
	vec := slot.Load()
	if vec == nil {
		vec = t.judge(p, constraint)
		slot.Store(vec)
	}
	if vec.text {
		return 0, false
	}
	return vec.v[at], true
}

// at is the position of version in the tables, or -1 when it is not in
// them or there are no tables.
func (t *causeTables) at(version string) int32 {
	if t == nil {
		return -1
	}
	if i, ok := t.index[version]; ok {
		return i
	}
	return -1
}

// judge compiles constraint against policy p's table and judges every
// version.
func (t *causeTables) judge(p int, constraint string) (vec *causeVector) {
	defer func() {
		if recover() != nil {
			vec = &causeVector{text: true}
		}
	}()
	vec = &causeVector{v: make([]engine.Verdict, len(t.index))}
	m, err := t.tables[p].Compile(constraint)
	if err != nil {
		for i := range vec.v {
			vec.v[i] = engine.Invalid
		}
		return vec
	}
	if isNilValue(m) {
		return &causeVector{text: true}
	}
	m.Verdicts(vec.v)
	return vec
}
