package shard

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/internal/caps"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/policies"
)

// partialJSONOf is the JSON of p.
func partialJSONOf(t testing.TB, p *Partial) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := p.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func mustMerge(t testing.TB, parts ...*Partial) *Partial {
	t.Helper()
	p, err := mergePartials(parts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Merging is associative and does not depend on the order of the parts:
// every grouping and order of the seven shards gives the same partial
// report, byte for byte, and the same report.
func TestMergeIsAssociativeAndOrderIndependent(t *testing.T) {
	longtest.SkipShort(t)
	defer func(c, s int) { caps.Classes, caps.Splits = c, s }(caps.Classes, caps.Splits)
	ps := resolvePolicies(t, "strict", "lexical", "cargo", "hashicorp")
	for _, capped := range []bool{false, true} {
		if capped {
			caps.Classes, caps.Splits = 5*len(pairIndexes(len(ps))), 6
		}
		// Every day the first 300 constraints of scope 1, the whole
		// scope in the long run.
		ex := exhaustiveDomain(t, 1)
		if !longtest.Enabled() {
			ex = limitGroups(ex, 300)
		}
		for _, d := range []compare.Domain{ex, must(compare.Random(3, 1500))} {
			s := runShards(t, d, ps, compare.Options{}, 7)
			want := partialJSONOf(t, mustMerge(t, s...))
			groupings := []struct {
				name  string
				merge func() *Partial
			}{
				{"reversed", func() *Partial { return mustMerge(t, s[6], s[5], s[4], s[3], s[2], s[1], s[0]) }},
				{"shuffled", func() *Partial { return mustMerge(t, s[3], s[0], s[6], s[2], s[5], s[1], s[4]) }},
				{"left to right", func() *Partial {
					acc := s[0]
					for _, p := range s[1:] {
						acc = roundTrip(t, mustMerge(t, acc, p), "acc.json")
					}
					return acc
				}},
				{"right to left", func() *Partial {
					acc := s[6]
					for i := 5; i >= 0; i-- {
						acc = mustMerge(t, s[i], acc)
					}
					return acc
				}},
				{"nested", func() *Partial {
					a := mustMerge(t, s[4], s[0])
					b := roundTrip(t, mustMerge(t, s[2], mustMerge(t, s[6], s[1])), "b.json")
					return mustMerge(t, mustMerge(t, b, s[5]), mustMerge(t, s[3], a))
				}},
				{"a Merger, one at a time, shuffled", func() *Partial {
					var m Merger
					for _, i := range []int{5, 2, 0, 6, 3, 1, 4} {
						if err := m.Add(roundTrip(t, s[i], "part.json")); err != nil {
							t.Fatal(err)
						}
					}
					return must(m.Partial())
				}},
			}
			for _, g := range groupings {
				got := g.merge()
				sameBytes(t, fmt.Sprintf("capped %v, %s, %s: the partial report", capped, d.Info().Name, g.name), partialJSONOf(t, got), want)
				if !got.Complete() || len(got.missingShards()) != 0 {
					t.Errorf("%s: merged shards %v, missing %v", g.name, got.heldShards(), got.missingShards())
				}
			}
			// merging two, in either order, is the same
			ab, ba := mustMerge(t, s[1], s[4]), mustMerge(t, s[4], s[1])
			sameBytes(t, "two shards in either order", partialJSONOf(t, ab), partialJSONOf(t, ba))
			if got := ab.heldShards(); len(got) != 2 || got[0] != (Shard{2, 7}) || got[1] != (Shard{5, 7}) {
				t.Errorf("shards 2/7 and 5/7 merged hold %v", got)
			}
			// the parts are left as they were
			again := mustMerge(t, s...)
			sameBytes(t, "merging the same parts again", partialJSONOf(t, again), want)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// writePartial writes p to a file in dir and returns its path.
func writePartial(t *testing.T, dir, name string, p *Partial) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, partialJSONOf(t, p), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readPartial(t *testing.T, path string) *Partial {
	t.Helper()
	p, err := ReadPartial(path, cliHints)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Partial reports of different runs, a shard given twice and a missing
// shard are refused with errors that name the files.
func TestMergeRefusesWhatDoesNotFit(t *testing.T) {
	longtest.SkipShort(t)
	dir := t.TempDir()
	ps := resolvePolicies(t, "strict", "cargo", "lexical")
	d := exhaustiveDomain(t, 1)
	shard := func(name string, d compare.Domain, ps []engine.Policy, opt compare.Options, k, n int) *Partial {
		p, err := RunPartial(context.Background(), d, ps, opt, Shard{k, n})
		if err != nil {
			t.Fatal(err)
		}
		return readPartial(t, writePartial(t, dir, name, p))
	}
	one := shard("one.json", d, ps, compare.Options{}, 1, 3)
	two := shard("two.json", d, ps, compare.Options{}, 2, 3)
	three := shard("three.json", d, ps, compare.Options{}, 3, 3)
	tests := []struct {
		name  string
		parts []*Partial
		want  []string
	}{
		{"another scope", []*Partial{one, shard("scope2.json", exhaustiveDomain(t, 2), ps, compare.Options{}, 2, 3)},
			[]string{"one.json and scope2.json are not shards of one run: they ran other domains", "exhaustive scope 1", "exhaustive scope 2"}},
		{"another seed", []*Partial{shard("seed1.json", must(compare.Random(1, 300)), ps, compare.Options{}, 1, 2), shard("seed2.json", must(compare.Random(2, 300)), ps, compare.Options{}, 2, 2)},
			[]string{"seed1.json and seed2.json are not shards of one run: they ran other domains", "random seed 1", "random seed 2"}},
		{"another count", []*Partial{shard("count300.json", must(compare.Random(1, 300)), ps, compare.Options{}, 1, 2), shard("count301.json", must(compare.Random(1, 301)), ps, compare.Options{}, 2, 2)},
			[]string{"count300.json and count301.json are not shards of one run: they ran other domains"}},
		{"other policies", []*Partial{one, shard("policies.json", d, resolvePolicies(t, "strict", "cargo"), compare.Options{}, 2, 3)},
			[]string{"they compare other policies", "strict, cargo, lexical", "strict, cargo"}},
		{"policies in another order", []*Partial{one, shard("order.json", d, resolvePolicies(t, "strict", "lexical", "cargo"), compare.Options{}, 2, 3)},
			[]string{"they compare other policies, or the same in another order"}},
		{"another number of shards", []*Partial{one, shard("of4.json", d, ps, compare.Options{}, 2, 4)},
			[]string{"they split the run into different numbers of shards", "shard 1/3", "shard 2/4"}},
		{"another reference", []*Partial{one, shard("ref.json", d, ps, compare.Options{Reference: "cargo"}, 2, 3)},
			[]string{"other references", "strict", "cargo"}},
		{"another rank", []*Partial{one, shard("rank.json", d, ps, compare.Options{Rank: compare.RankCount}, 2, 3)},
			[]string{"they rank classes differently"}},
		{"another relevance table", []*Partial{one, shard("relevance.json", d, ps, compare.Options{Relevance: compare.NewRelevanceTable("test", []string{"~> 1.0"})}, 2, 3)},
			[]string{"they rank by other relevance tables", "no relevance table", "test (1 constraints)"}},
		{"another policy of the same name", []*Partial{one, shard("renamed.json", d, []engine.Policy{policies.Strict{}, policies.Cargo{}, renamedPolicy{policies.Cargo{}, "lexical"}}, compare.Options{}, 2, 3)},
			[]string{"one.json and renamed.json are not shards of one run: they ran different policies named lexical"}},
		{"a shard twice", []*Partial{one, two, readPartial(t, writePartial(t, dir, "two-again.json", two))},
			[]string{"shard 2/3 is given twice: in two.json and in two-again.json"}},
		{"a merged shard twice", []*Partial{mustMerge(t, one, two), two},
			[]string{"shard 2/3 is given twice"}},
		{"nothing", nil, []string{"no partial reports to merge"}},
		{"nil", []*Partial{one, nil}, []string{"partial report 2 of 2 is nil"}},
	}
	// what a Merger says instead, where it differs
	mergerWant := map[string][]string{"nil": {"partial report 2 is nil"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mergeReport(context.Background(), ps, tt.parts...)
			if err == nil {
				t.Fatal("merged")
			}
			msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q\nwant %q in it", msg, w)
				}
			}
		})
		t.Run(tt.name+", one at a time", func(t *testing.T) {
			var m Merger
			var err error
			for _, p := range tt.parts {
				if err = m.Add(p); err != nil {
					break
				}
			}
			if err == nil {
				_, err = m.Partial()
			}
			if err == nil {
				t.Fatal("merged")
			}
			msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			want := tt.want
			if w, ok := mergerWant[tt.name]; ok {
				want = w
			}
			for _, w := range want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q\nwant %q in it", msg, w)
				}
			}
		})
	}

	// A Merger that refused a part is as it was: the shards added after
	// merge as though the refused parts had never come.
	var m Merger
	for _, p := range []*Partial{one, shard("scope2-again.json", exhaustiveDomain(t, 2), ps, compare.Options{}, 2, 3), one, nil, two, three} {
		m.Add(p)
	}
	sameBytes(t, "a Merger after refusals", partialJSONOf(t, must(m.Partial())), partialJSONOf(t, mustMerge(t, one, two, three)))

	// A missing shard: merging the others is allowed, the report is not.
	p := mustMerge(t, one, three)
	if _, err := p.Report(context.Background(), ps); err == nil || !strings.Contains(err.Error(), "shard 2/3 is missing: the report of the run needs all 3 shards, and the partial reports merged hold shards 1/3, 3/3") {
		t.Errorf("shards 1/3 and 3/3: %v", err)
	}
	if _, err := one.Report(context.Background(), ps); err == nil || !strings.Contains(err.Error(), "shards 2/3, 3/3 are missing") || !strings.Contains(err.Error(), filepath.Join(dir, "one.json")+" holds shard 1/3") {
		t.Errorf("shard 1/3 alone: %v", err)
	}
	full := mustMerge(t, one, two, three)
	// Other policies than those the shards ran.
	for _, tt := range []struct {
		ps   []engine.Policy
		want string
	}{
		{resolvePolicies(t, "strict", "lexical", "cargo"), "compares the policies strict, cargo, lexical, in this order; the policies given are strict, lexical, cargo"},
		{[]engine.Policy{policies.Strict{}, policies.Cargo{}, renamedPolicy{policies.Cargo{}, "lexical"}}, "the policy lexical is not the policy of that name the shards ran"},
		{[]engine.Policy{policies.Strict{}}, "need at least two policies"},
	} {
		if _, err := full.Report(context.Background(), tt.ps); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v, want %q", err, tt.want)
		}
	}
	if _, err := full.Report(context.Background(), ps); err != nil {
		t.Errorf("the three shards: %v", err)
	}
}

