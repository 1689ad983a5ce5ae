package compare

import (
	"sync"

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
// (maxCauseWitnesses), name few enough versions (maxCauseVersions), and
// the steps judge enough cases for every constraint of theirs against
// every version (maxCauseSpread):
// in a domain whose cases are nearly all different, such as the random
// domain, every rewritten constraint is met with a handful of versions,
// and judging them one at a time on text is cheaper.
type causeTables struct {
	index  map[string]int32      // version -> its position in the tables
	tables []engine.VersionTable // per policy; nil: on text

	mu      sync.RWMutex
	vectors map[uint64]*causeVector // by vectorKey
	limit   int
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
	// causeVectorBytes bounds the verdicts the vectors keep; past it the
	// vectors are dropped and computed again when needed.
	causeVectorBytes = 32 << 20
	// maxCauseSpread bounds the verdicts the tables would work out for
	// each case the steps judge: every constraint against every version.
	maxCauseSpread = 64
)

// newCauseTables reads the versions the steps of the witnesses name, but
// those of cases read from the run's log (inRun[w][k] at least 0, for
// case k of steps[w]; nil for none), or returns nil when there are none,
// or too many, or when steps is nil (too many witnesses).
func newCauseTables(steps [][]counterfactual, inRun [][]int64, policies []engine.Policy, workers int) *causeTables {
	readers := false
	for _, p := range policies {
		if _, ok := p.(engine.VersionReader); ok {
			readers = true
		}
	}
	if steps == nil || !readers {
		return nil
	}
	index := map[string]int32{}
	var versions []string
	constraints := map[string]bool{}
	cases := 0
	for w, ws := range steps {
		k := 0
		for _, s := range ws {
			for _, c := range s.cases {
				if k++; inRun != nil && inRun[w][k-1] >= 0 {
					continue // read from the log
				}
				constraints[c[0]] = true
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
	if len(versions) == 0 || len(constraints)*len(versions) > maxCauseSpread*cases {
		return nil
	}
	t := &causeTables{index: index, tables: make([]engine.VersionTable, len(policies)),
		vectors: map[uint64]*causeVector{}, limit: max(causeVectorBytes/len(versions), 1)}
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

// vectorKey is the key of policy p's vector of the constraint numbered
// number (numberConstraints).
func vectorKey(p int, number int32) uint64 { return uint64(uint32(number))<<32 | uint64(uint32(p)) }

// verdict is policy p's verdict on constraint, numbered number
// (numberConstraints), and the version at position at of the tables
// (causeTables.at), and true, when the tables can give it; false when the
// case is to be judged on text, and for a number below 0. seen, when not
// nil, keeps the vectors its caller has used, at most limit/8 of them, so
// that the caller seldom takes the lock.
func (t *causeTables) verdict(p int, constraint string, number, at int32, seen map[uint64]*causeVector) (engine.Verdict, bool) {
	if t == nil || t.tables[p] == nil || at < 0 || number < 0 {
		return 0, false
	}
	k := vectorKey(p, number)
	vec, ok := seen[k]
	if !ok {
		vec = t.vector(k, p, constraint)
		if seen != nil {
			if len(seen) >= max(t.limit/8, 1) {
				clear(seen)
			}
			seen[k] = vec
		}
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

// vector is the verdicts of policy p, whose table is not nil, on
// constraint, whose vectorKey is k, judged the first time.
func (t *causeTables) vector(k uint64, p int, constraint string) *causeVector {
	t.mu.RLock()
	vec, ok := t.vectors[k]
	t.mu.RUnlock()
	if !ok {
		vec = t.judge(p, constraint)
		t.mu.Lock()
		if len(t.vectors) >= t.limit {
			clear(t.vectors)
		}
		t.vectors[k] = vec
		t.mu.Unlock()
	}
	return vec
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
