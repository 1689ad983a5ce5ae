package compare

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
)

// Options tunes a run. The zero Options is ready to use.
type Options struct {
	// Workers is the number of goroutines judging cases; 0 or less means
	// runtime.GOMAXPROCS(0). The report does not depend on it.
	Workers int
	// Progress, when set, is called with the cases done so far and the
	// domain's case count (DomainInfo.Cases): about ten times a second
	// while the run lasts, and once when every case is done. Calls come
	// from one goroutine at a time.
	Progress func(done, total int64)
	// Reference is the policy the summary compares the others with; ""
	// means DefaultReference when it is among the policies, else the
	// first policy. It must be one of the policies.
	Reference string
	// Relevance, when set, gives each class and split the relevance of
	// its constraint shape among real constraints (CorpusRelevance).
	Relevance *RelevanceTable
	// Rank orders the classes of each pair and the splits; "" means
	// RankRelevance.
	Rank Rank
}

// progressInterval is how often Progress is called.
const progressInterval = 100 * time.Millisecond

// Run judges every case of d with every policy and returns the report.
//
// Each group's constraint is compiled once per policy (Policy.Compile) and
// its versions are judged with the resulting Matcher; a constraint a policy
// refuses makes every version of the group Invalid for that policy. Groups
// are handed to Options.Workers goroutines as the domain yields them, and
// each worker keeps counts and the smallest witness of each class, never
// the cases. The causes of the classes are decided at the end, on the
// witnesses, with CauseOf.
//
// Memory does not grow with the number of cases, but it grows with the
// number of classes and splits, which a domain of many different
// constraints (the random domain, a large file) keeps adding to: each
// worker keeps at most ClassesPerPair classes per pair and MaxSplits
// splits, and the report counts the cases of those it left out
// (Pair.CasesLeftOut, Report.SplitCasesLeftOut). For a baseline, the run
// also keeps one byte per case and policy up to MaxRecordedVerdicts.
//
// Run fails when d is nil, when fewer than two policies are given or two
// share a name, when the domain reports an error or yields another
// number of cases than its Info announced, when a policy panics (the
// error names the policy and the case), or when ctx is done.
func Run(ctx context.Context, d Domain, policies []engine.Policy, opt Options) (*Report, error) {
	if d == nil {
		return nil, fmt.Errorf("compare: no domain")
	}
	if err := checkPolicies(policies); err != nil {
		return nil, err
	}
	if err := CheckReference(opt.Reference, policies); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	if _, err := ParseRank(string(opt.Rank)); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	info := d.Info()
	n := opt.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	groups := make(chan placedGroup, 2*n)
	var domainErr error
	produced := make(chan struct{})
	log := newVerdictLog(info.Cases, len(policies))
	go func() {
		defer close(produced)
		defer close(groups)
		var offset int64
		domainErr = d.Groups(func(g Group) bool {
			pg := placedGroup{g, offset}
			offset += int64(len(g.Versions))
			select {
			case groups <- pg:
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()

	var done atomic.Int64
	var firstErr error
	var errOnce sync.Once
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	pairs := pairIndexes(len(policies))
	workers := make([]*worker, n)
	var wg sync.WaitGroup
	for i := range workers {
		w := newWorker(policies, pairs)
		w.log = log
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range groups {
				if ctx.Err() != nil {
					continue // drain so that the producer can finish
				}
				if err := w.run(g.Group, g.offset); err != nil {
					fail(err)
					continue
				}
				done.Add(int64(len(g.Versions)))
			}
		}()
	}
	stopProgress := startProgress(opt.Progress, &done, info.Cases)
	wg.Wait()
	<-produced
	stopProgress()

	if firstErr != nil {
		return nil, firstErr
	}
	if domainErr != nil {
		return nil, domainErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	agg := workers[0].agg
	for _, w := range workers[1:] {
		agg.merge(w.agg)
	}
	if agg.cases != info.Cases {
		return nil, fmt.Errorf("compare: the domain %s yielded %s, but announced %d", info.Description,
			plural.Of(agg.cases, "case", "cases"), info.Cases)
	}
	r := buildReport(info, policies, pairs, agg, n, opt)
	r.verdicts = log.verdicts(r.Policies, info.Cases)
	return r, nil
}

// placedGroup is a group with the position of its first case in the
// domain's order.
type placedGroup struct {
	Group
	offset int64
}

// startProgress calls progress on a ticker until the returned function is
// called, which makes one last call.
func startProgress(progress func(done, total int64), done *atomic.Int64, total int64) func() {
	if progress == nil {
		return func() {}
	}
	stop := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(progressInterval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				progress(done.Load(), total)
			case <-stop:
				return
			}
		}
	}()
	return func() {
		close(stop)
		<-finished
		progress(done.Load(), total)
	}
}

func checkPolicies(policies []engine.Policy) error {
	if len(policies) < 2 {
		return fmt.Errorf("compare: need at least two policies, got %d", len(policies))
	}
	seen := map[string]bool{}
	for _, p := range policies {
		if p == nil {
			return fmt.Errorf("compare: nil policy")
		}
		if seen[p.Name()] {
			return fmt.Errorf("compare: policy %q given twice", p.Name())
		}
		seen[p.Name()] = true
	}
	return nil
}

// CheckReference fails when ref, a reference a run is asked for, is not
// among the policies; "" always passes.
func CheckReference(ref string, policies []engine.Policy) error {
	if ref == "" {
		return nil
	}
	var names []string
	for _, p := range policies {
		if p == nil {
			continue
		}
		if p.Name() == ref {
			return nil
		}
		names = append(names, p.Name())
	}
	return fmt.Errorf("the reference %q is not among the policies compared (%s)", ref, strings.Join(names, ", "))
}

// pairIndexes lists the pairs (i, j), i < j, of n policies in report
// order.
func pairIndexes(n int) [][2]int {
	var out [][2]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}
