package shard

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
)

// mergeReport combines the partial reports of every shard of a run into the
// report of the whole run: mergePartials, then Partial.Report. The report
// is the one compare.Run makes of the whole domain, byte for byte in every
// format.
func mergeReport(ctx context.Context, policies []engine.Policy, parts ...*Partial) (*compare.Report, error) {
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
		only.witnesses = nil
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
	first *Partial       // what every part must match: the first one added, its aggregate emptied
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
	if m.out != nil {
		if c, ok := m.out.agg.Overlap(p.agg); ok {
			return fmt.Errorf("compare: %s and another partial report both judged case %d", p.name(), c)
		}
	}
	if m.out == nil {
		first := *p
		first.agg = p.agg.Empty(0) // its caps and whether it records verdicts, as compatible asks
		first.witnesses = nil
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
			agg:        p.agg.Empty(p.info.Cases),
		}
	} else {
		m.out.source = ""
		if p.shards[0] < m.out.shards[0] {
			m.out.DomainArgs = p.DomainArgs // that of the part with the first shard
		}
	}
	if err := m.out.agg.Add(p.agg); err != nil {
		return err
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
	if m.out.agg.Cases() > m.out.info.Cases {
		return nil, fmt.Errorf("compare: %s count %d cases together, more than the %d of the domain", shardList(m.out.heldShards()), m.out.agg.Cases(), m.out.info.Cases)
	}
	out := *m.out
	return &out, nil
}

// compatible fails when b is not a partial report of the same run as a.
func compatible(a, b *Partial) error {
	other := func(what, ofA, ofB string) error {
		return fmt.Errorf("compare: %s and %s are not shards of one run: %s\n  %s: %s\n  %s: %s",
			a.name(), b.name(), what, a.name(), quote(ofA), b.name(), quote(ofB))
	}
	switch {
	case a.info != b.info:
		describe := func(i compare.DomainInfo) string {
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
		describe := func(t *compare.RelevanceTable) string {
			if t == nil {
				return "no relevance table"
			}
			return fmt.Sprintf("%s (%d constraints)", t.Source, t.Total())
		}
		return other("they rank by other relevance tables", describe(a.relevance), describe(b.relevance))
	case !sameLimits(a.agg, b.agg):
		describe := func(p *Partial) string {
			classes, splits := p.agg.Limits()
			return fmt.Sprintf("%d classes per pair, %d splits", classes, splits)
		}
		return other("they keep other numbers of classes and splits", describe(a), describe(b))
	case a.agg.RecordsVerdicts() != b.agg.RecordsVerdicts():
		describe := func(p *Partial) string {
			if !p.agg.RecordsVerdicts() {
				return "no verdicts"
			}
			return "every verdict"
		}
		return other("one recorded every verdict and the other did not", describe(a), describe(b))
	}
	return nil
}

// sameLimits reports whether two aggregates keep within the same caps.
func sameLimits(a, b *compare.Aggregate) bool {
	ac, as := a.Limits()
	bc, bs := b.Limits()
	return ac == bc && as == bs
}

// Report builds the report of the whole run from a partial report that
// holds every shard, with the policies the shards ran, given in the same
// order, exactly as Run builds it: the same report, in every format, as
// Run on the whole domain. It fails when a shard is missing, and when a
// policy is not the one the shards ran: one whose name differs, or that
// judges a recorded witness otherwise than the shards recorded.
func (p *Partial) Report(ctx context.Context, policies []engine.Policy) (*compare.Report, error) {
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
	if p.agg.Cases() != p.info.Cases {
		return nil, fmt.Errorf("compare: the shards of %s judged %s of the %d of the domain", p.name(),
			plural.Of(p.agg.Cases(), "case", "cases"), p.info.Cases)
	}
	if err := compare.CheckPolicies(policies); err != nil {
		return nil, err
	}
	names := make([]string, len(policies))
	for i, pol := range policies {
		names[i] = pol.Name()
	}
	if !slices.Equal(names, p.policies) {
		return nil, fmt.Errorf("compare: %s compares the policies %s, in this order; the policies given are %s",
			p.name(), quote(strings.Join(p.policies, ", ")), quote(strings.Join(names, ", ")))
	}
	for i, print := range fingerprints(policies) {
		if print != p.prints[i] {
			return nil, fmt.Errorf("compare: the policy %s is not the policy of that name the shards ran: it judges prerel's probe cases otherwise",
				names[i])
		}
	}
	if err := checkWitnesses(ctx, p.name(), p.agg, policies); err != nil {
		return nil, err
	}
	opt := compare.Options{Reference: p.reference, Rank: p.rank, Relevance: p.relevance}
	return p.agg.Report(ctx, p.name(), p.info, policies, opt)
}
