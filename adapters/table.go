package adapters

import (
	"sync"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/listcache"
)

// The fast path (engine.VersionReader). Every adapter reads a list of
// versions once with its library's parser, keeping each parse error for
// the Invalid result the text path gives, and compiles constraints
// against the list.
//
// A constraint is a list of comparators that each library reads one by
// one: go-version's NewConstraint and go-versions' ParseRubyStyleMulti
// split it at its commas, and the Masterminds translation writes one
// piece per comparator. A table keeps, for each piece it has met, what
// the library read and the library's answer for every version of the
// table (a column of verdicts), so that compiling a constraint whose
// pieces the table has seen makes no library call, and judging a version
// is a look-up in each piece's column, combined as the library combines
// its pieces. Each adapter's table says how. A column is computed with
// the library's own calls on the values the library parsed, once per
// piece and table.
//
// Judge gives the whole result, reason included: it judges the version
// the table read with the matcher Compile would return, exactly as Match
// does on the text. The go-version tables assemble that matcher from the
// pieces; the others compile the constraint text as Compile does, once
// and only when Judge is first called. The tests prove Verdicts and Judge
// equal to Compile and Match on the exhaustive domain.

// verdictPanicked marks, in a column, a version on which the library
// panicked; Verdicts then asks Judge, which recovers as Match does.
const verdictPanicked engine.Verdict = 3

// column is one piece's verdicts for every version of a table: Allow or
// Reject as the library answered, Invalid for a version the library could
// not read, verdictPanicked where the library panicked. panicked says
// whether any entry is verdictPanicked.
type column struct {
	v        []engine.Verdict
	panicked bool
}

// newColumn judges every version with f, which returns Allow, Reject,
// Invalid or verdictPanicked.
func newColumn(n int, f func(i int) engine.Verdict) column {
	c := column{v: make([]engine.Verdict, n)}
	for i := range c.v {
		c.v[i] = f(i)
		if c.v[i] == verdictPanicked {
			c.panicked = true
		}
	}
	return c
}

// and combines columns as a library's conjunction that stops at the
// first piece that does not admit the version: out[i] is the first entry
// of the columns, in order, that is not Allow, or Allow. out has the
// columns' length.
func and(out []engine.Verdict, cols []*column) {
	if len(cols) == 0 {
		for i := range out {
			out[i] = engine.Allow
		}
		return
	}
	copy(out, cols[0].v[:len(out)])
	for _, c := range cols[1:] {
		v := c.v[:len(out)]
		for i, w := range v {
			if out[i] == engine.Allow {
				out[i] = w
			}
		}
	}
}

// resolvePanics replaces every verdictPanicked in out with Judge's
// verdict. It is called only when a column has panicked.
func resolvePanics(out []engine.Verdict, judge func(int) engine.Result) {
	for i, v := range out {
		if v == verdictPanicked {
			out[i] = judge(i).Verdict
		}
	}
}

// memoBytes bounds the columns a table keeps: a table of n versions keeps
// at most memoBytes/n pieces (between minMemo and maxMemo) and computes
// the columns of further pieces for each constraint that has them. They
// are variables for the tests, which also run with no memo at all.
var (
	memoBytes = 8 << 20
	minMemo   = 256
	maxMemo   = 1 << 14
)

// newMemo returns an empty memo for a table of that many versions.
func newMemo[E any](versions int) *listcache.Memo[E] {
	return listcache.NewMemo[E](memoLimit(versions))
}

// memoLimit is how many pieces the memo of a table of that many versions
// keeps.
func memoLimit(versions int) int {
	return min(max(memoBytes/max(versions, 1), minMemo), maxMemo)
}

// lazyResult is the text path's compiled form of one constraint, built on
// the first call, for Judge.
type lazyResult[M any] struct {
	once sync.Once
	m    M
	err  error
}

// get returns the compiled form, compiling it on the first call.
func (l *lazyResult[M]) get(compile func() (M, error)) (M, error) {
	l.once.Do(func() { l.m, l.err = compile() })
	return l.m, l.err
}
