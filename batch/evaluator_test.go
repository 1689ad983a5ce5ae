package batch_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/prerel/prerel/batch"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// TestKeepsTablesAcrossBatches checks that a constraint whose cases come
// a few per batch is compiled against its policy's table once while the
// batches bring no version the table lacks, and once more after a batch
// brings one, and that the answers are the text path's: a shuffled
// sample of the scope-2 domain (every batch holds its 83 versions, and a
// constraint about 3 cases of each batch), a batch that adds a version,
// then the sample again.
func TestKeepsTablesAcrossBatches(t *testing.T) {
	longtest.SkipShort(t)
	sample := shuffled(exhaustiveCases(t, 2, longtest.Pick(30000, 100000)), 1)
	constraints := map[string]bool{}
	var added [][2]string
	for _, c := range sample {
		if !constraints[c[0]] {
			constraints[c[0]] = true
			added = append(added, [2]string{c[0], "9.9.9"})
		}
	}
	in := append(append(append([][2]string{}, sample...), added...), sample...)
	// The reasons of the adapters' tables are checked on every path by
	// prerel eval's tests; their text path is slow.
	tests := []struct {
		policy  string
		reasons bool
	}{
		{"strict", false}, {"strict", true}, {"hashicorp", false}, {"masterminds", false},
	}
	for _, tt := range tests {
		p, ok := catalogue.New().Lookup(tt.policy)
		if !ok {
			t.Fatalf("no policy %q", tt.policy)
		}
		t.Run(fmt.Sprintf("%s, reasons %v", tt.policy, tt.reasons), func(t *testing.T) {
			ps := []engine.Policy{p}
			ev := batch.NewEvaluator(ps, tt.reasons, 1)
			judgeAll(t, ev, ps, in, textResults(ps, in), tt.reasons)
			if gen := ev.StreamGen(); gen != 2 {
				t.Errorf("the tables' versions were set %d times, want 2 (the first batch, the one that adds 9.9.9)", gen)
			}
			// A constraint reaches the table after about 11 of its
			// 83 cases, within each of the two samples.
			compiles := ev.TableCompiles(0)
			if n := len(constraints); compiles < n || compiles > 2*n {
				t.Errorf("%d constraints compiled against the tables, want %d to %d: once per table", compiles, n, 2*n)
			}
		})
	}
}

// TestMatchesTextPath checks the evaluator against Compile and Match on
// cases that take the table path and the text path, with every
// registered policy, one worker and three.
func TestMatchesTextPath(t *testing.T) {
	var cases [][2]string
	// Every day every tenth case of scope 1; every case in the long run;
	// every fortieth under -short, the race detector's run, where the
	// workers meet as often on fewer cases.
	stride := longtest.Pick(10, 1)
	if testing.Short() {
		stride = 40
	}
	for i, c := range exhaustiveCases(t, 1, 0) {
		if i%stride == 0 {
			cases = append(cases, c)
		}
	}
	in := append(append([][2]string{}, cases...), shuffled(cases, 2)[:len(cases)/3]...)
	in = append(in, [2]string{"=> 1", "1.0.0"}, [2]string{"", ""}, [2]string{">= 1.0", "1.0.0-beta\xff"})
	ps := catalogue.New().All()
	// The text path's answers, judged once for the four evaluators.
	want := textResults(ps, in)
	for _, workers := range []int{1, 3} {
		for _, reasons := range []bool{false, true} {
			t.Run(fmt.Sprintf("workers %d, reasons %v", workers, reasons), func(t *testing.T) {
				judgeAll(t, batch.NewEvaluator(ps, reasons, workers), ps, in, want, reasons)
			})
		}
	}
}

// TestPanicError checks that a policy's panic in a worker comes back to
// the caller as a *batch.PanicError with the value and a stack.
func TestPanicError(t *testing.T) {
	ev := batch.NewEvaluator([]engine.Policy{panicking{}}, false, 2)
	b := batch.New()
	b.Add([]byte(">= 1"), []byte("1.0.0"))
	defer func() {
		pe, ok := recover().(*batch.PanicError)
		if !ok || fmt.Sprint(pe.Value) != "the policy broke" || !strings.Contains(string(pe.Stack), "panicking") {
			t.Fatalf("recovered %#v, want a *batch.PanicError of the policy's panic with its stack", pe)
		}
	}()
	ev.Judge(b)
}

