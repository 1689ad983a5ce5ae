package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/lines"
)

// maxLine bounds one input line of eval and of version files, not
// counting the line break.
const maxLine = lines.Max

// evalBatch is how many lines eval judges in parallel before writing them.
const evalBatch = 4096

// evalBatchBytes bounds the input text of one batch: a batch is judged as
// soon as its lines hold this much, however few they are.
const evalBatchBytes = 8 << 20

// evalCommand is prerel eval.
var evalCommand = command{
	name:    "eval",
	args:    "[flags] < CONSTRAINT<TAB>VERSION lines",
	summary: "batch mode for scripts: one verdict line per input line",
	help: `Read CONSTRAINT<TAB>VERSION lines from stdin and write exactly one line per
input line, in order: CONSTRAINT<TAB>VERSION<TAB>VERDICT..., the constraint
and version echoed byte for byte, one verdict column per policy in the order
of --policies, each allow, reject or invalid. A line that is not two
tab-separated fields is an error naming its line number (exit 2). One
trailing "\r" is dropped. Empty input gives empty output. --format json
writes one object per line, with the reasons; there, a constraint or version
that is not valid UTF-8 also comes as constraint_base64 or version_base64,
its exact bytes.`,
	policySources: true,
	flags: func(fs *flagSet) func(*env, []string) error {
		names := addPolicies(fs)
		format := addFormat(fs, "tsv", "json")
		return func(e *env, args []string) error {
			if len(args) != 0 {
				return usagef("eval reads stdin and takes no arguments, got %q", args[0])
			}
			ps, err := e.resolve(*names)
			if err != nil {
				return err
			}
			return evalStream(e.stdin, e.stdout, ps, format.value == "json", runtime.GOMAXPROCS(0))
		}
	},
}

// evalStream is eval: it judges the lines of r with every policy of ps,
// with as many workers, and writes the answers to w, as JSON lines with
// the reasons when asJSON is set.
func evalStream(r io.Reader, w io.Writer, ps []engine.Policy, asJSON bool, workers int) error {
	out := newEvalWriter(w, asJSON, ps)
	ev := newEvaluator(ps, asJSON, workers)
	err := eachBatch(r, func(b *lineBatch) error {
		ev.judge(b)
		return failure(out.write(b))
	})
	if ferr := failure(out.flush()); err == nil {
		err = ferr
	}
	return err
}

// lineBatch is a batch of input lines. Their texts are interned: each
// distinct constraint and version of the batch is one string, numbered in
// the order it first appears, so that the evaluator reads each version
// once per policy. The evaluator fills in the verdicts, or the results
// with their reasons, of every line and policy.
type lineBatch struct {
	lines       []evalCase
	constraints []string // the distinct constraints; evalCase.c indexes it
	versions    []string // the distinct versions; evalCase.v indexes it
	cindex      map[string]int32
	vindex      map[string]int32

	// verdicts (without reasons) or results (with them), policy by policy:
	// policy j's answer for line i is at j*len(lines)+i.
	verdicts []engine.Verdict
	results  []engine.Result
}

// evalCase is one input line.
type evalCase struct {
	constraint, version string
	c, v                int32 // indices in lineBatch.constraints and versions
}

func newLineBatch() *lineBatch {
	return &lineBatch{
		lines:  make([]evalCase, 0, evalBatch),
		cindex: make(map[string]int32),
		vindex: make(map[string]int32),
	}
}

// add appends the line of constraint and version, which it copies unless
// the batch already holds the same text.
func (b *lineBatch) add(constraint, version []byte) {
	c := intern(b.cindex, &b.constraints, constraint)
	v := intern(b.vindex, &b.versions, version)
	b.lines = append(b.lines, evalCase{constraint: b.constraints[c], version: b.versions[v], c: c, v: v})
}

// intern returns the number of text in texts, adding a copy of it when it
// is new. Looking up a []byte converted to string does not allocate.
func intern(index map[string]int32, texts *[]string, text []byte) int32 {
	if i, ok := index[string(text)]; ok {
		return i
	}
	s := string(text)
	i := int32(len(*texts))
	*texts = append(*texts, s)
	index[s] = i
	return i
}

