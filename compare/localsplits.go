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
	shapes   groupShapes
	splits   map[string]int32 // local split key -> index in local
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
	key      caseKey // the smallest case's, once filed
	// the split's key in the stripes' indexes (worker.vkeys[vkey[0]:vkey[1]])
	// and its hash
	vkey  [2]int32
	vhash uint64
}

// fileLocalSplits files every version where the policies do not all
// agree under its local split.
func (w *worker) fileLocalSplits(ci *constraintInfo) {
	w.shapes.reset(ci)
	clear(w.splits)
	clear(w.local)
	w.local = w.local[:0]
	for wi, x := range w.diverged {
		for x != 0 {
			i := wi<<6 | bits.TrailingZeros64(x)
			x &= x - 1
			vi := w.list.info(i)
			shape := w.shapes.shapeID(vi)
			w.key = binary.LittleEndian.AppendUint32(w.key[:0], uint32(shape))
			for p := range w.verdicts {
				w.key = append(w.key, byte(w.verdicts[p][i]))
			}
			if j, ok := w.splits[string(w.key)]; ok {
				s := &w.local[j]
				s.count++
				if makeCaseKey(ci, vi).less(makeCaseKey(ci, w.list.info(s.witness))) {
					s.witness = i
				}
				continue
			}
			key := string(w.key)
			w.splits[key] = int32(len(w.local))
			w.local = append(w.local, localSplit{shape: shape, verdicts: key[4:], count: 1, witness: i})
		}
	}
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
		r = refusedConstraint(w.policies[p], w.shapes.ci, w.shapes.spaced)
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
