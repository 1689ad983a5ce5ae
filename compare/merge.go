package compare

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/plural"
)

// mergeReport combines the partial reports of every shard of a run into the
// report of the whole run: mergePartials, then Partial.Report. The report
// is the one Run makes of the whole domain, byte for byte in every
// format.
func mergeReport(ctx context.Context, policies []engine.Policy, parts ...*Partial) (*Report, error) {
	p, err := mergePartials(parts...)
	if err != nil {
		return nil, err
	}
	return p.Report(ctx, policies)
}

// mergePartials combines partial reports of disjoint shards of one run
// into the partial report of their shards together; the parts are not
// modified. Any number of shards may be merged, so that merging is
// associative: merging merged partial reports gives the partial report
// merging them all at once gives, and so does any order of the parts.
//
// It refuses, naming the partial reports (the files they were read from),
// parts of different runs: another domain (DomainInfo, so another scope,
// seed, count, pairing or file), other policies or another order of them,
// another reference, rank or relevance table, other caps, another number
// of shards; and a shard given twice. A Merger merges the same parts one
// at a time.
func mergePartials(parts ...*Partial) (*Partial, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("compare: no partial reports to merge")
	}
	for i, p := range parts {
		if p == nil || p.agg == nil {
			return nil, fmt.Errorf("compare: partial report %d of %d is nil", i+1, len(parts))
		}
	}
	sorted := slices.Clone(parts)
	slices.SortStableFunc(sorted, comparePartials)
	first := sorted[0]
	for _, p := range sorted[1:] {
		if err := compatible(first, p); err != nil {
			return nil, err
		}
	}
	if len(parts) == 1 {
		only := *first
		return &only, nil
	}
	var m Merger
	for _, p := range sorted {
		if err := m.Add(p); err != nil {
			return nil, err
		}
	}
	return m.Partial()
}

// A Merger merges partial reports one at a time into the partial report
// of their shards together, as mergePartials does, so that only the
// merged report and the part being added need be in memory: any number
// of shards merge in the memory of two. The parts are not modified, and
// the result does not depend on their order. The zero Merger is empty.
type Merger struct {
	out   *Partial
	first *Partial       // what every part must match: the first one added, without its aggregate and verdicts
	owner map[int]string // each shard added, and the name of the part that brought it
	parts int            // the parts offered, refused or not
}

// Add merges p. It refuses p, naming it and a part added before, when
// it is not a shard of the same run as those parts (see mergePartials),
// when it brings a shard already added, or when it judged a case a part
// added before judged; the merger is then as it was.
func (m *Merger) Add(p *Partial) error {
	m.parts++
	if p == nil || p.agg == nil {
		return fmt.Errorf("compare: partial report %d is nil", m.parts)
	}
	if m.first != nil {
		if err := compatible(m.first, p); err != nil {
			return err
		}
	}
	if err := m.checkShards(p); err != nil {
		return err
	}
	if m.out != nil && p.verdicts != nil {
		for i, vs := range p.verdicts {
			for j, x := range vs {
				if x != verdictAbsent && m.out.verdicts[i][j] != verdictAbsent {
					return fmt.Errorf("compare: %s and another partial report both judged case %d", p.name(), j)
				}
			}
		}
	}
	if m.out == nil {
		first := *p
		first.agg, first.verdicts = nil, nil
		if p.verdicts != nil {
			first.verdicts = [][]byte{} // recorded, as compatible asks
		}
		m.first = &first
		m.out = &Partial{
			source:     p.source, // one part is still called by its name
			DomainArgs: p.DomainArgs,
			info:       p.info,
			policies:   p.policies,
			prints:     p.prints,
			n:          p.n,
			reference:  p.reference,
			rank:       p.rank,
			relevance:  p.relevance,
			classLimit: p.classLimit,
			splitLimit: p.splitLimit,
			agg:        newSizedAggregate(len(p.agg.pairs), p.classLimit, p.splitLimit),
		}
		if p.verdicts != nil {
			m.out.verdicts = make([][]byte, len(p.policies))
			for i := range m.out.verdicts {
				m.out.verdicts[i] = bytes.Repeat([]byte{verdictAbsent}, int(p.info.Cases))
			}
		}
	} else {
		m.out.source = ""
		if p.shards[0] < m.out.shards[0] {
			m.out.DomainArgs = p.DomainArgs // that of the part with the first shard
		}
	}
	m.out.agg.merge(p.agg)
	for i, vs := range p.verdicts {
		for j, x := range vs {
			if x != verdictAbsent {
				m.out.verdicts[i][j] = x
			}
		}
	}
	m.noteShards(p)
	m.out.shards = slices.Sorted(maps.Keys(m.owner))
	return nil
}

