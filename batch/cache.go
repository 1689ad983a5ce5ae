package batch

import (
	"fmt"

	"github.com/prerel/prerel/engine"
)

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
