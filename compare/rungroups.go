package compare

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/prerel/prerel/compare/internal/caps"
	"github.com/prerel/prerel/engine"
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
// every case the report Run makes. Tally is what it holds in plain values,
// which NewAggregate takes back: compare/shard writes it in its partial
// reports.
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
// the domain: the report Run makes, exactly, when the policies are those
// of the run (compare/shard judges every kept witness again first). It
// fails when a verdict is missing; name is what its errors call the
// aggregate.
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
