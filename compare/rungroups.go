package compare

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/prerel/prerel/compare/internal/caps"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/plural"
)

// verdictAbsent marks, in an Aggregate's verdicts, a case it did not judge.
const verdictAbsent = 3

// Aggregate is what a run keeps of the cases it judged, before it builds
// the report from them: the counts of each pair, the classes each pair
// kept with their counts and smallest witnesses and the smallest class
// the caps turned away, the splits likewise, the selection, the caps
// themselves and, when the run records them, every verdict by case offset
// (those of the cases it did not judge marked absent).
//
// RunGroups makes one of some of the groups of a domain, Add combines
// aggregates of disjoint groups, and Report builds from an aggregate of
// every case the report Run makes. Its JSON form, AggregateJSON, is the
// fields a partial report holds from "limits" to "verdicts".
type Aggregate struct {
	policies   []string // in run order
	classLimit int
	splitLimit int
	agg        *aggregate
	verdicts   [][]byte // by policy, one byte per case of the domain; nil when not recorded
}

// Cases is the number of cases the aggregate counts.
func (a *Aggregate) Cases() int64 { return a.agg.cases }

// Limits are the caps the aggregate keeps within: the classes per pair
// and the splits.
func (a *Aggregate) Limits() (classesPerPair, splits int) { return a.classLimit, a.splitLimit }

// RecordsVerdicts reports whether the aggregate holds every verdict of
// the cases it judged.
func (a *Aggregate) RecordsVerdicts() bool { return a.verdicts != nil }

// RunGroups judges the groups of d for which own is true, given the index
// of each group in the order d yields them (from 0), and returns what Run
// keeps of their cases. Every case keeps its offset in the whole domain.
// Options.Progress sees the cases of those groups only, against the
// domain's case count. It fails as Run does; the domain must still yield
// every case it announced.
func RunGroups(ctx context.Context, d Domain, policies []engine.Policy, opt Options, own func(index int64) bool) (*Aggregate, error) {
	if d == nil {
		return nil, fmt.Errorf("compare: no domain")
	}
	if own == nil {
		return nil, errors.New("compare: RunGroups needs the groups to judge")
	}
	sr := &shardRun{own: own, info: d.Info(), policies: policies}
	opt.shard = sr
	if _, err := Run(ctx, d, policies, opt); err != nil {
		return nil, err
	}
	if sr.out == nil {
		return nil, errors.New("compare: the run of some groups made no aggregate")
	}
	return sr.out, nil
}

// shardRun is the state of a run of some groups (RunGroups): Run calls
// owns for every group the domain yields, and finish with the aggregate
// instead of building a report.
type shardRun struct {
	own      func(index int64) bool
	info     DomainInfo
	policies []engine.Policy

	index   int64      // of the next group
	yielded int64      // cases the domain yielded, judged or not
	owned   [][2]int64 // the cases judged: [start, end) offsets, in order
	out     *Aggregate
}

// owns reports whether the group of n cases that starts at offset is to
// be judged, and counts it. A nil shardRun (a run of every group) owns
// every group. Run calls it from one goroutine, in the domain's order.
func (s *shardRun) owns(offset int64, n int) bool {
	if s == nil {
		return true
	}
	i := s.index
	s.index++
	s.yielded += int64(n)
	if !s.own(i) {
		return false
	}
	end := offset + int64(n)
	if k := len(s.owned); k > 0 && s.owned[k-1][1] == offset {
		s.owned[k-1][1] = end
	} else if n > 0 {
		s.owned = append(s.owned, [2]int64{offset, end})
	}
	return true
}

// finish keeps the aggregate of the cases judged, and their verdicts.
func (s *shardRun) finish(agg *aggregate, log *verdictLog) error {
	if s.yielded != s.info.Cases {
		return fmt.Errorf("compare: the domain %s yielded %s, but announced %d", s.info.Description,
			plural.Of(s.yielded, "case", "cases"), s.info.Cases)
	}
	var owned int64
	for _, r := range s.owned {
		owned += r[1] - r[0]
	}
	if agg.cases != owned {
		return fmt.Errorf("compare: the run judged %s of its %s", plural.Of(agg.cases, "case", "cases"),
			plural.Of(owned, "case", "cases"))
	}
	names := make([]string, len(s.policies))
	for i, p := range s.policies {
		names[i] = p.Name()
	}
	a := &Aggregate{
		policies:   names,
		classLimit: ClassesPerPair(len(pairIndexes(len(names)))),
		splitLimit: caps.Splits,
		agg:        agg,
	}
	if vs := log.verdicts(names, s.info.Cases); vs != nil {
		a.verdicts = make([][]byte, len(names))
		for i, name := range names {
			a.verdicts[i] = markAbsent(vs[name], s.owned)
		}
	}
	s.out = a
	return nil
}

