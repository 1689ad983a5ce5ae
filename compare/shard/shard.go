package shard

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// maxShards is the largest number of shards a run can be split into.
const maxShards = 10_000

// Shard names one of N disjoint parts of a domain: the K-th, counting from
// 1. The zero Shard is the whole domain.
//
// The groups of a domain are dealt out by their index in the order the
// domain yields them: shard K of N takes the groups whose index modulo N
// is K-1. Every shard walks the whole domain and judges its own groups
// only, so that the cases keep their offsets in the whole domain.
type Shard struct {
	K, N int
}

// ParseShard reads a shard written "K/N", with 1 <= K <= N <= 10,000.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: expected K/N, such as 2/5 for the second of five shards", s)
	}
	ki, kerr := strconv.Atoi(k)
	ni, nerr := strconv.Atoi(n)
	if kerr != nil || nerr != nil {
		return Shard{}, fmt.Errorf("shard %q: expected K/N with two whole numbers, such as 2/5", s)
	}
	sh := Shard{K: ki, N: ni}
	if err := sh.check(); err != nil {
		return Shard{}, err
	}
	return sh, nil
}

// String writes the shard as "K/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// check fails unless 1 <= K <= N <= maxShards.
func (s Shard) check() error {
	switch {
	case s.N < 1 || s.N > maxShards:
		return fmt.Errorf("shard %s: the number of shards must be from 1 to %d", s, maxShards)
	case s.K < 1 || s.K > s.N:
		return fmt.Errorf("shard %s: the shard must be from 1 to %d", s, s.N)
	}
	return nil
}

// owns reports whether the group of the given index, in the order the
// domain yields them, belongs to the shard.
func (s Shard) owns(index int64) bool { return index%int64(s.N) == int64(s.K-1) }

// RunPartial runs shard sh of d (the whole domain, as shard 1/1, when it
// is zero) with compare.RunGroups, and returns its partial report: what
// compare.Run keeps of the shard's cases, before the report is built from
// it. A Merger and Partial.Report combine the partial reports of the
// shards into the report compare.Run would have made of the whole domain,
// exactly.
//
// RunPartial judges the groups of its shard only; Options.Progress sees
// the shard's cases, with an estimate of their number as the total until
// the last call, whose total is the count. It fails as compare.Run does;
// the domain must still yield every case it announced.
func RunPartial(ctx context.Context, d compare.Domain, policies []engine.Policy, opt compare.Options, sh Shard) (*Partial, error) {
	if sh == (Shard{}) {
		sh = Shard{K: 1, N: 1}
	}
	if err := sh.check(); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	if d == nil {
		return nil, fmt.Errorf("compare: no domain")
	}
	info := d.Info()
	var agg *compare.Aggregate
	if progress := opt.Progress; progress != nil {
		estimate := (info.Cases + int64(sh.N) - 1) / int64(sh.N)
		opt.Progress = func(done, _ int64) { progress(done, max(estimate, done+1)) }
		defer func() {
			if agg != nil {
				progress(agg.Cases(), agg.Cases())
			}
		}()
	}
	agg, err := compare.RunGroups(ctx, d, policies, opt, sh.owns)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(policies))
	for i, p := range policies {
		names[i] = p.Name()
	}
	p := &Partial{
		info:      info,
		policies:  names,
		n:         sh.N,
		shards:    []int{sh.K},
		reference: referenceOf(opt.Reference, names),
		rank:      opt.Rank,
		relevance: opt.Relevance,
		agg:       agg,
		prints:    fingerprints(policies),
	}
	if p.rank == "" {
		p.rank = compare.RankRelevance
	}
	return p, nil
}

// referenceOf is the reference a report of the policies names compares
// with: ref, or compare.DefaultReference when it is among them, else the
// first.
func referenceOf(ref string, names []string) string {
	if ref != "" {
		return ref
	}
	if slices.Contains(names, compare.DefaultReference) {
		return compare.DefaultReference
	}
	return names[0]
}
