package compare

import (
	"fmt"
	"runtime/debug"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
)

// worker judges groups and aggregates what it sees. Each worker of a run
// has its own, merged at the end.
type worker struct {
	policies []engine.Policy
	pairs    [][2]int
	matchers []engine.Matcher
	errs     []error
	results  [][]engine.Result // [policy][version of the group]
	agg      *aggregate
	shapes   groupShapes
	verdicts []byte // the verdict of each policy on one case
	log      *verdictLog

	// where the worker is, for the error when a policy panics
	policy  int
	version string
}

func newWorker(policies []engine.Policy, pairs [][2]int) *worker {
	return &worker{
		policies: policies,
		pairs:    pairs,
		matchers: make([]engine.Matcher, len(policies)),
		errs:     make([]error, len(policies)),
		results:  make([][]engine.Result, len(policies)),
		agg:      newAggregate(len(pairs)),
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
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Policy: w.policies[w.policy].Name(), Constraint: g.Constraint, Version: w.version, Value: r, Stack: debug.Stack()}
		}
	}()
	w.judge(g)
	for p := range w.policies {
		w.log.record(p, offset, w.results[p])
	}
	ci := newConstraintInfo(g.Constraint)
	w.aggregatePairs(&ci, g.Versions)
	if g.History != "" {
		w.aggregateSelection(&ci, g)
	}
	return nil
}

// judge fills w.results for the group, with one MatchAll call for a
// Matcher that is an engine.BatchMatcher.
func (w *worker) judge(g Group) {
	for p, pol := range w.policies {
		w.policy, w.version = p, ""
		if cap(w.results[p]) < len(g.Versions) {
			w.results[p] = make([]engine.Result, len(g.Versions))
		}
		res := w.results[p][:len(g.Versions)]
		w.results[p] = res
		m, err := pol.Compile(g.Constraint)
		w.matchers[p], w.errs[p] = m, err
		if err != nil {
			r := engine.InvalidResult(err)
			for i := range res {
				res[i] = r
			}
			continue
		}
		if bm, ok := m.(engine.BatchMatcher); ok {
			bm.MatchAll(g.Versions, res)
			continue
		}
		for i, v := range g.Versions {
			w.version = v
			res[i] = m.Match(v)
		}
	}
}

// aggregatePairs counts agreement per pair and classes the divergences.
func (w *worker) aggregatePairs(ci *constraintInfo, versions []string) {
	a := w.agg
	a.cases += int64(len(versions))
	w.shapes.reset(ci)
	for i, text := range versions {
		var vi versionInfo
		var key caseKey
		var shape string
		known := false
		diverged := false
		for k, pr := range w.pairs {
			ra, rb := w.results[pr[0]][i], w.results[pr[1]][i]
			if ra.Verdict == rb.Verdict {
				a.pairs[k].agree++
				continue
			}
			a.pairs[k].diverge++
			diverged = true
			if !known {
				vi = newVersionInfo(text)
				key = makeCaseKey(ci, &vi)
				known = true
			}
			var s string
			switch {
			case ra.Verdict == engine.Invalid:
				s = w.refusal(pr[0], &vi)
			case rb.Verdict == engine.Invalid:
				s = w.refusal(pr[1], &vi)
			default:
				if shape == "" {
					shape = w.shapes.shapeOf(&vi)
				}
				s = shape
			}
			a.pairs[k].add(classKey{s, ra.Verdict, rb.Verdict}, key, ra, rb)
		}
		if diverged {
			if shape == "" {
				shape = w.shapes.shapeOf(&vi)
			}
			w.verdicts = w.verdicts[:0]
			for p := range w.policies {
				w.verdicts = append(w.verdicts, byte(w.results[p][i].Verdict))
			}
			a.addSplit(shape, w.verdicts, key)
		}
	}
}

// refusal is the case part of the signature of a case that policy p
// judged Invalid.
func (w *worker) refusal(p int, vi *versionInfo) string {
	w.policy = p
	return w.shapes.refusal(w.policies[p], w.errs[p] != nil, vi)
}