// markAbsent sets to verdictAbsent every verdict of v outside the owned
// ranges, in place, and returns v.
func markAbsent(v []byte, owned [][2]int64) []byte {
	var at int64
	for _, r := range owned {
		for i := at; i < r[0]; i++ {
			v[i] = verdictAbsent
		}
		at = r[1]
	}
	for i := at; i < int64(len(v)); i++ {
		v[i] = verdictAbsent
	}
	return v
}

// Empty is an aggregate of no cases with the policies and caps of a,
// which records verdicts (all absent) when a does.
func (a *Aggregate) Empty(cases int64) *Aggregate {
	e := &Aggregate{
		policies:   a.policies,
		classLimit: a.classLimit,
		splitLimit: a.splitLimit,
		agg:        newSizedAggregate(len(a.agg.pairs), a.classLimit, a.splitLimit),
	}
	if a.verdicts != nil {
		e.verdicts = make([][]byte, len(a.policies))
		for i := range e.verdicts {
			e.verdicts[i] = bytes.Repeat([]byte{verdictAbsent}, int(cases))
		}
	}
	return e
}

// Overlap is the first case both a and o judged, by their verdicts; ok
// is false when they judged none in common or do not record verdicts.
func (a *Aggregate) Overlap(o *Aggregate) (offset int64, ok bool) {
	if a.verdicts == nil || o.verdicts == nil {
		return 0, false
	}
	for i, vs := range o.verdicts {
		for j, x := range vs {
			if x != verdictAbsent && a.verdicts[i][j] != verdictAbsent {
				return int64(j), true
			}
		}
	}
	return 0, false
}

// Add adds o, an aggregate of other cases of the same run, into a: the
// counts, the classes and splits (keeping the smallest witness of each,
// within the caps), the selection and the verdicts. It fails, with a
// unchanged, when o has other policies or caps, records verdicts when a
// does not or the other way round, or judged a case a judged.
func (a *Aggregate) Add(o *Aggregate) error {
	switch {
	case o == nil || o.agg == nil:
		return errors.New("compare: no aggregate to add")
	case !slices.Equal(a.policies, o.policies) || a.classLimit != o.classLimit || a.splitLimit != o.splitLimit ||
		(a.verdicts == nil) != (o.verdicts == nil):
		return errors.New("compare: the aggregates are not of one run")
	}
	if c, ok := a.Overlap(o); ok {
		return fmt.Errorf("compare: the aggregates both judged case %d", c)
	}
	a.agg.merge(o.agg)
	for i, vs := range o.verdicts {
		for j, x := range vs {
			if x != verdictAbsent {
				a.verdicts[i][j] = x
			}
		}
	}
	return nil
}

// CheckPolicies fails unless there are at least two policies, none nil,
// no two with one name: the policies Run accepts.
func CheckPolicies(policies []engine.Policy) error { return checkPolicies(policies) }

// Report builds the report of a run of the domain info with the policies
// (the aggregate's, in the same order) and the options that shape a
// report (Reference, Rank, Relevance), from an aggregate of every case of
// the domain: the report Run makes, exactly. It first judges every
// witness the aggregate keeps again, and fails when a policy gives
// another verdict than the aggregate records: it is not the policy of the
// run. It fails too when a verdict is missing; name is what its errors
// call the aggregate.
func (a *Aggregate) Report(ctx context.Context, name string, info DomainInfo, policies []engine.Policy, opt Options) (*Report, error) {
	if err := checkPolicies(policies); err != nil {
		return nil, err
	}
	names := make([]string, len(policies))
	for i, pol := range policies {
		names[i] = pol.Name()
	}
	if !slices.Equal(names, a.policies) {
		return nil, fmt.Errorf("compare: %s compares the policies %s, in this order; the policies given are %s",
			name, strings.Join(a.policies, ", "), strings.Join(names, ", "))
	}
	if err := a.checkWitnesses(ctx, name, policies); err != nil {
		return nil, err
	}
	opt = Options{Reference: opt.Reference, Rank: opt.Rank, Relevance: opt.Relevance}
	r := buildReport(info, policies, pairIndexes(len(policies)), a.agg, runtime.GOMAXPROCS(0), opt)
	if a.verdicts != nil {
		vs := make(map[string][]byte, len(names))
		for i, n := range names {
			if slices.Contains(a.verdicts[i], verdictAbsent) {
				return nil, fmt.Errorf("compare: %s lacks the verdicts of some cases", name)
			}
			vs[n] = a.verdicts[i]
		}
		r.verdicts = &runVerdicts{byName: vs}
	}
	return r, ctx.Err()
}

