package compare

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
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

// RunPartial runs one shard of d, Options.Shard (the whole domain, as
// shard 1/1, when it is zero), and returns its partial report: what Run
// keeps of the shard's cases, before the report is built from it.
// A Merger and Partial.Report combine the partial reports of the shards into
// the report Run would have made of the whole domain, exactly.
//
// RunPartial judges the groups of its shard only; Options.Progress sees
// the shard's cases, with an estimate of their number as the total until
// the last call, whose total is the count. It fails as Run does; the
// domain must still yield every case it announced.
func RunPartial(ctx context.Context, d Domain, policies []engine.Policy, opt Options) (*Partial, error) {
	if opt.Shard == (Shard{}) {
		opt.Shard = Shard{K: 1, N: 1}
	}
	if err := opt.Shard.check(); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	if d == nil {
		return nil, fmt.Errorf("compare: no domain")
	}
	sr := &shardRun{shard: opt.Shard, info: d.Info(), policies: policies, opt: opt}
	opt.shard = sr
	if progress := opt.Progress; progress != nil {
		estimate := (sr.info.Cases + int64(opt.Shard.N) - 1) / int64(opt.Shard.N)
		opt.Progress = func(done, _ int64) { progress(done, max(estimate, done+1)) }
		defer func() {
			if sr.partial != nil {
				progress(sr.partial.agg.cases, sr.partial.agg.cases)
			}
		}()
	}
	if _, err := Run(ctx, d, policies, opt); err != nil {
		return nil, err
	}
	if sr.partial == nil {
		return nil, errors.New("compare: the sharded run made no partial report")
	}
	return sr.partial, nil
}

// shardRun is the state of a sharded run: Run calls owns for every group
// the domain yields, and finish with the aggregate instead of building a
// report.
type shardRun struct {
	shard    Shard
	info     DomainInfo
	policies []engine.Policy
	opt      Options

	index   int64      // of the next group
	yielded int64      // cases the domain yielded, the shard's or not
	owned   [][2]int64 // the shard's cases: [start, end) offsets, in order
	partial *Partial
}

// checkShard refuses Options.Shard in a run that is not RunPartial's.
func (o *Options) checkShard() error {
	if o.Shard != (Shard{}) && o.shard == nil {
		return errors.New("compare: Options.Shard is set: a shard makes a partial report, with RunPartial")
	}
	return nil
}

// owns reports whether the group of n cases that starts at offset belongs
// to the shard, and counts it. A nil shardRun (a run that is not sharded)
// owns every group. Run calls it from one goroutine, in the domain's order.
func (s *shardRun) owns(offset int64, n int) bool {
	if s == nil {
		return true
	}
	i := s.index
	s.index++
	s.yielded += int64(n)
	if i%int64(s.shard.N) != int64(s.shard.K-1) {
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

// finish keeps the aggregate of the shard's cases, and their verdicts,
// as the run's partial report.
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
		return fmt.Errorf("compare: shard %s judged %s of its %s", s.shard,
			plural.Of(agg.cases, "case", "cases"), plural.Of(owned, "case", "cases"))
	}
	names := make([]string, len(s.policies))
	for i, p := range s.policies {
		names[i] = p.Name()
	}
	pairs := len(pairIndexes(len(names)))
	p := &Partial{
		info:       s.info,
		policies:   names,
		n:          s.shard.N,
		shards:     []int{s.shard.K},
		reference:  referenceOf(s.opt.Reference, names),
		rank:       s.opt.Rank,
		relevance:  s.opt.Relevance,
		classLimit: ClassesPerPair(pairs),
		splitLimit: maxSplits,
		agg:        agg,
		prints:     fingerprints(s.policies),
	}
	if p.rank == "" {
		p.rank = RankRelevance
	}
	if vs := log.verdicts(names, s.info.Cases); vs != nil {
		p.verdicts = make([][]byte, len(names))
		for i, name := range names {
			p.verdicts[i] = markAbsent(vs[name], s.owned)
		}
	}
	s.partial = p
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
