package compare

import (
	"fmt"
	"runtime/debug"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
)

// worker judges groups and adds what it sees to the run's aggregate,
// which the workers of a run share.
//
// A group is judged policy by policy on the fast path of engine/table.go:
// the worker reads each list of versions once per policy
// (engine.ReadVersions, cached per list), compiles the group's constraint
// once per policy against it, and has the whole list judged into a vector
// of verdicts. Each vector is kept as two bit planes (bit 0 and bit 1 of
// every verdict), so that the agreement of a pair on the whole group is a
// few word operations: an exclusive or and a population count. Only the
// versions where the policies do not all agree go on: each is filed under
// its local split, the pair of its case shape and its verdict vector, and
// the splits and their witnesses are then updated once per local split,
// not once per case. Each stripe of pairs keeps an index of the local
// splits' vectors, which adds up the local splits of each vector
// (vectorEntry); the index reaches the classes of its pairs when it is
// emptied or the run is over, pair by pair, each pair's classes summed
// over every vector before they are added to (classStripe.flush). A class
// keeps its witness's verdicts; the policies' reasons are fetched once the
// run is over, for the witnesses that remain (fillReasons).
//
// Judging and filing need no lock. The worker then holds the aggregate's
// lock to add the group's cases, splits and selections, and the lock of
// each stripe of pairs in turn, starting from a stripe of its own and
// leaving a stripe another worker holds for last, to add the pairs'
// counts and the local splits, so that the workers seldom wait for one
// another.
type worker struct {
	id       int // the worker's number in the run
	policies []engine.Policy
	pairs    [][2]int
	shared   *sharedAggregate
	log      *verdictLog
	lists    listCache

	// the group being judged, step by step: its list of versions, then
	// what each step works out of it for the next (judge.go,
	// localsplits.go, selection.go, classes.go)
	list *versionList
	judging
	filing
	selecting
	numbering
	key []byte // scratch for the keys of filing, numbering and pick

	// where the worker is, for the error when a policy panics
	policy  int
	version string
	stack   []byte
}

func newWorker(id int, policies []engine.Policy, pairs [][2]int, shared *sharedAggregate) *worker {
	return &worker{
		id:       id,
		policies: policies,
		pairs:    pairs,
		shared:   shared,
		lists:    listCache{policies: len(policies)},
		judging: judging{
			errs:     make([]error, len(policies)),
			verdicts: make([][]engine.Verdict, len(policies)),
			lo:       make([][]uint64, len(policies)),
			hi:       make([][]uint64, len(policies)),
			diverge:  make([]int64, len(pairs)),
		},
		filing:    filing{refused: make([]string, len(policies)), splits: map[string]int32{}},
		numbering: numbering{refIDs: make([]uint32, len(policies))},
		selecting: selecting{picks: make([]string, len(policies))},
	}
}

// PanicError is Run's error when a policy panics: a bug in the policy,
// named with the case it panicked on.
type PanicError struct {
	Policy, Constraint, Version string
	// Value is what the policy panicked with, Stack the stack of the
	// goroutine that panicked.
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("compare: policy %q panicked on constraint %q, version %q: %v",
		e.Policy, elide.Head(e.Constraint, 200), elide.Head(e.Version, 200), e.Value)
}

// run judges one group with every policy and aggregates it. A panic in a
// policy becomes an error naming the policy and the case.
func (w *worker) run(g Group, offset int64) (err error) {
	w.stack = nil
	defer func() {
		if r := recover(); r != nil {
			stack := w.stack
			if stack == nil {
				stack = debug.Stack()
			}
			err = &PanicError{Policy: w.policies[w.policy].Name(), Constraint: g.Constraint, Version: w.version, Value: r, Stack: stack}
		}
	}()
	w.list = w.lists.get(g.Versions)
	odd := w.judge(g)
	for p := range w.policies {
		w.log.record(p, offset, len(g.Versions), w.lo[p], w.hi[p])
	}
	ci := newConstraintInfo(g.Constraint)
	w.countPairs(len(g.Versions), odd)
	w.fileLocalSplits(&ci, odd)
	w.prepareRefusals()
	if g.History != "" {
		w.pickAll(g)
	}
	w.aggregateGroup(&ci, g)
	w.aggregateStripes(len(g.Versions))
	return nil
}
