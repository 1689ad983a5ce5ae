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

	shard *shardRun // RunGroups' run of some groups (rungroups.go)
	cases *runCases // the run's groups, for the causes (causelog.go)
}

// progressInterval is how often Progress is called.
const progressInterval = 100 * time.Millisecond

// Run judges every case of d with every policy and returns the report.
//
// Each group's constraint is compiled once per policy against the
// policy's reading of the group's versions (engine.ReadVersions, read
// once per list of versions and kept while groups hand the same list
// over; a short list handed over once is judged on text, with
// engine.TextTable), and the whole list is judged at once
// (TableMatcher.Verdicts); a constraint a policy refuses makes every
// version of the group Invalid for that policy. Groups are handed to
// Options.Workers goroutines as the domain yields them, those that hand
// over the same list one after the other to one goroutine together (up
// to 64 groups and 4,096 cases); the workers add
// what they see to one aggregate of counts and the smallest witness of
// each class, never the cases. The policies' reasons on the witnesses
// that remain are fetched at the end, while the causes of the classes are
// decided on them with CauseOf.
//
// Memory does not grow with the number of cases: the aggregate keeps at
// most ClassesPerPair classes per pair and MaxSplits splits, and the
// report counts the cases of those it left out (Pair.CasesLeftOut,
// Report.SplitCasesLeftOut). For a baseline, the run also keeps two bits
// per case and policy, up to 64 Mi verdicts, from which the causes read
// the rewritten cases that are cases of the run (runCases: up to 32,768
// groups).
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

	// The producer runs when a worker waits for a group; room for many
	// groups lets it run seldom. The groups that hand over the same list
	// of versions one after the other go to one worker together
	// (groupBatch), which then reads the list once for all of them.
	groups := make(chan []placedGroup, 4*n)
	var domainErr error
	produced := make(chan struct{})
	log := newVerdictLog(info.Cases, len(policies))
	// What the causes need to read the cases of the run from the log
	// (causelog.go); a run of some groups builds no report.
	var kept *runCases
	if opt.shard == nil {
		kept = newRunCases(log)
	}
	go func() {
		defer close(produced)
		defer close(groups)
		var offset int64
		var batch groupBatch
		ol, once := d.(onceLists)
		once = once && ol.listsOnce()
		send := func(listDone bool) bool {
			if len(batch.groups) == 0 {
				return true
			}
			if listDone && once {
				batch.groups[len(batch.groups)-1].dropList = true
			}
			select {
			case groups <- batch.take():
				return true
			case <-ctx.Done():
				return false
			}
		}
		domainErr = d.Groups(func(g Group) bool {
			pg := placedGroup{Group: g, offset: offset}
			offset += int64(len(g.Versions))
			if !opt.shard.owns(pg.offset, len(g.Versions)) { // RunGroups judges some groups only (rungroups.go)
				return true
			}
			kept.add(g, pg.offset)
			if same := batch.sameList(g); !same || batch.full(g) {
				if !send(!same) {
					return false
				}
			}
			batch.add(pg)
			return true
		})
		send(true)
	}()
	var done atomic.Int64
	var firstErr error
	var errOnce sync.Once
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	pairs := pairIndexes(len(policies))
	shared := newSharedAggregate(len(pairs), n)
	var wg sync.WaitGroup
	for i := range n {
		w := newWorker(i, policies, pairs, shared)
		w.log = log
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range groups {
				for _, g := range batch {
					if ctx.Err() != nil {
						break // drain so that the producer can finish
					}
					if err := w.run(g.Group, g.offset); err != nil {
						fail(err)
						break
					}
					if g.dropList {
						w.lists.drop(g.Versions)
					}
					done.Add(int64(len(g.Versions)))
				}
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
	shared.flush(pairs, n, opt.shard == nil) // RunGroups keeps every class in its capped map
	agg := shared.agg
	if opt.shard != nil { // RunGroups keeps the aggregate (rungroups.go)
		if err := fillReasons(agg, policies, pairs, n); err != nil {
			return nil, err
		}
		return nil, opt.shard.finish(agg, log)
	}
	if agg.cases != info.Cases {
		return nil, fmt.Errorf("compare: the domain %s yielded %s, but announced %d", info.Description,
			plural.Of(agg.cases, "case", "cases"), info.Cases)
	}
	opt.cases = kept
	r, err := buildReportFrom(info, policies, pairs, agg, n, opt, true)
	if err != nil {
		return nil, err
	}
	r.verdicts = &runVerdicts{log: log, names: r.Policies, cases: info.Cases}
	return r, nil
}

// groupBatch gathers the groups the producer hands to one worker: groups
// that hand over the same list of versions (the same slice, as
// listCache tells lists apart), up to maxBatchGroups of them and
// maxBatchCases cases.
type groupBatch struct {
	groups []placedGroup
	cases  int
}

// Bounds of a groupBatch.
const (
	maxBatchGroups = 64
	maxBatchCases  = 4096
)

// sameList reports whether g hands over the list of the batch's groups,
// or the batch is empty.
func (b *groupBatch) sameList(g Group) bool {
	if len(b.groups) == 0 {
		return true
	}
	first := b.groups[0].Versions
	return len(first) > 0 && len(g.Versions) > 0 && &first[0] == &g.Versions[0]
}

// full reports whether the batch has no room for g.
func (b *groupBatch) full(g Group) bool {
	return len(b.groups) >= maxBatchGroups || b.cases+len(g.Versions) > maxBatchCases
}

// add adds g to the batch.
func (b *groupBatch) add(g placedGroup) {
	b.groups = append(b.groups, g)
	b.cases += len(g.Versions)
}

// take returns the batch's groups and empties it.
func (b *groupBatch) take() []placedGroup {
	out := b.groups
	b.groups, b.cases = nil, 0
	return out
}

// placedGroup is a group with the position of its first case in the
// domain's order; dropList is set on the last group of a list of a
// domain whose lists come once (onceLists).
type placedGroup struct {
	Group
	offset   int64
	dropList bool
}

// onceLists is implemented by a domain whose groups hand over each list
// of versions one after the other and never again once another list
// comes, when listsOnce says so: a worker then lets go of its reading of
// a list once it has judged the list's last group.
type onceLists interface{ listsOnce() bool }

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
