package compare

import (
	"math/bits"
	"runtime/debug"

	"github.com/prerel/prerel/engine"
)

// judging is what the worker works out of a group first, with no lock:
// every policy's verdicts, as bytes and as bit planes, and per pair the
// versions where it diverges.
type judging struct {
	errs     []error            // per policy: its refusal of the constraint
	verdicts [][]engine.Verdict // [policy][version]
	lo, hi   [][]uint64         // [policy][word]: bit 0 and bit 1 of each verdict
	diverged []uint64           // the versions where the policies do not all agree
	diverge  []int64            // per pair: the versions where it diverges
}

// judge fills the verdicts and bit planes of every policy for the group.
// It reports whether some verdict is not one of engine's three, which the
// bit planes cannot tell apart.
func (w *worker) judge(g Group) (odd bool) {
	n := len(g.Versions)
	words := (n + 63) / 64
	for p, pol := range w.policies {
		w.policy, w.version = p, ""
		if cap(w.verdicts[p]) < n {
			w.verdicts[p] = make([]engine.Verdict, n)
			w.lo[p] = make([]uint64, words)
			w.hi[p] = make([]uint64, words)
		}
		out := w.verdicts[p][:n]
		w.verdicts[p] = out
		m, err := w.list.table(p, pol).Compile(g.Constraint)
		w.errs[p] = err
		if err != nil {
			for i := range out {
				out[i] = engine.Invalid
			}
		} else {
			w.verdictsOf(m, out, g)
		}
		w.lo[p], w.hi[p] = w.lo[p][:words], w.hi[p][:words]
		odd = bitPlanes(out, w.lo[p], w.hi[p]) || odd
	}
	return odd
}

// bitPlanes sets lo and hi, of one word per 64 verdicts, to bit 0 and bit
// 1 of each verdict of out, a word at a time, and reports whether some
// verdict is none of engine's three.
func bitPlanes(out []engine.Verdict, lo, hi []uint64) (odd bool) {
	var most engine.Verdict
	for k := range lo {
		var l, h uint64
		for i, v := range out[k*64 : min(len(out), (k+1)*64)] {
			l |= uint64(v&1) << (i & 63)
			h |= uint64(v>>1&1) << (i & 63)
			most = max(most, v)
		}
		lo[k], hi[k] = l, h
	}
	return most > engine.Invalid
}

// verdictsOf has m judge every version of the group into out. When the
// policy panics, it finds the version it panics on before the panic goes
// on to run's recovery.
func (w *worker) verdictsOf(m engine.TableMatcher, out []engine.Verdict, g Group) {
	defer func() {
		if r := recover(); r != nil {
			w.stack = debug.Stack()
			w.version = panickingVersion(w.policies[w.policy], g)
			panic(r)
		}
	}()
	m.Verdicts(out)
}

// panickingVersion is the first version of the group that p panics on
// when it judges the versions one at a time on text, or "" when it panics
// on none of them alone.
func panickingVersion(p engine.Policy, g Group) string {
	var m engine.Matcher
	if panics(func() {
		var err error
		if m, err = p.Compile(g.Constraint); err != nil {
			m = nil
		}
	}) || isNilMatcher(m) {
		return ""
	}
	for _, v := range g.Versions {
		if panics(func() { m.Match(v) }) {
			return v
		}
	}
	return ""
}

// panics reports whether f panics.
func panics(f func()) (panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	f()
	return false
}

// countPairs counts, per pair, the versions of the group where it
// diverges, and marks the versions where the policies do not all agree.
func (w *worker) countPairs(n int, odd bool) {
	words := (n + 63) / 64
	if cap(w.diverged) < words {
		w.diverged = make([]uint64, words)
	}
	w.diverged = w.diverged[:words]
	clear(w.diverged)
	if odd {
		w.countPairsByByte(n)
		return
	}
	// The policies do not all agree where one differs from the first.
	for p := 1; p < len(w.lo); p++ {
		lo, hi := w.lo[p][:words], w.hi[p][:words]
		for i, x := range w.diverged {
			w.diverged[i] = x | (lo[i] ^ w.lo[0][i]) | (hi[i] ^ w.hi[0][i])
		}
	}
	for k, pr := range w.pairs {
		alo, ahi := w.lo[pr[0]][:words], w.hi[pr[0]][:words]
		blo, bhi := w.lo[pr[1]][:words], w.hi[pr[1]][:words]
		d := 0
		for i := range alo {
			d += bits.OnesCount64((alo[i] ^ blo[i]) | (ahi[i] ^ bhi[i]))
		}
		w.diverge[k] = int64(d)
	}
}

// countPairsByByte is countPairs verdict by verdict, for a group where
// some verdict is none of engine's three.
func (w *worker) countPairsByByte(n int) {
	for k, pr := range w.pairs {
		va, vb := w.verdicts[pr[0]], w.verdicts[pr[1]]
		d := 0
		for i := range n {
			if va[i] != vb[i] {
				d++
				w.diverged[i>>6] |= 1 << (i & 63)
			}
		}
		w.diverge[k] = int64(d)
	}
}
