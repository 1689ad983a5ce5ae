package compare

import (
	"strings"

	"github.com/prerel/prerel/compare/internal/caps"
	"github.com/prerel/prerel/engine"
)

// MaxClasses bounds the divergence classes a report keeps, shared evenly
// among its pairs: a pair keeps at most MaxClasses divided by the number
// of pairs (ClassesPerPair), those with the shortest signatures (then in
// byte order), and counts the cases of the classes it leaves out in
// Pair.CasesLeftOut. The exhaustive domain of DefaultScope and the corpus
// domain stay within it with the twenty-three policies prerel registers,
// but for the pairs of tfupdate on DefaultScope: tfupdate does not read
// the constraint, so it splits from every other rule on nearly every
// case shape (ga-bound vs tfupdate holds 7,478 classes), and its pairs
// keep the shortest. The other pairs need at most 2,142 (ga-bound vs
// terraform-module-versions); 253 pairs of 2,766 keep them all, and a
// random domain of 1,000,000 cases stays under 300 MB (289 MB, where
// 450,000 classes took 273 MB).
const MaxClasses = 700_000

// MaxSplits bounds the splits a report keeps, those with the shortest
// case shapes (then in byte order); Report.SplitCasesLeftOut counts the
// cases of the others.
const MaxSplits = 50_000

// The caps a run keeps within are those of compare/internal/caps: these,
// unless a test lowers them.

// ClassesPerPair is how many classes a report of pairs pairs keeps per
// pair: MaxClasses / pairs, and at least one.
func ClassesPerPair(pairs int) int {
	return max(caps.Classes/max(pairs, 1), 1)
}

// aggregate is what a run keeps: counts per pair and per class, and the
// smallest witness of each class. Its size depends on the number of
// classes, which MaxClasses and MaxSplits bound, not on the number of
// cases.
type aggregate struct {
	cases     int64
	pairs     []pairAgg
	selGroups int64
	selection []selectionAgg // one per pair; nil until a group has a history
	// splits counts the cases where the policies do not all agree, by
	// case shape and the verdicts of every policy in order (one byte
	// each); splitCases counts them all, kept or not.
	splits     *capped[splitKey, splitAgg]
	splitCases int64
}

// splitKey identifies a split: a case shape and the verdict of every
// policy.
type splitKey struct {
	shape, verdicts string
}

func (k splitKey) less(o splitKey) bool {
	if len(k.shape) != len(o.shape) {
		return len(k.shape) < len(o.shape)
	}
	if c := strings.Compare(k.shape, o.shape); c != 0 {
		return c < 0
	}
	return k.verdicts < o.verdicts
}

// splitAgg counts the cases of one split with their smallest witness.
type splitAgg struct {
	count int64
	key   caseKey
}

// addSplit counts n cases in the split (shape, verdicts), the smallest
// of them key.
func (a *aggregate) addSplit(shape, verdicts string, n int64, key caseKey) {
	a.splitCases += n
	k := splitKey{shape, verdicts}
	s := a.splits.get(k)
	if s == nil {
		if s = a.splits.add(k); s == nil {
			return
		}
		*s = splitAgg{count: n, key: key}
		return
	}
	s.count += n
	if key.less(s.key) {
		s.key = key
	}
}

// join adds o into s.
func (s *splitAgg) join(o *splitAgg) {
	s.count += o.count
	if o.key.less(s.key) {
		s.key = o.key
	}
}

type pairAgg struct {
	agree, diverge int64
	classes        *capped[classKey, classAgg]
	// final is the pair's classes when a run's last flush made them
	// without the capped map, which is then empty (classStripe.flush)
	final []classSum
}

// eachClass calls f with every class the pair keeps: its key, its count,
// its smallest case and, from the capped map, its aggregate (nil for a
// class of final).
func (p *pairAgg) eachClass(f func(ck classKey, count int64, least *caseKey, c *classAgg)) {
	for i := range p.final {
		s := &p.final[i]
		f(s.key(), s.count, s.least(), nil)
	}
	p.classes.each(func(ck classKey, c *classAgg) { f(ck, c.count, &c.key, c) })
}

