package batch

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/prerel/prerel/engine"
)

// How the evaluator judges a batch. The lines are cut into chunks of at
// least minChunkLines lines, one chunk unless there are fewer policies
// than workers, and each (policy, chunk) is a unit of work for one worker.
// A unit takes the chunk's lines constraint by constraint, and judges
// each distinct version of a constraint's lines once.
//
// The evaluator numbers the versions the tables hold (streamVersions):
// the distinct versions, each at most maxTableVersionLen bytes long, of
// the last batch that brought one the tables did not hold. A unit reads
// them into its policy's engine.VersionTable when a constraint first
// needs it, and keeps the table and the constraints compiled against it
// (a tableCache) from batch to batch while the versions stay the same,
// so that a constraint whose lines come a few at a time, over many
// batches, is compiled once, and each version is read once.
//
// A constraint goes through the table when its lines since the table's
// versions were set (counted by lineCounts, this batch's included) are at
// least minTableLines and at least 1/denseVersions of the table's
// versions. Compiling a constraint against a table of the scope-2
// domain's 83 versions costs as much as judging 3 to 9 of them as text,
// each policy reading a comparator once per table; one whose comparators
// the table has not met costs up to judging every version. The table
// judges the versions with TableMatcher.Judge, or with one Verdicts over
// the whole table, kept with the compiled constraint, when the reasons
// are not needed and the policy reads versions its own way
// (engine.VersionReader). The other constraints go the text path: the
// constraint compiled by the policy (a compileCache keeps it for the
// batches to come) and each version matched as text. So do the lines
// whose version is longer than maxTableVersionLen, which no table holds.
//
// Memory: the versions of the tables take at most MaxLines times
// maxTableVersionLen bytes; a unit holds one table of them, and a
// tableCache and a compileCache bounded as their comments say.
const (
	minTableLines      = 4
	denseVersions      = 8
	maxTableVersionLen = 1 << 10
	minChunkLines      = 512
)

// Evaluator judges batches of cases with every policy of a list. It is
// used by one goroutine at a time, and starts its own workers for each
// batch.
type Evaluator struct {
	policies []engine.Policy
	reasons  bool          // keep the results with their reasons (JSON, or a Failer)
	failers  []int         // the indexes of the policies that are Failers
	scratch  []unitScratch // one per worker
	// caches[j][k] keeps policies[j]'s compiled constraints for the text
	// path of chunk k's lines, tables[j][k] its table of the stream's
	// versions with the constraints compiled against it.
	caches [][]*compileCache
	tables [][]*tableCache
	chunks []evalChunk
	stream streamVersions
	counts lineCounts

	// Scratch of splitting a batch into chunks, indexed by the batch's
	// version and constraint numbers.
	vstream       []int32 // the version's number in the stream, or -1
	inTable       []bool  // the constraint's lines go through the table
	group, cursor []int32
}

// evalChunk is a run of a batch's lines, taken constraint by constraint.
type evalChunk struct {
	lo, hi int
	local  []int32 // per line lo+i: its version's number in the stream when a table judges it, or -1
	order  []int32 // the lines, those of one constraint after another
	starts []int32 // the start in order of each constraint's lines, and len(order)
	table  []bool  // per constraint: its lines go through the table
}

// unitScratch is one worker's memory for judging units, kept from batch
// to batch. Its per-version slices are indexed by the number of a version
// in the stream for the table path, or in the batch for the text path.
type unitScratch struct {
	seen     []int32          // the last constraint that needed the version
	need     []int32          // the versions one constraint needs
	verdicts []engine.Verdict // the version's verdict for the constraint
	results  []engine.Result  // the version's result for the constraint
}

// NewEvaluator returns an evaluator of ps with as many workers (at least
// one), which keeps the results with their reasons when reasons is set
// (Batch.Result), and the verdicts alone otherwise (Batch.Verdict). When
// some policy of ps is a Failer, it keeps the results all the same, to
// tell the cases it judged (Batch.Judged).
func NewEvaluator(ps []engine.Policy, reasons bool, workers int) *Evaluator {
	ev := &Evaluator{
		policies: ps,
		scratch:  make([]unitScratch, max(1, workers)),
		caches:   make([][]*compileCache, len(ps)),
		tables:   make([][]*tableCache, len(ps)),
	}
	for j, p := range ps {
		if _, ok := p.(Failer); ok {
			ev.failers = append(ev.failers, j)
		}
	}
	ev.reasons = reasons || len(ev.failers) > 0
	reasons = ev.reasons
	for j, p := range ps {
		_, reader := p.(engine.VersionReader)
		ev.caches[j] = make([]*compileCache, ev.maxChunks())
		ev.tables[j] = make([]*tableCache, ev.maxChunks())
		for k := range ev.caches[j] {
			ev.caches[j][k] = &compileCache{policy: p}
			ev.tables[j][k] = &tableCache{policy: p, verdicts: reader && !reasons}
		}
	}
	return ev
}