// renamedPolicy gives a policy another name.
type renamedPolicy struct {
	engine.Policy
	name string
}

func (r renamedPolicy) Name() string { return r.name }

// A drift from a baseline is the same on the merged report as on the
// unsharded run: the same changes, the same verdicts moved per policy.
func TestMergedReportDriftsLikeTheRun(t *testing.T) {
	d := exhaustiveDomain(t, 1)
	before := resolvePolicies(t, "strict", "lexical", "cargo")
	r, err := compare.Run(context.Background(), d, before, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base, err := compare.DecodeReport(bytes.NewReader(baselineJSON(t, r)))
	if err != nil {
		t.Fatal(err)
	}
	// cargo now behaves like lexical
	after := []engine.Policy{policies.Strict{}, policies.Lexical{}, renamedPolicy{policies.Lexical{}, "cargo"}}
	run, err := compare.Run(context.Background(), d, after, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := compare.ComputeDrift(context.Background(), d, base, run, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want.Matches || !want.Exact || len(want.Policies) == 0 {
		t.Fatalf("the drift of the run %+v, want the verdicts of cargo moved", want)
	}
	// One shard keeps its only part as it is and three take every branch
	// of Merger.Add (see shardDomains): every day these, also 2 and 7 in
	// the long run.
	for _, n := range longtest.Pick([]int{1, 3}, []int{1, 2, 3, 7}) {
		merged, err := mergeReport(context.Background(), after, runShards(t, d, after, compare.Options{}, n)...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := compare.ComputeDrift(context.Background(), d, base, merged, nil)
		if err != nil {
			t.Fatal(err)
		}
		sameBytes(t, fmt.Sprintf("N=%d: the drift", n), indented(t, got), indented(t, want))
		same, err := compare.ComputeDrift(context.Background(), d, base, must(mergeReport(context.Background(), before, runShards(t, d, before, compare.Options{}, n)...)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !same.Matches {
			t.Errorf("N=%d: the merged report of the same policies drifts from their baseline: %+v", n, same.Changes)
		}
	}
}

// baselineJSON is the baseline of r as WriteBaseline writes it.
func baselineJSON(t testing.TB, r *compare.Report) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := compare.WriteBaseline(path, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// indented is the indented JSON of v.
func indented(t testing.TB, v any) []byte {
	t.Helper()
	b, err := stdjson.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// onlyOn is a policy that answers as another except on one constraint,
// where it rejects everything.
type onlyOn struct {
	engine.Policy
	constraint string
}

func (o onlyOn) Compile(c string) (engine.Matcher, error) {
	if c == o.constraint {
		return rejectAll{}, nil
	}
	return o.Policy.Compile(c)
}

type rejectAll struct{}

func (rejectAll) Match(string) engine.Result { return engine.Rejected("nothing") }

// A policy that differs from the shards' only on cases the fingerprint
// does not probe is still caught on the witnesses the shards kept.
func TestMergeJudgesTheWitnessesAgain(t *testing.T) {
	const odd = "~> 7.2"
	d := sliceDomain{name: "odd", groups: []compare.Group{
		{Constraint: ">= 1.0.0", Versions: []string{"1.0.0", "1.1.0-beta", "2.0.0"}},
		{Constraint: odd, Versions: []string{"7.5.0-beta.1", "7.3.0", "1.0.0"}},
	}}
	ps := resolvePolicies(t, "strict", "linear")
	parts := runShards(t, d, ps, compare.Options{}, 2)
	changed := []engine.Policy{ps[0], onlyOn{ps[1], odd}}
	if fingerprint(changed[1]) != fingerprint(ps[1]) {
		t.Fatal("the changed policy has another fingerprint: the test does not reach the witnesses")
	}
	_, err := mergeReport(context.Background(), changed, parts...)
	if err == nil || !strings.Contains(err.Error(), `the policy linear judges constraint "~> 7.2" with version "7.5.0-beta.1" reject, where the shards recorded allow`) ||
		!strings.Contains(err.Error(), "it is not the policy the shards ran") {
		t.Errorf("merge with a policy changed on one constraint: %v", err)
	}
	if _, err := mergeReport(context.Background(), ps, parts...); err != nil {
		t.Errorf("merge with the shards' policies: %v", err)
	}
}
