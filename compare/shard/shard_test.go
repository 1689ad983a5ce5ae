package shard

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/internal/caps"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// sliceDomain is a fixed domain for the shard tests.
type sliceDomain struct {
	name   string
	groups []compare.Group
}

func (d sliceDomain) Info() compare.DomainInfo {
	var n int64
	for _, g := range d.groups {
		n += int64(len(g.Versions))
	}
	return compare.DomainInfo{Name: "list", Description: "test list " + d.name, Cases: n}
}

func (d sliceDomain) Groups(yield func(compare.Group) bool) error {
	for _, g := range d.groups {
		if !yield(g) {
			return nil
		}
	}
	return nil
}

func resolvePolicies(t testing.TB, names ...string) []engine.Policy {
	t.Helper()
	ps, err := catalogue.New().Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func exhaustiveDomain(t testing.TB, scope int) compare.Domain {
	t.Helper()
	d, err := compare.Exhaustive(scope)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// roundTrip writes p as JSON and reads it back, as prerel merge reads the
// files prerel compare --shard writes.
func roundTrip(t testing.TB, p *Partial, name string) *Partial {
	t.Helper()
	var buf bytes.Buffer
	if err := p.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := decodePartialFrom(&buf, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return q
}

// runShards runs the n shards of d and returns their partial reports, each
// read back from its JSON.
func runShards(t testing.TB, d compare.Domain, ps []engine.Policy, opt compare.Options, n int) []*Partial {
	t.Helper()
	parts := make([]*Partial, n)
	for k := 1; k <= n; k++ {
		p, err := RunPartial(context.Background(), d, ps, opt, Shard{K: k, N: n})
		if err != nil {
			t.Fatalf("shard %d/%d: %v", k, n, err)
		}
		parts[k-1] = roundTrip(t, p, fmt.Sprintf("shard-%d-of-%d.json", k, n))
	}
	return parts
}

// rendered is a report in the forms that must match: JSON and the
// baseline. The text report is made from what the JSON holds.
type rendered struct{ json, baseline []byte }

func render(t testing.TB, r *compare.Report) rendered {
	t.Helper()
	var out rendered
	var j, base bytes.Buffer
	if err := r.WriteJSON(&j); err != nil {
		t.Fatal(err)
	}
	base.Write(baselineJSON(t, r))
	out.json, out.baseline = j.Bytes(), base.Bytes()
	return out
}

// sameBytes fails the test, with the first line where got and want
// differ, when they differ.
func sameBytes(t testing.TB, what string, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("%s differs at line %d (%d bytes, want %d):\n got:  %.300s\n want: %.300s",
				what, i+1, len(got), len(want), gl, wl)
			return
		}
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want Shard
		err  string
	}{
		{"1/1", Shard{1, 1}, ""},
		{"2/7", Shard{2, 7}, ""},
		{"7/7", Shard{7, 7}, ""},
		{"10000/10000", Shard{10000, 10000}, ""},
		{"0/3", Shard{}, "the shard must be from 1 to 3"},
		{"4/3", Shard{}, "the shard must be from 1 to 3"},
		{"1/0", Shard{}, "the number of shards must be from 1 to 10000"},
		{"1/10001", Shard{}, "the number of shards must be from 1 to 10000"},
		{"-1/3", Shard{}, "the shard must be from 1 to 3"},
		{"3", Shard{}, "expected K/N"},
		{"", Shard{}, "expected K/N"},
		{"a/b", Shard{}, "two whole numbers"},
		{"1/3/5", Shard{}, "two whole numbers"},
		{" 1/3", Shard{}, "two whole numbers"},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("ParseShard(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseShard(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.err)
		}
		if err == nil && got.String() != tt.in {
			t.Errorf("ParseShard(%q).String() = %q", tt.in, got.String())
		}
	}
}

// The shards of a run deal out the groups by index, each to exactly one
// shard.
func TestShardsDealOutEveryGroupOnce(t *testing.T) {
	const groups = 23
	for _, n := range []int{1, 2, 3, 7, 30} {
		taken := make([]int, groups)
		for k := 1; k <= n; k++ {
			sh := Shard{K: k, N: n}
			for i := range groups {
				if sh.owns(int64(i)) {
					taken[i]++
					if i%n != k-1 {
						t.Errorf("N=%d: shard %d takes group %d", n, k, i)
					}
				}
			}
		}
		for i, c := range taken {
			if c != 1 {
				t.Errorf("N=%d: group %d taken by %d shards", n, i, c)
			}
		}
	}
}

func TestRunPartialRefusesABadShard(t *testing.T) {
	ps := resolvePolicies(t, "strict", "cargo")
	for _, sh := range []Shard{{0, 2}, {3, 2}, {1, maxShards + 1}} {
		if _, err := RunPartial(context.Background(), exhaustiveDomain(t, 1), ps, compare.Options{}, sh); err == nil {
			t.Errorf("RunPartial with shard %v: no error", sh)
		}
	}
}

// shardDomains are the domains the merge of N shards must reproduce.
func shardDomains(t *testing.T) []struct {
	name     string
	domain   compare.Domain
	policies []engine.Policy
	shards   []int
} {
	short := !longtest.Enabled()
	scope := compare.DefaultScope
	if short {
		scope = compare.MinScope
	}
	all := resolvePolicies(t)
	if short {
		all = resolvePolicies(t, "strict", "lexical", "cargo", "fallback", "hashicorp", "terraform-module")
	}
	some := resolvePolicies(t, "strict", "lexical", "cargo", "linear", "fallback", "hashicorp", "masterminds", "terraform-module")
	if short {
		some = resolvePolicies(t, "strict", "cargo", "hashicorp", "terraform-module")
	}
	// The adapters that select by themselves make the corpus slow to run
	// five times over; the native policies select from the verdicts.
	natives := resolvePolicies(t, "strict", "lexical", "cargo", "linear", "fallback", "ga-bound")
	if short {
		natives = resolvePolicies(t, "strict", "cargo", "linear")
	}
	corpus, err := compare.Corpus(prerel.Corpus(), compare.PairByContext)
	if err != nil {
		t.Fatal(err)
	}
	if short {
		corpus = limitGroups(corpus, 300)
	}
	count := 4000
	if short {
		count = 1000
	}
	random, err := compare.Random(7, count)
	if err != nil {
		t.Fatal(err)
	}
	// Merging N parts adds them one after the other (Merger.Add), and
	// three parts already take every branch of it: the first part, a part
	// added to one, a part added to several, shards of unequal sizes.
	// One shard takes the path that keeps the only part as it is. Which
	// layout runs does not depend on the domain, so the small random
	// domain, whose policies include adapters of three libraries, proves
	// every layout, and the two large domains, which add their size (every
	// operator and version of their scope against every policy; the real
	// corpus and its histories, so the selection), are proven with three
	// shards. TestMergeShardsUnderTheCaps proves 2, 3, 7 and 40 shards
	// against the unsharded report in the long run, with classes and
	// splits turned away, and TestMergeIsAssociativeAndOrderIndependent
	// that any grouping of seven shards merges to the same partial report.
	layouts := longtest.Pick([]int{3}, []int{1, 2, 3, 7})
	return []struct {
		name     string
		domain   compare.Domain
		policies []engine.Policy
		shards   []int // the numbers of shards the merge is proven for
	}{
		{fmt.Sprintf("exhaustive scope %d, %d policies", scope, len(all)), exhaustiveDomain(t, scope), all, []int{3}},
		{"corpus", corpus, natives, []int{3}},
		{"random", random, some, layouts},
	}
}

// Merging the N shards of a run, each read back from its JSON, gives the
// report of the unsharded run, byte for byte, in JSON, in the text report
// and in the baseline: every day for three shards, in the long run
// (longtest) on larger domains, for one to seven shards on the random
// domain (see shardDomains).
func TestMergeShardsGivesTheUnshardedReport(t *testing.T) {
	longtest.SkipShort(t)
	relevance, err := compare.CorpusRelevance(prerel.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range shardDomains(t) {
		t.Run(tt.name, func(t *testing.T) {
			opt := compare.Options{Relevance: relevance}
			r, err := compare.Run(context.Background(), tt.domain, tt.policies, opt)
			if err != nil {
				t.Fatal(err)
			}
			want := render(t, r)
			r = nil
			for _, n := range tt.shards {
				parts := runShards(t, tt.domain, tt.policies, opt, n)
				// Every witness is the case its shard keeps.
				var check WitnessCheck
				for _, p := range parts {
					check.Add(p)
				}
				if err := check.Check(context.Background(), tt.domain, tt.policies); err != nil {
					t.Fatalf("N=%d: the witnesses of the shards: %v", n, err)
				}
				merged, err := mergeReport(context.Background(), tt.policies, parts...)
				if err != nil {
					t.Fatalf("N=%d: %v", n, err)
				}
				got := render(t, merged)
				sameBytes(t, fmt.Sprintf("N=%d: the JSON report", n), got.json, want.json)
				sameBytes(t, fmt.Sprintf("N=%d: the baseline", n), got.baseline, want.baseline)
			}
		})
	}
}

// With caps low enough that every pair and the splits turn classes away,
// the merged shards still keep the classes, counts and witnesses of the
// unsharded run, and count the same cases left out.
func TestMergeShardsUnderTheCaps(t *testing.T) {
	defer func(c, s int) { caps.Classes, caps.Splits = c, s }(caps.Classes, caps.Splits)
	ps := resolvePolicies(t, "strict", "lexical", "cargo", "linear", "hashicorp")
	caps.Classes, caps.Splits = 4*len(pairIndexes(len(ps))), 9
	d := exhaustiveDomain(t, 1)
	partials := map[int][][]byte{} // by N, the partial reports of the first workers
	for _, workers := range []int{1, 3} {
		opt := compare.Options{Workers: workers, Rank: compare.RankCount}
		r, err := compare.Run(context.Background(), d, ps, opt)
		if err != nil {
			t.Fatal(err)
		}
		if r.SplitCasesLeftOut == 0 {
			t.Fatal("the caps turned no split away")
		}
		left := 0
		for _, p := range r.Pairs {
			if p.CasesLeftOut > 0 {
				left++
			}
		}
		if left == 0 {
			t.Fatal("the caps turned no class away")
		}
		want := render(t, r)
		for _, n := range longtest.Pick([]int{3}, []int{2, 3, 7, 40}) {
			parts := runShards(t, d, ps, opt, n)
			// a shard's partial report does not depend on the workers
			for k, p := range parts {
				data := partialJSONOf(t, p)
				if workers == 1 {
					partials[n] = append(partials[n], data)
					continue
				}
				sameBytes(t, fmt.Sprintf("shard %d/%d with %d workers", k+1, n, workers), data, partials[n][k])
			}
			var check WitnessCheck
			for _, p := range parts {
				check.Add(p)
			}
			if err := check.Check(context.Background(), d, ps); err != nil {
				t.Fatalf("N=%d: the witnesses of the shards: %v", n, err)
			}
			merged, err := mergeReport(context.Background(), ps, parts...)
			if err != nil {
				t.Fatalf("N=%d: %v", n, err)
			}
			got := render(t, merged)
			sameBytes(t, fmt.Sprintf("workers %d, N=%d: the JSON report", workers, n), got.json, want.json)
		}
	}
}

// RunPartial's progress sees the shard's cases and ends with a call whose
// total is their count.
func TestRunPartialProgress(t *testing.T) {
	ps := resolvePolicies(t, "strict", "cargo")
	d := exhaustiveDomain(t, 1)
	var calls [][2]int64
	p, err := RunPartial(context.Background(), d, ps, compare.Options{Progress: func(done, total int64) {
		calls = append(calls, [2]int64{done, total})
	}}, Shard{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 {
		t.Fatalf("progress called %d times, want at least 2", len(calls))
	}
	last := calls[len(calls)-1]
	if last != [2]int64{p.cases(), p.cases()} {
		t.Errorf("last progress call %v, want done = total = %d", last, p.cases())
	}
	for _, c := range calls[:len(calls)-1] {
		if c[0] >= c[1] {
			t.Errorf("progress call %v before the end says the shard is done", c)
		}
	}
	if p.cases() == 0 || p.cases() >= d.Info().Cases {
		t.Errorf("shard 2/3 judged %d of %d cases", p.cases(), d.Info().Cases)
	}
}

// A domain that yields other cases than it announced fails a shard as it
// fails a run.
func TestRunPartialChecksTheDomain(t *testing.T) {
	ps := resolvePolicies(t, "strict", "cargo")
	d := lyingDomain{sliceDomain{groups: []compare.Group{{Constraint: ">= 1.0", Versions: []string{"1.0.0", "1.1.0"}}, {Constraint: "~> 1.0", Versions: []string{"1.5.0"}}}}}
	for _, sh := range []Shard{{1, 1}, {1, 2}, {2, 2}} {
		_, err := RunPartial(context.Background(), d, ps, compare.Options{}, sh)
		if err == nil || !strings.Contains(err.Error(), "yielded 3 cases, but announced 4") {
			t.Errorf("shard %s: %v, want the count the domain announced", sh, err)
		}
	}
}

// lyingDomain announces one case more than it yields.
type lyingDomain struct{ sliceDomain }

func (d lyingDomain) Info() compare.DomainInfo {
	i := d.sliceDomain.Info()
	i.Cases++
	return i
}