// checkShards fails when p brings a shard already noted.
func (m *Merger) checkShards(p *Partial) error {
	for _, k := range p.shards {
		if name, ok := m.owner[k]; ok {
			return fmt.Errorf("compare: shard %s is given twice: in %s and in %s", Shard{k, p.n}, name, p.name())
		}
	}
	return nil
}

// noteShards notes the shards of p.
func (m *Merger) noteShards(p *Partial) {
	if m.owner == nil {
		m.owner = map[int]string{}
	}
	for _, k := range p.shards {
		m.owner[k] = p.name()
	}
}

// Partial returns the partial report of the parts added; the merger is
// not to be added to afterwards. It fails when no part was added, and
// when together they count more cases than the domain has.
func (m *Merger) Partial() (*Partial, error) {
	if m.out == nil {
		return nil, fmt.Errorf("compare: no partial reports to merge")
	}
	if m.out.agg.cases > m.out.info.Cases {
		return nil, fmt.Errorf("compare: %s count %d cases together, more than the %d of the domain", shardList(m.out.heldShards()), m.out.agg.cases, m.out.info.Cases)
	}
	out := *m.out
	return &out, nil
}

// compatible fails when b is not a partial report of the same run as a.
func compatible(a, b *Partial) error {
	other := func(what, ofA, ofB string) error {
		return fmt.Errorf("compare: %s and %s are not shards of one run: %s\n  %s: %s\n  %s: %s",
			a.name(), b.name(), what, a.name(), ofA, b.name(), ofB)
	}
	switch {
	case a.info != b.info:
		describe := func(i DomainInfo) string {
			s := fmt.Sprintf("%s (%s)", i.Description, plural.Of(i.Cases, "case", "cases"))
			if i.Digest != "" {
				s += ", " + i.Digest
			}
			return s
		}
		return other("they ran other domains (another domain, scope, seed, count, pairing or file)", describe(a.info), describe(b.info))
	case !slices.Equal(a.policies, b.policies):
		return other("they compare other policies, or the same in another order",
			strings.Join(a.policies, ", "), strings.Join(b.policies, ", "))
	case !slices.Equal(a.prints, b.prints):
		for i, name := range a.policies {
			if a.prints[i] != b.prints[i] {
				return other(fmt.Sprintf("they ran different policies named %s (which judge prerel's probe cases otherwise)", name),
					a.prints[i], b.prints[i])
			}
		}
	case a.n != b.n:
		return other("they split the run into different numbers of shards", shardList(a.heldShards()), shardList(b.heldShards()))
	case a.reference != b.reference:
		return other("they compare the policies with other references", a.reference, b.reference)
	case a.rank != b.rank:
		return other("they rank classes differently", string(a.rank), string(b.rank))
	case !sameRelevance(a.relevance, b.relevance):
		describe := func(t *RelevanceTable) string {
			if t == nil {
				return "no relevance table"
			}
			return fmt.Sprintf("%s (%d constraints)", t.Source, t.total)
		}
		return other("they rank by other relevance tables", describe(a.relevance), describe(b.relevance))
	case a.classLimit != b.classLimit || a.splitLimit != b.splitLimit:
		describe := func(p *Partial) string {
			return fmt.Sprintf("%d classes per pair, %d splits", p.classLimit, p.splitLimit)
		}
		return other("they keep other numbers of classes and splits", describe(a), describe(b))
	case (a.verdicts == nil) != (b.verdicts == nil):
		describe := func(p *Partial) string {
			if p.verdicts == nil {
				return "no verdicts"
			}
			return "every verdict"
		}
		return other("one recorded every verdict and the other did not", describe(a), describe(b))
	}
	return nil
}