// checkWitnesses judges every witness the aggregate keeps (of classes
// and splits) with the policies, and fails when one gives another verdict
// than the aggregate records: it is not the policy of the run, and the
// report would mix the two.
func (a *Aggregate) checkWitnesses(ctx context.Context, name string, policies []engine.Policy) error {
	// want[constraint][version] is the verdict of each policy, -1 where
	// the aggregate records none.
	want := map[string]map[string][]int8{}
	expect := func(constraint, version string, policy int, v engine.Verdict) error {
		byVersion := want[constraint]
		if byVersion == nil {
			byVersion = map[string][]int8{}
			want[constraint] = byVersion
		}
		vs := byVersion[version]
		if vs == nil {
			vs = make([]int8, len(policies))
			for i := range vs {
				vs[i] = -1
			}
			byVersion[version] = vs
		}
		if vs[policy] >= 0 && vs[policy] != int8(v) {
			return fmt.Errorf("compare: %s records two verdicts of %s on constraint %q, version %q",
				name, policies[policy].Name(), elide.Head(constraint, 200), elide.Head(version, 200))
		}
		vs[policy] = int8(v)
		return nil
	}
	for k, pr := range pairIndexes(len(policies)) {
		var err error
		a.agg.pairs[k].classes.each(func(ck classKey, c *classAgg) {
			if err == nil {
				err = expect(c.key.constraint, c.key.version, pr[0], ck.a)
			}
			if err == nil {
				err = expect(c.key.constraint, c.key.version, pr[1], ck.b)
			}
		})
		if err != nil {
			return err
		}
	}
	var err error
	a.agg.splits.each(func(sk splitKey, s *splitAgg) {
		for i := 0; i < len(sk.verdicts) && err == nil; i++ {
			err = expect(s.key.constraint, s.key.version, i, engine.Verdict(sk.verdicts[i]))
		}
	})
	if err != nil {
		return err
	}
	constraints := slices.Collect(maps.Keys(want))
	sort.Strings(constraints)
	next := make(chan string)
	var mu sync.Mutex
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				if err := checkConstraint(policies, c, want[c]); err != nil {
					fail(err)
				}
			}
		}()
	}
	for _, c := range constraints {
		if ctx.Err() != nil {
			break
		}
		next <- c
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// A class where a policy refuses the case has a shape that policy
	// gives: its witness, judged again, must have its class's signature.
	// (Decoding checked the other classes' shapes, which need no policy.)
	for k, pr := range pairIndexes(len(policies)) {
		var err error
		a.agg.pairs[k].classes.each(func(ck classKey, c *classAgg) {
			if err != nil || ck.a != engine.Invalid && ck.b != engine.Invalid {
				return
			}
			want := joinSignature(ck.shape, ck.a, ck.b)
			if got := signatureOf(policies[pr[0]], policies[pr[1]], c.key.constraint, c.key.version); got != want {
				err = fmt.Errorf("compare: %s: %s vs %s: the witness of the class %q (constraint %q, version %q) has the signature %q: it is not a case of its class",
					name, policies[pr[0]].Name(), policies[pr[1]].Name(), elide.Head(want, 200),
					elide.Head(c.key.constraint, 200), elide.Head(c.key.version, 200), elide.Head(got, 200))
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkConstraint judges the recorded witnesses of one constraint with
// every policy that has a recorded verdict on them. A policy that panics
// is named with the case.
func checkConstraint(policies []engine.Policy, constraint string, byVersion map[string][]int8) (err error) {
	versions := slices.Collect(maps.Keys(byVersion))
	sort.Strings(versions)
	var policy engine.Policy
	var version string
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Policy: policy.Name(), Constraint: constraint, Version: version, Value: r, Stack: debug.Stack()}
		}
	}()
	for i, pol := range policies {
		policy, version = pol, ""
		var m engine.Matcher
		var cerr error
		compiled := false
		for _, v := range versions {
			w := byVersion[v][i]
			if w < 0 {
				continue
			}
			if !compiled {
				m, cerr = pol.Compile(constraint)
				compiled = true
			}
			version = v
			got := engine.Invalid
			if cerr == nil {
				got = m.Match(v).Verdict
			}
			if got != engine.Verdict(w) {
				return fmt.Errorf("compare: the policy %s judges constraint %q with version %q %s, where the shards recorded %s: it is not the policy the shards ran",
					pol.Name(), elide.Head(constraint, 200), elide.Head(v, 200), got, engine.Verdict(w))
			}
		}
	}
	return nil
}