// reset empties the batch for the next lines, keeping its memory.
func (b *lineBatch) reset() {
	clear(b.lines)
	clear(b.constraints)
	clear(b.versions)
	b.lines, b.constraints, b.versions = b.lines[:0], b.constraints[:0], b.versions[:0]
	clear(b.cindex)
	clear(b.vindex)
}

// eachBatch reads lines from r, splits them into cases and hands them to f
// in batches of at most evalBatch lines and about evalBatchBytes of text,
// in order. A line ends at "\n"; one "\r" before it, or at the end of the
// input, is dropped. A malformed or too long line stops the reading with
// an error naming it, after the lines before it have been handed over.
// The batch is f's until f returns; then it is reused.
func eachBatch(r io.Reader, f func(*lineBatch) error) error {
	sc := bufio.NewScanner(r)
	// Room for the longest line with "\r\n"; longer lines are refused
	// below or by the scanner, with the same message.
	sc.Buffer(make([]byte, 64*1024), maxLine+2)
	sc.Split(lines.Split)
	batch := newLineBatch()
	size := 0
	line := 0
	for sc.Scan() {
		line++
		text := lines.TrimCR(sc.Bytes())
		if len(text) > maxLine {
			if err := flushBatch(batch, f); err != nil {
				return err
			}
			return stdinError(line, bufio.ErrTooLong)
		}
		tab := bytes.IndexByte(text, '\t')
		if tab < 0 || bytes.IndexByte(text[tab+1:], '\t') >= 0 {
			if err := flushBatch(batch, f); err != nil {
				return err
			}
			fields := bytes.Count(text, []byte("\t")) + 1
			return usagef("stdin line %d: expected 2 tab-separated fields (CONSTRAINT<TAB>VERSION), found %d", line, fields)
		}
		batch.add(text[:tab], text[tab+1:])
		size += len(text)
		if len(batch.lines) == evalBatch || size >= evalBatchBytes {
			if err := f(batch); err != nil {
				return err
			}
			batch.reset()
			size = 0
		}
	}
	if err := sc.Err(); err != nil {
		if ferr := flushBatch(batch, f); ferr != nil {
			return ferr
		}
		return stdinError(line+1, err)
	}
	return flushBatch(batch, f)
}

// stdinError is a failure to read stdin at a line: a line too long is bad
// input, anything else an outside failure.
func stdinError(line int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return usagef("stdin line %d: line longer than %d bytes", line, maxLine)
	}
	return failure(fmt.Errorf("stdin line %d: %w", line, err))
}

func flushBatch(batch *lineBatch, f func(*lineBatch) error) error {
	if len(batch.lines) == 0 {
		return nil
	}
	return f(batch)
}

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
// Memory: the versions of the tables take at most evalBatch times
// maxTableVersionLen bytes; a unit holds one table of them, and a
// tableCache and a compileCache bounded as their comments say.
const (
	minTableLines      = 4
	denseVersions      = 8
	maxTableVersionLen = 1 << 10
	minChunkLines      = 512
)

