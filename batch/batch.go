// Package batch judges batches of cases, each a constraint and a version,
// with several policies at once, as "prerel eval" does: every case of a
// batch gets one verdict, or one result with its reason, per policy, in
// the order of the cases.
//
// An Evaluator keeps what it learns from batch to batch (each policy's
// table of the versions that keep coming and the constraints compiled
// against it, and the constraints compiled for the text path), so that a
// stream of batches is judged as fast as its repetitions allow. It judges
// exactly as each policy's Compile and Match do; engine's fast path
// (engine.VersionTable) only saves the work.
//
// A policy that can fail as a whole, such as a policy command, is a
// Failer: once it has failed, the cases it did not judge are not verdicts,
// and Batch.Judged says how many of a batch's first cases every policy
// judged, so that a reader of the batch stops there.
//
// Stream is "prerel eval" whole: it reads CONSTRAINT<TAB>VERSION lines,
// judges them in batches and writes one line, or one JSON object
// (JSONLine), per line read, in order.
package batch

import (
	"github.com/prerel/prerel/engine"
)

// MaxLines is how many cases a batch holds at most before it is judged:
// "prerel eval" judges that many lines in parallel before it writes them.
const MaxLines = 4096

// MaxBytes bounds the text of one batch: a reader of cases judges a batch
// as soon as its cases hold this much, however few they are.
const MaxBytes = 8 << 20

// Batch is a batch of cases. Their texts are interned: each distinct
// constraint and version of the batch is one string, numbered in the
// order it first appears, so that the evaluator reads each version once
// per policy. Evaluator.Judge fills in the verdicts, or the results with
// their reasons, of every case and policy. The zero Batch is empty and
// ready to use.
type Batch struct {
	lines       []evalCase
	constraints []string // the distinct constraints; evalCase.c indexes it
	versions    []string // the distinct versions; evalCase.v indexes it
	cindex      map[string]int32
	vindex      map[string]int32

	// verdicts (without reasons) or results (with them, when reasons is
	// set), policy by policy: policy j's answer for case i is at
	// j*len(lines)+i.
	verdicts []engine.Verdict
	results  []engine.Result
	reasons  bool

	// judged is how many of the first cases every policy judged; failure
	// is the failure of the policy that judged no more (see Failer).
	judged  int
	failure error
}

// evalCase is one case.
type evalCase struct {
	constraint, version string
	c, v                int32 // indices in Batch.constraints and versions
}

// New returns an empty batch with room for MaxLines cases.
func New() *Batch {
	return &Batch{
		lines:  make([]evalCase, 0, MaxLines),
		cindex: make(map[string]int32),
		vindex: make(map[string]int32),
	}
}

// Add appends the case of constraint and version, which it copies unless
// the batch already holds the same text.
func (b *Batch) Add(constraint, version []byte) {
	if b.cindex == nil {
		b.cindex, b.vindex = make(map[string]int32), make(map[string]int32)
	}
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

// Len is the number of cases in the batch.
func (b *Batch) Len() int { return len(b.lines) }

// Case returns the texts of case i.
func (b *Batch) Case(i int) (constraint, version string) {
	l := &b.lines[i]
	return l.constraint, l.version
}

// Numbers returns the numbers of case i's constraint and version among
// the batch's distinct constraints and versions: two cases with the same
// numbers have the same texts.
func (b *Batch) Numbers(i int) (constraint, version int) {
	l := &b.lines[i]
	return int(l.c), int(l.v)
}

// Verdict is the verdict of policy p (its index in the evaluator's
// policies) on case i, once an evaluator has judged the batch.
func (b *Batch) Verdict(p, i int) engine.Verdict {
	if b.reasons {
		return b.results[p*len(b.lines)+i].Verdict
	}
	return b.verdicts[p*len(b.lines)+i]
}

// Result is the result of policy p on case i, reason included, once an
// evaluator that keeps the reasons has judged the batch.
func (b *Batch) Result(p, i int) engine.Result { return b.results[p*len(b.lines)+i] }

// Judged returns how many of the batch's first cases every policy
// judged, once an evaluator has judged it: all of them, unless a policy
// that can fail as a whole (a Failer, such as a policy command) failed
// before it judged case n. err is then its failure; the results of case
// n and after are not all verdicts.
func (b *Batch) Judged() (n int, err error) { return b.judged, b.failure }

// Failer is a policy that can fail as a whole, such as a policy command
// (package cmdpolicy): once it has failed, Err returns the failure, it
// judges no more cases, and NotJudged tells the results it gives them,
// Invalid, from its verdicts.
type Failer interface {
	engine.Policy
	Err() error
	NotJudged(engine.Result) bool
}

// Failure returns the failure of the first Failer of ps that has failed,
// nil when none has.
func Failure(ps []engine.Policy) error {
	for _, p := range ps {
		if f, ok := p.(Failer); ok {
			if err := f.Err(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Reset empties the batch for the next cases, keeping its memory.
func (b *Batch) Reset() {
	clear(b.lines)
	clear(b.constraints)
	clear(b.versions)
	b.lines, b.constraints, b.versions = b.lines[:0], b.constraints[:0], b.versions[:0]
	b.judged, b.failure = 0, nil
	clear(b.cindex)
	clear(b.vindex)
}