// maxChunks is how many chunks a batch is split into at most: enough for
// every worker to have a unit.
func (ev *Evaluator) maxChunks() int {
	if len(ev.policies) == 0 {
		return 1
	}
	return max(1, (len(ev.scratch)+len(ev.policies)-1)/len(ev.policies))
}

// Judge fills in the verdicts, or results, of every case of b, with every
// policy, in parallel, and then how many of them were judged
// (Batch.Judged). A panic of a policy in a worker is raised again in the
// caller as a *PanicError, once every worker has stopped.
func (ev *Evaluator) Judge(b *Batch) {
	n := len(b.lines)
	size := n * len(ev.policies)
	b.reasons = ev.reasons
	b.judged, b.failure = n, nil
	if ev.reasons {
		b.results = resize(b.results, size)
	} else {
		b.verdicts = resize(b.verdicts, size)
	}
	if size == 0 {
		return
	}
	k := min(ev.maxChunks(), max(1, n/minChunkLines))
	ev.split(b, k)
	units := len(ev.policies) * k
	var next atomic.Int64
	var wg sync.WaitGroup
	panics := make([]*PanicError, len(ev.scratch))
	for w := range min(len(ev.scratch), units) {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			defer recoverPanic(&panics[w])
			for {
				u := int(next.Add(1) - 1)
				if u >= units {
					return
				}
				j, c := u/k, u%k
				ev.judgeUnit(b, j, &ev.chunks[c], ev.caches[j][c], ev.tables[j][c], &ev.scratch[w])
			}
		}(w)
	}
	wg.Wait()
	raisePanics(panics)
	ev.countJudged(b)
}

// countJudged sets b.judged to the number of b's first cases that every
// Failer judged, and b.failure to the failure of the first one that did
// not judge the next case.
func (ev *Evaluator) countJudged(b *Batch) {
	n := len(b.lines)
	for _, j := range ev.failers {
		f := ev.policies[j].(Failer)
		err := f.Err()
		if err == nil {
			continue
		}
		for i, r := range b.results[j*n : j*n+b.judged] {
			if f.NotJudged(r) {
				b.judged, b.failure = i, err
				break
			}
		}
	}
}

