package compare

import (
	"encoding/binary"
	"math/bits"

	"github.com/prerel/prerel/engine"
)

// filing is what the worker works out of a group's diverging versions,
// with no lock: its case shapes, its local splits, and the refusals that
// sign the classes of the cases some policy judged Invalid.
type filing struct {
	shapes groupShapes
	// local split key -> index in local: packed when every verdict of
	// the group fits in two bits and a word holds them all
	// (packedSplitKey), otherwise a string of the shape's number and a
	// byte per policy
	packed   map[packedSplitKey]int32
	splits   map[string]int32
	local    []localSplit
	refused  []string // per policy: its refusal of the constraint, "" until needed
	vrefused []string // per shape number: the refusal of its version, "" until needed
}

// localSplit is the diverging versions of one group that share a case
// shape and the verdict of every policy: every pair's class of each of
// them is the same.
type localSplit struct {
	shape    int32  // number within the group (groupShapes.shapes)
	verdicts string // one byte per policy
	count    int64
	witness  int     // the version of the smallest case
	key      caseKey // the smallest case's
	// the split's key in the index (worker.vkeys[vkey[0]:vkey[1]])
	// and its hash
	vkey  [2]int32
	vhash uint64
}

// packedSplitKey is the key of a local split when every verdict of its
// group is one of engine's three and there are at most
// maxPackedPolicies policies: the number of its shape, and the verdict of
// policy p in bits 2p and 2p+1 of verdicts.
type packedSplitKey struct {
	shape    int32
	verdicts uint64
}

// maxPackedPolicies is how many policies' verdicts a packedSplitKey
// holds.
const maxPackedPolicies = 32

// fileLocalSplits files every version where the policies do not all
// agree under its local split; odd is judge's, set when some verdict is
// none of engine's three.
func (w *worker) fileLocalSplits(ci *constraintInfo, odd bool) {
	w.shapes.reset(ci)
	clear(w.local)
	w.local = w.local[:0]
	packed := !odd && len(w.policies) <= maxPackedPolicies
	if packed {
		if w.packed == nil {
			w.packed = map[packedSplitKey]int32{}
		}
		clear(w.packed)
	} else {
		clear(w.splits)
	}
	for wi, x := range w.diverged {
		for x != 0 {
			i := wi<<6 | bits.TrailingZeros64(x)
			x &= x - 1
			vi := w.list.info(i)
			shape := w.shapes.shapeID(vi)
			var j int32
			var ok bool
			if packed {
				k := packedSplitKey{shape: shape}
				for p := range w.verdicts {
					k.verdicts |= uint64(w.verdicts[p][i]) << (2 * p)
				}
				if j, ok = w.packed[k]; !ok {
					w.packed[k] = int32(len(w.local))
				}
			} else {
				w.key = binary.LittleEndian.AppendUint32(w.key[:0], uint32(shape))
				for p := range w.verdicts {
					w.key = append(w.key, byte(w.verdicts[p][i]))
				}
				if j, ok = w.splits[string(w.key)]; !ok {
					w.splits[string(w.key)] = int32(len(w.local))
				}
			}
			key := makeCaseKey(ci, vi)
			if ok {
				s := &w.local[j]
				s.count++
				if key.less(s.key) {
					s.witness, s.key = i, key
				}
				continue
			}
			w.local = append(w.local, localSplit{shape: shape, verdicts: w.verdictsAt(i), count: 1, witness: i, key: key})
		}
	}
}

// verdictsAt is the verdicts of version i of the group, a byte per
// policy.
func (w *worker) verdictsAt(i int) string {
	b := make([]byte, len(w.verdicts))
	for p := range w.verdicts {
		b[p] = byte(w.verdicts[p][i])
	}
	return string(b)
}

// prepareRefusals works out, before the aggregate is locked, the
// refusals the group's classes are signed with: for each local split and
// each policy that judged it Invalid while another did not, what that
// policy refused.
func (w *worker) prepareRefusals() {
	w.vrefused = resetSlice(w.vrefused, len(w.shapes.shapes), "")
	clear(w.refused)
	for j := range w.local {
		s := &w.local[j]
		for p := range w.policies {
			if engine.Verdict(s.verdicts[p]) == engine.Invalid {
				w.refusal(p, s)
			}
		}
	}
}

// refusal is the case part of the signature of the cases of local split
// s that policy p judged Invalid.
func (w *worker) refusal(p int, s *localSplit) string {
	if w.errs[p] == nil {
		// The version part of a shape decides the refusal of its version.
		r := w.vrefused[s.shape]
		if r == "" {
			r = versionRefusal(w.list.info(s.witness))
			w.vrefused[s.shape] = r
		}
		return r
	}
	r := w.refused[p]
	if r == "" {
		w.policy, w.version = p, ""
		r = refusedConstraint(tableCompiles(w.list.table(p, w.policies[p])), w.shapes.ci, w.shapes.spaced)
		w.refused[p] = r
	}
	return r
}

// resetSlice returns s with n elements, each v.
func resetSlice[T any](s []T, n int, v T) []T {
	s = s[:0]
	for range n {
		s = append(s, v)
	}
	return s
}