// panicking is a policy that panics when it compiles a constraint.
type panicking struct{}

func (panicking) Name() string { return "panicking" }
func (panicking) Rule() string { return "panics" }
func (panicking) Compile(string) (engine.Matcher, error) {
	panic(errors.New("the policy broke"))
}

// textResults are the results of each policy's Compile and Match on
// each case: [case][policy].
func textResults(ps []engine.Policy, cases [][2]string) [][]engine.Result {
	text := make([]textPath, len(ps))
	for j, p := range ps {
		text[j] = textPath{p: p, compiled: map[string]engine.Matcher{}, refused: map[string]error{}}
	}
	out := make([][]engine.Result, len(cases))
	for i, c := range cases {
		out[i] = make([]engine.Result, len(ps))
		for j := range ps {
			out[i][j] = text[j].result(c[0], c[1])
		}
	}
	return out
}

// judgeAll has ev judge cases in batches of batch.MaxLines and checks
// every answer against the policy's Compile and Match, as textResults
// gives them in want.
func judgeAll(t *testing.T, ev *batch.Evaluator, ps []engine.Policy, cases [][2]string, want [][]engine.Result, reasons bool) {
	t.Helper()
	b := batch.New()
	for from := 0; from < len(cases); from += batch.MaxLines {
		b.Reset()
		part := cases[from:min(from+batch.MaxLines, len(cases))]
		for _, c := range part {
			b.Add([]byte(c[0]), []byte(c[1]))
		}
		ev.Judge(b)
		for i, c := range part {
			if gc, gv := b.Case(i); gc != c[0] || gv != c[1] {
				t.Fatalf("case %d is %q %q, want %q %q", from+i, gc, gv, c[0], c[1])
			}
			for j, p := range ps {
				want := want[from+i][j]
				if reasons {
					if got := b.Result(j, i); got != want {
						t.Fatalf("%s on %q %q: %v, want %v (text path)", p.Name(), c[0], c[1], got, want)
					}
				} else if got := b.Verdict(j, i); got != want.Verdict {
					t.Fatalf("%s on %q %q: %v, want %v (text path)", p.Name(), c[0], c[1], got, want.Verdict)
				}
			}
		}
	}
}

// textPath judges cases with a policy's Compile, kept per constraint,
// and Match.
type textPath struct {
	p        engine.Policy
	compiled map[string]engine.Matcher
	refused  map[string]error
}

// result is the result of Compile and Match.
func (t *textPath) result(constraint, version string) engine.Result {
	if err := t.refused[constraint]; err != nil {
		return engine.InvalidResult(err)
	}
	m := t.compiled[constraint]
	if m == nil {
		var err error
		m, err = t.p.Compile(constraint)
		if err == nil && m == nil {
			err = fmt.Errorf("policy %q %w", t.p.Name(), engine.ErrNilMatcher)
		}
		if err != nil {
			t.refused[constraint] = err
			return engine.InvalidResult(err)
		}
		t.compiled[constraint] = m
	}
	return m.Match(version)
}

// exhaustiveCases returns the cases of compare's exhaustive domain of
// scope, constraint by constraint, at most limit of them (0: all).
func exhaustiveCases(tb testing.TB, scope, limit int) [][2]string {
	tb.Helper()
	d, err := compare.Exhaustive(scope)
	if err != nil {
		tb.Fatal(err)
	}
	var out [][2]string
	err = d.Groups(func(g compare.Group) bool {
		for _, v := range g.Versions {
			if limit > 0 && len(out) == limit {
				return false
			}
			out = append(out, [2]string{g.Constraint, v})
		}
		return true
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// shuffled returns a copy of cases in an order fixed by seed.
func shuffled(cases [][2]string, seed uint64) [][2]string {
	out := append([][2]string{}, cases...)
	r := rand.New(rand.NewPCG(seed, seed))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