// evaluator judges batches of lines with every policy.
type evaluator struct {
	policies []engine.Policy
	reasons  bool          // keep the results with their reasons (JSON)
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

// newEvaluator returns an evaluator of ps with as many workers (at least
// one), which keeps the reasons when reasons is set.
func newEvaluator(ps []engine.Policy, reasons bool, workers int) *evaluator {
	ev := &evaluator{
		policies: ps,
		reasons:  reasons,
		scratch:  make([]unitScratch, max(1, workers)),
		caches:   make([][]*compileCache, len(ps)),
		tables:   make([][]*tableCache, len(ps)),
	}
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
func (ev *evaluator) maxChunks() int {
	if len(ev.policies) == 0 {
		return 1
	}
	return max(1, (len(ev.scratch)+len(ev.policies)-1)/len(ev.policies))
}

// judge fills in the verdicts, or results, of every line of b, in
// parallel. A panic in a worker is raised again in the caller, once every
// worker has stopped.
func (ev *evaluator) judge(b *lineBatch) {
	n := len(b.lines)
	size := n * len(ev.policies)
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
	panics := make([]*workerPanic, len(ev.scratch))
	for w := range min(len(ev.scratch), units) {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			defer recoverWorker(&panics[w])
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
	raiseWorkerPanics(panics)
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
func (ev *evaluator) split(b *lineBatch, k int) {
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
func (ev *evaluator) judgeUnit(b *lineBatch, j int, ch *evalChunk, cache *compileCache, tables *tableCache, s *unitScratch) {
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

// streamVersions are the versions a stream's tables hold: the distinct
// versions, numbered in the order they first came, of the last batch
// that brought a version they did not hold, leaving out those no table
// holds. gen changes whenever they do.
type streamVersions struct {
	texts []string
	index map[string]int32
	gen   int
}

// add numbers versions, a batch's distinct versions, in the stream:
// number[v] becomes the stream's number of versions[v], or -1 when no
// table holds it. When the stream does not hold one of them, it starts
// over with them.
func (s *streamVersions) add(versions []string, number []int32) {
	fresh := false
	for v, text := range versions {
		i, ok := s.index[text]
		if !ok {
			i = -1
			fresh = fresh || tableVersion(text)
		}
		number[v] = i
	}
	if !fresh {
		return
	}
	// New memory: the tables read from the old texts keep them.
	s.gen++
	s.texts, s.index = nil, make(map[string]int32, len(versions))
	for v, text := range versions {
		number[v] = -1
		if tableVersion(text) {
			number[v] = int32(len(s.texts))
			s.index[text] = number[v]
			s.texts = append(s.texts, text)
		}
	}
}

// lineCounts counts the lines of each constraint in the batches since
// the tables' versions were set, for at most maxCachedConstraints
// constraints of at most maxCachedConstraintLen bytes each,
// maxCachedBytes in all (a textMap). A longer constraint is counted in
// its batch alone.
type lineCounts struct{ lines textMap[int32] }

// reset forgets every count.
func (c *lineCounts) reset() { c.lines.reset() }

// add adds n lines of constraint, and returns its lines so far.
func (c *lineCounts) add(constraint string, n int32) int32 {
	if len(constraint) > maxCachedConstraintLen {
		return n
	}
	total, _ := c.lines.get(constraint)
	c.lines.put(constraint, total+n, len(constraint), maxCachedBytes)
	return total + n
}

// textMap keeps values by text, at most maxCachedConstraints of them and
// a number of bytes, each counted as its put says; when a new one would
// exceed either bound, it starts over empty.
type textMap[V any] struct {
	m     map[string]V
	bytes int // what the values kept count
}

func (t *textMap[V]) get(key string) (V, bool) {
	v, ok := t.m[key]
	return v, ok
}

// put keeps v for key, a new key counting size bytes of at most maxBytes
// in all, and reports whether the map started over to make room.
func (t *textMap[V]) put(key string, v V, size, maxBytes int) (startedOver bool) {
	if _, ok := t.m[key]; ok {
		t.m[key] = v
		return false
	}
	if t.m == nil {
		t.m = make(map[string]V)
	} else if len(t.m) >= maxCachedConstraints || t.bytes+size > maxBytes {
		t.m = make(map[string]V)
		t.bytes = 0
		startedOver = true
	}
	t.m[key] = v
	t.bytes += size
	return startedOver
}

// reset empties the map.
func (t *textMap[V]) reset() {
	t.m = nil
	t.bytes = 0
}

// Bounds of a tableCache: the bytes its entries may take, each counted as
// tableEntryBytes for its matcher and the length of its constraint and
// of its verdicts. A compiled matcher takes a few hundred bytes to a few
// kilobytes; the table keeps what its policy read of the constraints'
// comparators besides.
const (
	maxTableCacheBytes = 2 << 20
	tableEntryBytes    = 1 << 10
)

// tableCache is one policy's table of a stream's versions, read when a
// constraint first needs it, and the constraints compiled against it, of
// at most maxCachedConstraintLen bytes each: at most
// maxCachedConstraints of them, and maxTableCacheBytes as counted above.
// When either would be exceeded it starts over, the table read again, so
// that what the table keeps of the constraints goes too. Both are dropped
// when the stream's versions change. It is used by one goroutine at a
// time.
type tableCache struct {
	policy   engine.Policy
	verdicts bool // keep each constraint's Verdicts
	gen      int  // the stream's gen that table and entries belong to
	table    engine.VersionTable
	entries  textMap[*tableEntry]
	compiles int // constraints compiled, for tests
}

// tableEntry is a constraint compiled against a table: the matcher, or
// the error, and with the matcher the verdict of every version of the
// table when they are kept.
type tableEntry struct {
	m        engine.TableMatcher
	err      error
	verdicts []engine.Verdict
}

// compile returns constraint compiled against the table of stream's
// versions, compiled now or taken from the cache.
func (c *tableCache) compile(stream *streamVersions, constraint string) *tableEntry {
	if c.gen != stream.gen {
		c.gen, c.table = stream.gen, nil
		c.entries.reset()
	}
	if e, ok := c.entries.get(constraint); ok {
		return e
	}
	if c.table == nil {
		c.table = engine.ReadVersions(c.policy, stream.texts)
	}
	c.compiles++
	e := &tableEntry{}
	e.m, e.err = c.table.Compile(constraint)
	if e.err == nil && e.m == nil {
		e.err = nilMatcherError(c.policy)
	}
	if e.err == nil && c.verdicts {
		e.verdicts = make([]engine.Verdict, c.table.Len())
		e.m.Verdicts(e.verdicts)
	}
	size := tableEntryBytes + len(constraint) + len(e.verdicts)
	if len(constraint) <= maxCachedConstraintLen && c.entries.put(constraint, e, size, maxTableCacheBytes) {
		// e keeps the old table; the next constraint reads a new one.
		c.table = nil
	}
	return e
}

// nilMatcherError is the refusal of a constraint that p compiled to no
// matcher and no error.
func nilMatcherError(p engine.Policy) error {
	return fmt.Errorf("policy %q %w", p.Name(), engine.ErrNilMatcher)
}

// Bounds of a compileCache. A compiled constraint takes memory in
// proportion to its length, many times over: the cache is bounded by the
// length of the constraints it holds, and keeps none longer than
// maxCachedConstraintLen, which is compiled for its line alone. An
// evaluator has one cache per policy and chunk, at most as many as
// workers and policies together.
const (
	maxCachedConstraints   = 8192
	maxCachedConstraintLen = 1 << 10
	maxCachedBytes         = 256 << 10
)

// compileCache keeps one policy's compiled matchers of recent
// constraints, at most maxCachedConstraints of them and maxCachedBytes of
// constraint text; when either would be exceeded, it starts over empty.
// It is used by one goroutine at a time.
type compileCache struct {
	policy  engine.Policy
	entries textMap[compiled] // counting the length of each constraint
}

type compiled struct {
	m   engine.Matcher
	err error
}

// judge matches version against constraint, compiled by the cache's
// policy or taken from the cache.
func (c *compileCache) judge(constraint, version string) engine.Result {
	m, ok := c.entries.get(constraint)
	if !ok {
		m = c.compile(constraint)
		if len(constraint) <= maxCachedConstraintLen {
			c.entries.put(constraint, m, len(constraint), maxCachedBytes)
		}
	}
	if m.err != nil {
		return engine.InvalidResult(m.err)
	}
	return m.m.Match(version)
}

// compile compiles constraint with the cache's policy. A policy that
// returns neither a matcher nor an error refuses the constraint with
// engine.ErrNilMatcher.
func (c *compileCache) compile(constraint string) compiled {
	m, err := c.policy.Compile(constraint)
	if m == nil && err == nil {
		err = nilMatcherError(c.policy)
	}
	return compiled{m, err}
}

// evalWriter writes judged lines to stdout, buffered, as TSV or as JSON
// lines.
type evalWriter struct {
	w        *bufio.Writer
	policies []engine.Policy

	// JSON only. A line is encoded into line by enc. The lines of a
	// batch with the same constraint and version are the same: the
	// first is encoded, and kept in encoded (by the numbers of its
	// constraint and version in the batch) as long as the lines kept add
	// up to at most maxEncodedBytes; the others are copies.
	enc          *json.Encoder // nil for TSV
	line         bytes.Buffer
	results      []engine.Result // the results of one line
	encoded      map[uint64][]byte
	encodedBytes int
}

// maxEncodedBytes bounds the JSON lines that an evalWriter keeps for a
// batch.
const maxEncodedBytes = 4 << 20

func newEvalWriter(w io.Writer, asJSON bool, ps []engine.Policy) *evalWriter {
	out := &evalWriter{w: bufio.NewWriterSize(w, 64*1024), policies: ps}
	if asJSON {
		out.enc = newJSONEncoder(&out.line)
		out.results = make([]engine.Result, len(ps))
		out.encoded = make(map[uint64][]byte)
	}
	return out
}

// verdictColumns are the TSV columns of the verdicts, tab first.
var verdictColumns = [...]string{
	engine.Reject:  "\treject",
	engine.Allow:   "\tallow",
	engine.Invalid: "\tinvalid",
}

// write writes one line per line of b, in order.
func (out *evalWriter) write(b *lineBatch) error {
	if out.enc != nil {
		return out.writeJSON(b)
	}
	n := len(b.lines)
	w := out.w
	for i := range b.lines {
		l := &b.lines[i]
		w.WriteString(l.constraint)
		w.WriteByte('\t')
		w.WriteString(l.version)
		for j := range out.policies {
			if v := b.verdicts[j*n+i]; int(v) < len(verdictColumns) {
				w.WriteString(verdictColumns[v])
			} else {
				w.WriteByte('\t')
				w.WriteString(v.String())
			}
		}
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes the lines of b as JSON lines, in order.
func (out *evalWriter) writeJSON(b *lineBatch) error {
	clear(out.encoded)
	out.encodedBytes = 0
	n := len(b.lines)
	for i := range b.lines {
		l := &b.lines[i]
		key := uint64(uint32(l.c))<<32 | uint64(uint32(l.v))
		if line, ok := out.encoded[key]; ok {
			if _, err := out.w.Write(line); err != nil {
				return err
			}
			continue
		}
		for j := range out.results {
			out.results[j] = b.results[j*n+i]
		}
		out.line.Reset()
		if err := out.enc.Encode(newEvalJSONLine(out.policies, l.constraint, l.version, out.results)); err != nil {
			return err
		}
		if _, err := out.w.Write(out.line.Bytes()); err != nil {
			return err
		}
		if out.encodedBytes+out.line.Len() <= maxEncodedBytes {
			out.encoded[key] = bytes.Clone(out.line.Bytes())
			out.encodedBytes += out.line.Len()
		}
	}
	return nil
}

// evalJSONLine is one line of eval's JSON output: the engine's EvalLine
// and, for a constraint or version that is not valid UTF-8 (which JSON
// strings cannot hold, so that its invalid bytes read as U+FFFD there),
// its exact bytes in standard base64.
type evalJSONLine struct {
	engine.EvalLine
	ConstraintBase64 string `json:"constraint_base64,omitempty"`
	VersionBase64    string `json:"version_base64,omitempty"`
}

// newEvalJSONLine is the JSON line of a constraint and a version with
// their results, one per policy of ps.
func newEvalJSONLine(ps []engine.Policy, constraint, version string, results []engine.Result) evalJSONLine {
	line := evalJSONLine{EvalLine: engine.NewEvalLine(ps, constraint, version, results)}
	if !utf8.ValidString(constraint) {
		line.ConstraintBase64 = base64.StdEncoding.EncodeToString([]byte(constraint))
	}
	if !utf8.ValidString(version) {
		line.VersionBase64 = base64.StdEncoding.EncodeToString([]byte(version))
	}
	return line
}

func (out *evalWriter) flush() error { return out.w.Flush() }