// resize returns s with length n, reusing its memory when it has room.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// filled returns s with length n, every element -1.
func filled(s []int32, n int) []int32 {
	s = resize(s, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

// tableVersion reports whether a table holds version.
func tableVersion(version string) bool { return len(version) <= maxTableVersionLen }

// split numbers b's versions in the stream, chooses the constraints that
// go through a table, and cuts b's lines into k chunks of about the same
// length, each ordered by constraint.
func (ev *Evaluator) split(b *Batch, k int) {
	ev.vstream = resize(ev.vstream, len(b.versions))
	gen := ev.stream.gen
	ev.stream.add(b.versions, ev.vstream)
	if ev.stream.gen != gen {
		ev.counts.reset()
	}
	// Count each constraint's lines since the tables' versions were
	// set, in group.
	ev.group = resize(ev.group, len(b.constraints))
	clear(ev.group)
	for i := range b.lines {
		ev.group[b.lines[i].c]++
	}
	ev.inTable = resize(ev.inTable, len(b.constraints))
	versions := len(ev.stream.texts)
	for c, constraint := range b.constraints {
		lines := ev.counts.add(constraint, ev.group[c])
		ev.inTable[c] = lines >= minTableLines && int(lines)*denseVersions >= versions
		ev.group[c] = -1
	}
	for len(ev.chunks) < k {
		ev.chunks = append(ev.chunks, evalChunk{})
	}
	n := len(b.lines)
	for c := range k {
		ch := &ev.chunks[c]
		ch.lo, ch.hi = c*n/k, (c+1)*n/k
		// Number the constraints of the chunk, counting the lines of
		// each in starts.
		ch.starts = ch.starts[:0]
		ch.table = ch.table[:0]
		for i := ch.lo; i < ch.hi; i++ {
			l := &b.lines[i]
			g := ev.group[l.c]
			if g < 0 {
				g = int32(len(ch.starts))
				ev.group[l.c] = g
				ch.starts = append(ch.starts, 0)
				ch.table = append(ch.table, ev.inTable[l.c])
			}
			ch.starts[g]++
		}
		// Turn the counts into starts, and place the lines.
		ev.cursor = resize(ev.cursor, len(ch.starts))
		sum := int32(0)
		for g, count := range ch.starts {
			ch.starts[g], ev.cursor[g] = sum, sum
			sum += count
		}
		ch.starts = append(ch.starts, sum)
		ch.order = resize(ch.order, ch.hi-ch.lo)
		ch.local = resize(ch.local, ch.hi-ch.lo)
		for i := ch.lo; i < ch.hi; i++ {
			l := &b.lines[i]
			g := ev.group[l.c]
			ch.order[ev.cursor[g]] = int32(i)
			ev.cursor[g]++
			ch.local[i-ch.lo] = -1
			if ch.table[g] {
				ch.local[i-ch.lo] = ev.vstream[l.v]
			}
		}
		for i := ch.lo; i < ch.hi; i++ {
			ev.group[b.lines[i].c] = -1
		}
	}
	ev.chunks = ev.chunks[:k]
}

// judgeUnit judges the lines of chunk ch with policy j, as the comment
// above evaluator says.
func (ev *Evaluator) judgeUnit(b *Batch, j int, ch *evalChunk, cache *compileCache, tables *tableCache, s *unitScratch) {
	col := j * len(b.lines)
	// keep keeps the answer for version v, give gives it to line i.
	keep := func(v int32, r engine.Result) {
		s.verdicts[v] = r.Verdict
		if ev.reasons {
			s.results[v] = r
		}
	}
	give := func(i, v int32) {
		if ev.reasons {
			b.results[col+int(i)] = s.results[v]
		} else {
			b.verdicts[col+int(i)] = s.verdicts[v]
		}
	}
	// s.seen[v] is g when version v, numbered in the batch, was judged
	// for constraint g on the text path, and -2-g when v, numbered in
	// the stream, was judged on the table path.
	nv := max(len(ev.stream.texts), len(b.versions))
	s.seen = filled(s.seen, nv)
	s.verdicts = resize(s.verdicts, nv)
	if ev.reasons {
		s.results = resize(s.results, nv)
	}
	for g := range int32(len(ch.starts) - 1) {
		lines := ch.order[ch.starts[g]:ch.starts[g+1]]
		constraint := b.lines[lines[0]].constraint
		inTable := ch.table[g]
		// The text path: the lines outside the table.
		for _, i := range lines {
			if inTable && ch.local[int(i)-ch.lo] >= 0 {
				continue
			}
			v := b.lines[i].v
			if s.seen[v] != g {
				s.seen[v] = g
				keep(v, cache.judge(constraint, b.lines[i].version))
			}
			give(i, v)
		}
		if !inTable {
			continue
		}
		// The table path.
		need := s.need[:0]
		for _, i := range lines {
			if v := ch.local[int(i)-ch.lo]; v >= 0 && s.seen[v] != -2-g {
				s.seen[v] = -2 - g
				need = append(need, v)
			}
		}
		s.need = need
		if len(need) == 0 {
			continue
		}
		e := tables.compile(&ev.stream, constraint)
		switch {
		case e.err != nil:
			r := engine.InvalidResult(e.err)
			for _, v := range need {
				keep(v, r)
			}
		case e.verdicts != nil:
			for _, v := range need {
				s.verdicts[v] = e.verdicts[v]
			}
		default:
			for _, v := range need {
				keep(v, e.m.Judge(int(v)))
			}
		}
		for _, i := range lines {
			if v := ch.local[int(i)-ch.lo]; v >= 0 {
				give(i, v)
			}
		}
	}
}

// PanicError is what Evaluator.Judge panics with when a policy panicked
// in one of its workers: the value the policy panicked with and the stack
// of the worker.
type PanicError struct {
	Value any
	Stack []byte
}

// Error names the value the policy panicked with.
func (e *PanicError) Error() string { return fmt.Sprintf("batch: a policy panicked: %v", e.Value) }

// recoverPanic is deferred by a worker: it keeps a panic of the worker in
// *p, with its stack, for raisePanics.
func recoverPanic(p **PanicError) {
	if v := recover(); v != nil {
		*p = &PanicError{Value: v, Stack: debug.Stack()}
	}
}

// raisePanics panics again with the first panic that recoverPanic kept,
// if any.
func raisePanics(ps []*PanicError) {
	for _, p := range ps {
		if p != nil {
			panic(p)
		}
	}
}