// sameRelevance reports whether two relevance tables count alike.
func sameRelevance(a, b *RelevanceTable) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Source == b.Source && a.total == b.total && maps.Equal(a.counts, b.counts)
}

// Report builds the report of the whole run from a partial report that
// holds every shard, with the policies the shards ran, given in the same
// order, exactly as Run builds it: the same report, in every format, as
// Run on the whole domain. It fails when a shard is missing, and when a
// policy is not the one the shards ran: one whose name differs, or that
// judges a recorded witness otherwise than the shards recorded.
func (p *Partial) Report(ctx context.Context, policies []engine.Policy) (*Report, error) {
	if p == nil || p.agg == nil {
		return nil, fmt.Errorf("compare: no partial report")
	}
	if missing := p.missingShards(); len(missing) > 0 {
		verb := "is"
		if len(missing) > 1 {
			verb = "are"
		}
		holder := "the partial reports merged hold"
		if p.source != "" {
			holder = p.source + " holds"
		}
		return nil, fmt.Errorf("compare: %s %s missing: the report of the run needs all %d shards, and %s %s",
			shardList(missing), verb, p.n, holder, shardList(p.heldShards()))
	}
	if p.agg.cases != p.info.Cases {
		return nil, fmt.Errorf("compare: the shards of %s judged %s of the %d of the domain", p.name(),
			plural.Of(p.agg.cases, "case", "cases"), p.info.Cases)
	}
	if err := checkPolicies(policies); err != nil {
		return nil, err
	}
	names := make([]string, len(policies))
	for i, pol := range policies {
		names[i] = pol.Name()
	}
	if !slices.Equal(names, p.policies) {
		return nil, fmt.Errorf("compare: %s compares the policies %s, in this order; the policies given are %s",
			p.name(), strings.Join(p.policies, ", "), strings.Join(names, ", "))
	}
	for i, print := range fingerprints(policies) {
		if print != p.prints[i] {
			return nil, fmt.Errorf("compare: the policy %s is not the policy of that name the shards ran: it judges prerel's probe cases otherwise",
				names[i])
		}
	}
	if err := p.checkWitnesses(ctx, policies); err != nil {
		return nil, err
	}
	opt := Options{Reference: p.reference, Rank: p.rank, Relevance: p.relevance}
	r := buildReport(p.info, policies, pairIndexes(len(policies)), p.agg, runtime.GOMAXPROCS(0), opt)
	if p.verdicts != nil {
		vs := make(map[string][]byte, len(names))
		for i, name := range names {
			if slices.Contains(p.verdicts[i], verdictAbsent) {
				return nil, fmt.Errorf("compare: %s lacks the verdicts of some cases", p.name())
			}
			vs[name] = p.verdicts[i]
		}
		r.verdicts = &runVerdicts{byName: vs}
	}
	return r, ctx.Err()
}

// checkWitnesses judges every witness the partial report keeps (of
// classes and splits) with the policies, and fails when one gives
// another verdict than the shards recorded: it is not the policy the
// shards ran, and the report would mix the two.
func (p *Partial) checkWitnesses(ctx context.Context, policies []engine.Policy) error {
	// want[constraint][version] is the verdict of each policy, -1 where
	// the partial report records none.
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
				p.name(), policies[policy].Name(), elide.Head(constraint, 200), elide.Head(version, 200))
		}
		vs[policy] = int8(v)
		return nil
	}
	for k, pr := range pairIndexes(len(policies)) {
		var err error
		p.agg.pairs[k].classes.each(func(ck classKey, c *classAgg) {
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
	p.agg.splits.each(func(sk splitKey, s *splitAgg) {
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
				if err := p.checkConstraint(policies, c, want[c]); err != nil {
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
	return ctx.Err()
}

// checkConstraint judges the recorded witnesses of one constraint with
// every policy that has a recorded verdict on them. A policy that panics
// is named with the case.
func (p *Partial) checkConstraint(policies []engine.Policy, constraint string, byVersion map[string][]int8) (err error) {
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
