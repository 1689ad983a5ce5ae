package batch_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/prerel/prerel/batch"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
)

// failingPolicy allows its first cases, limit of them, and then fails as
// a whole, as a policy command that exits does.
type failingPolicy struct {
	limit int
	mu    sync.Mutex
	seen  int
	err   error
}

var errFailed = errors.New("the command exited")

func (p *failingPolicy) Name() string                           { return "failing" }
func (p *failingPolicy) Rule() string                           { return "allows a few cases, then fails" }
func (p *failingPolicy) Compile(string) (engine.Matcher, error) { return p, nil }
func (p *failingPolicy) Match(string) engine.Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen >= p.limit {
		p.err = errFailed
		return engine.InvalidResult(errFailed)
	}
	p.seen++
	return engine.Allowed("one of the first")
}
func (p *failingPolicy) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}
func (p *failingPolicy) NotJudged(r engine.Result) bool {
	return p.Err() != nil && r == engine.InvalidResult(errFailed)
}

// TestJudgedStopsAtAFailure checks that a batch tells how many of its
// first cases were judged when a Failer fails part way, in both modes,
// and that the cases before keep their verdicts.
func TestJudgedStopsAtAFailure(t *testing.T) {
	strict, _ := catalogue.New().Lookup("strict")
	for _, reasons := range []bool{false, true} {
		t.Run(fmt.Sprint("reasons ", reasons), func(t *testing.T) {
			f := &failingPolicy{limit: 4}
			ps := []engine.Policy{strict, f}
			ev := batch.NewEvaluator(ps, reasons, 1)
			b := batch.New()
			for i := range 10 {
				b.Add([]byte(">= 1.0"), fmt.Appendf(nil, "1.%d.0", i))
			}
			ev.Judge(b)
			n, err := b.Judged()
			if n != 4 || !errors.Is(err, errFailed) {
				t.Fatalf("Judged() = %d, %v; want 4, %v", n, err, errFailed)
			}
			for i := range 10 {
				want := engine.Allow
				if i >= 4 {
					want = engine.Invalid
				}
				if v := b.Verdict(1, i); v != want {
					t.Errorf("case %d: %v, want %v", i, v, want)
				}
				if v := b.Verdict(0, i); v != engine.Allow {
					t.Errorf("case %d, strict: %v", i, v)
				}
			}
			// The next batch: nothing judged.
			b.Reset()
			b.Add([]byte(">= 1.0"), []byte("2.0.0"))
			ev.Judge(b)
			if n, err := b.Judged(); n != 0 || err == nil {
				t.Errorf("after the failure: Judged() = %d, %v", n, err)
			}
		})
	}
	// Without a Failer, every case is judged.
	ev := batch.NewEvaluator([]engine.Policy{strict}, false, 1)
	b := batch.New()
	b.Add([]byte(">= 1.0"), []byte("1.0.0"))
	ev.Judge(b)
	if n, err := b.Judged(); n != 1 || err != nil {
		t.Errorf("Judged() = %d, %v", n, err)
	}
	if err := batch.Failure([]engine.Policy{strict, &failingPolicy{err: errFailed}}); err != errFailed {
		t.Errorf("Failure: %v", err)
	}
}
