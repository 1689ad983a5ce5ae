package compare_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// listDomain is a fixed domain for tests.
type listDomain struct {
	groups []compare.Group
	err    error
}

func (d listDomain) Info() compare.DomainInfo {
	var n int64
	for _, g := range d.groups {
		n += int64(len(g.Versions))
	}
	return compare.DomainInfo{Name: "list", Description: "test list", Cases: n}
}

func (d listDomain) Groups(yield func(compare.Group) bool) error {
	for _, g := range d.groups {
		if !yield(g) {
			return nil
		}
	}
	return d.err
}

func mustExhaustive(t testing.TB, scope int) compare.Domain {
	t.Helper()
	d, err := compare.Exhaustive(scope)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRunChecksPolicies(t *testing.T) {
	d := listDomain{groups: []compare.Group{{Constraint: ">= 1.0.0", Versions: []string{"1.0.0"}}}}
	for _, ps := range [][]engine.Policy{nil, {linear}, {linear, linear}, {linear, nil}} {
		if _, err := compare.Run(context.Background(), d, ps, compare.Options{}); err == nil {
			t.Errorf("Run with %d policies: no error", len(ps))
		}
	}
}

func TestRunCounts(t *testing.T) {
	d := mustExhaustive(t, 1)
	r, err := compare.Run(context.Background(), d, []engine.Policy{linear, sameBase, exact}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Domain.Cases != d.Info().Cases {
		t.Errorf("ran %d cases, domain has %d", r.Domain.Cases, d.Info().Cases)
	}
	if len(r.Pairs) != 3 {
		t.Fatalf("%d pairs, want 3", len(r.Pairs))
	}
	for _, p := range r.Pairs {
		if p.Agree+p.Diverge != r.Domain.Cases {
			t.Errorf("%s vs %s: %d + %d cases, want %d", p.A, p.B, p.Agree, p.Diverge, r.Domain.Cases)
		}
		var sum int64
		for _, c := range r.ClassesOf(p.A, p.B) {
			sum += c.Count
		}
		if sum != p.Diverge {
			t.Errorf("%s vs %s: classes count %d cases, the pair %d", p.A, p.B, sum, p.Diverge)
		}
	}
}

func TestRunProgress(t *testing.T) {
	d := mustExhaustive(t, 1)
	var calls, last, total atomic.Int64
	_, err := compare.Run(context.Background(), d, []engine.Policy{linear, sameBase}, compare.Options{
		Progress: func(done, tot int64) {
			calls.Add(1)
			last.Store(done)
			total.Store(tot)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() == 0 || last.Load() != d.Info().Cases || total.Load() != d.Info().Cases {
		t.Errorf("%d progress calls, last %d of %d; want the last at %d", calls.Load(), last.Load(), total.Load(), d.Info().Cases)
	}
}

func TestRunPanicIsAnError(t *testing.T) {
	d := listDomain{groups: []compare.Group{{Constraint: ">= 1.0.0", Versions: []string{"1.0.0", "6.6.6"}}}}
	_, err := compare.Run(context.Background(), d, []engine.Policy{linear, panicky}, compare.Options{})
	if err == nil || !strings.Contains(err.Error(), `"panicky"`) || !strings.Contains(err.Error(), `"6.6.6"`) {
		t.Errorf("error %v, want one naming the policy and the version", err)
	}
}

func TestRunDomainError(t *testing.T) {
	boom := errors.New("boom")
	d := listDomain{groups: []compare.Group{{Constraint: ">= 1.0.0", Versions: []string{"1.0.0"}}}, err: boom}
	if _, err := compare.Run(context.Background(), d, []engine.Policy{linear, sameBase}, compare.Options{}); !errors.Is(err, boom) {
		t.Errorf("error %v, want %v", err, boom)
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := compare.Run(ctx, mustExhaustive(t, 1), []engine.Policy{linear, sameBase}, compare.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// The report is byte for byte the same whatever the number of workers.
func TestRunIsDeterministic(t *testing.T) {
	domains := []compare.Domain{mustExhaustive(t, 1), goldenDomain}
	policies := []engine.Policy{linear, sameBase, exact, tilde, countFirst, buildEq, noV}
	for _, d := range domains {
		var outs [][]byte
		for _, workers := range []int{1, 2, 7} {
			r, err := compare.Run(context.Background(), d, policies, compare.Options{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := r.WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			outs = append(outs, buf.Bytes())
		}
		for i := 1; i < len(outs); i++ {
			if !bytes.Equal(outs[0], outs[i]) {
				t.Errorf("%s: the JSON report changes with the number of workers", d.Info().Description)
			}
		}
	}
}

// The same holds for the registered policies, library adapters and
// selection-level policies included.
func TestRunIsDeterministicWithRegisteredPolicies(t *testing.T) {
	longtest.Skip(t) // runs every registered policy; TestRunIsDeterministic runs every day
	corpus, err := compare.Corpus(smallCorpus, compare.PairAll)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []compare.Domain{mustExhaustive(t, 1), corpus} {
		var outs [][]byte
		for _, workers := range []int{1, 3} {
			r, err := compare.Run(context.Background(), d, catalogue.New().All(), compare.Options{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := r.WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			outs = append(outs, buf.Bytes())
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%s: the JSON report changes with the number of workers", d.Info().Description)
		}
	}
}