// classCount is the number of classes the pair keeps.
func (p *pairAgg) classCount() int { return len(p.final) + p.classes.len() }

// classKey identifies a class within a pair: the case shape and the two
// verdicts make the signature.
type classKey struct {
	shape string
	a, b  engine.Verdict
}

// less orders classes by the length of their signature, then its bytes:
// the classes a capped pair keeps are those of the shortest, simplest
// signatures.
func (k classKey) less(o classKey) bool {
	if len(k.shape) != len(o.shape) {
		return len(k.shape) < len(o.shape)
	}
	if c := strings.Compare(k.shape, o.shape); c != 0 {
		return c < 0
	}
	return k.a < o.a || k.a == o.a && k.b < o.b
}

// rank orders classes as less does, but for those of the same length
// and first bytes of the shape (newRankedCapped).
func (k classKey) rank() uint64 { return shapeRank(k.shape) }

// rank orders splits as less does, but for those of the same length and
// first bytes of the shape (newRankedCapped).
func (k splitKey) rank() uint64 { return shapeRank(k.shape) }

// shapeRank is the length of shape, in the top byte, then its first
// seven bytes: shapes of a smaller rank are shorter or, of the same
// length, smaller in byte order. Shapes of 255 bytes or more all rank
// the same.
func shapeRank(shape string) uint64 {
	if len(shape) >= 0xff {
		return 0xff << 56
	}
	var r uint64
	for i := range 7 {
		r <<= 8
		if i < len(shape) {
			r |= uint64(shape[i])
		}
	}
	return uint64(len(shape))<<56 | r
}

// classAgg is a class of a pair as a run adds it up: its cases, its
// witness (the smallest case) and, once they are fetched, the two
// policies' reasons on the witness.
type classAgg struct {
	count   int64
	key     caseKey
	reasons *[2]string // nil until fetched
}

// reason is policy side i's reason on the witness (0 for the pair's
// first policy, 1 for its second), "" until fetched.
func (c *classAgg) reason(i int) string {
	if c.reasons == nil {
		return ""
	}
	return c.reasons[i]
}

// reasonSlots returns where the two policies' reasons on the witness go.
func (c *classAgg) reasonSlots() (a, b *string) {
	if c.reasons == nil {
		c.reasons = new([2]string)
	}
	return &c.reasons[0], &c.reasons[1]
}

func newAggregate(pairs int) *aggregate {
	a := &aggregate{pairs: make([]pairAgg, pairs), splits: newRankedCapped[splitKey, splitAgg](caps.Splits, splitKey.less, splitKey.rank)}
	for i := range a.pairs {
		a.pairs[i].classes = newRankedCapped[classKey, classAgg](ClassesPerPair(pairs), classKey.less, classKey.rank)
	}
	return a
}

// join adds o into c.
func (c *classAgg) join(o *classAgg) {
	c.count += o.count
	if o.key.less(c.key) {
		c.key, c.reasons = o.key, nil
		if o.reasons != nil {
			r := *o.reasons
			c.reasons = &r
		}
	}
}

// merge adds o into a.
func (a *aggregate) merge(o *aggregate) {
	a.cases += o.cases
	for i := range a.pairs {
		p, q := &a.pairs[i], &o.pairs[i]
		p.agree += q.agree
		p.diverge += q.diverge
		p.classes.merge(q.classes, (*classAgg).join)
	}
	a.splits.merge(o.splits, (*splitAgg).join)
	a.splitCases += o.splitCases
	a.selGroups += o.selGroups
	if o.selection == nil {
		return
	}
	if a.selection == nil {
		a.selection = make([]selectionAgg, len(o.selection))
	}
	for i := range a.selection {
		a.selection[i].merge(&o.selection[i])
	}
}
