package shard

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
)

// witness is a kept witness of a partial report read from a file: its
// case, and the class or split it stands for, for errors. The witness of
// a selection is a group, not a case: its constraint and the history its
// versions come from.
type witness struct {
	constraint, version string
	class               string // "the class %q of A vs B", "the split %q (verdicts)" or "the selection of A vs B"
	history             string // of the witness of a selection
	selection           bool
	// What the witness is the smallest case of: the shape, and the
	// verdicts of the pair (a and b, policy names) of a class or of
	// every policy (verdicts, as the JSON writes them) of a split. The
	// witness of a selection is the smallest group where the pair
	// installs different versions: pa and pb, what it says a and b
	// install there.
	shape, a, b string
	va, vb      engine.Verdict
	verdicts    string
	pa, pb      string
}

// witnessesOf lists the witnesses of the classes, splits and selection
// of j, in the order of the file.
func witnessesOf(j *partialJSON) []witness {
	var out []witness
	for _, pj := range j.Pairs {
		for _, cj := range pj.Classes {
			out = append(out, witness{constraint: cj.Constraint, version: cj.Version,
				class: fmt.Sprintf("the class %q (%s, %s) of %s vs %s", elide.Head(cj.Shape, 200), cj.A, cj.B, pj.A, pj.B),
				shape: cj.Shape, a: pj.A, b: pj.B, va: cj.A, vb: cj.B})
		}
	}
	for _, sj := range j.Splits {
		out = append(out, witness{constraint: sj.Constraint, version: sj.Version,
			class: fmt.Sprintf("the split %q (%s)", elide.Head(sj.Shape, 200), sj.Verdicts),
			shape: sj.Shape, verdicts: sj.Verdicts})
	}
	if s := j.Selection; s != nil {
		for k, sp := range s.Pairs {
			w := sp.Witness
			if w == nil {
				continue
			}
			pair, a, b := fmt.Sprintf("pair %d", k+1), "", ""
			if k < len(j.Pairs) {
				a, b = j.Pairs[k].A, j.Pairs[k].B
				pair = a + " vs " + b
			}
			out = append(out, witness{constraint: w.Constraint, history: w.History, selection: true,
				class: "the selection of " + pair, a: a, b: b, pa: w.A, pb: w.B})
		}
	}
	return out
}

// ErrNotInDomain is what the error of WitnessCheck.Check is, for
// errors.Is, when a witness is not a case of the domain.
var ErrNotInDomain = errors.New("compare: a witness is not a case of the domain")

// ErrNotKept is what the error of WitnessCheck.Check is, for errors.Is,
// when the witness of a class or split is not the case its shards keep,
// or the witness of a selection not the group they keep.
var ErrNotKept = errors.New("compare: a witness is not the case its shards keep")

// notInDomain is the error of a witness that is not a case of the
// domain.
type notInDomain struct{ msg string }

func (e *notInDomain) Error() string        { return e.msg }
func (e *notInDomain) Is(target error) bool { return target == ErrNotInDomain }

// ErrOtherPolicy is what the error of WitnessCheck.Check is, for
// errors.Is, when a policy it is given is not the one of that name the
// shards ran.
var ErrOtherPolicy = errors.New("compare: a policy is not the one the shards ran")

// otherPolicy is the error of a policy that is not the one of its name
// the shards ran.
type otherPolicy struct{ msg string }

func (e *otherPolicy) Error() string        { return e.msg }
func (e *otherPolicy) Is(target error) bool { return target == ErrOtherPolicy }

// notKept is the error of a witness that is not the case its shards
// keep.
type notKept struct{ msg string }

func (e *notKept) Error() string        { return e.msg }
func (e *notKept) Is(target error) bool { return target == ErrNotKept }

// citation is where a witness was first seen: the file and its class.
type citation struct {
	source, class string
	seq           int // the order it was noted in
}

// maxPendingWitnesses is how many distinct witnesses a WitnessCheck holds
// before Full tells its caller to check them.
const maxPendingWitnesses = 1 << 20

// A WitnessCheck checks that the kept witnesses of partial reports read
// by ReadPartial (of their classes and of their splits) are cases of the
// domain the shards ran, and that the witness of each pair's selection
// is a group of it (its constraint, with its history): a partial report
// holds no domain, and a witness that is a case of its class but of no
// case of the domain would make the merged report differ from the
// report of the whole run. So would another case of the class than the
// one the shards keep, the smallest among their groups: the witness of
// each class and split must be that case, and the witness of each pair's
// selection the smallest of their groups where the pair installs
// different versions, with what each policy installs there
// (compare.KeptCheck). Add notes the witnesses of each part; Check walks
// the domain once, judging only the cases that might come before a
// witness in its class and the groups that might come before a
// selection witness, and fails on the first witness noted that the
// domain never yields, or that is not the case or group its shards keep,
// naming the file, the class, split or selection, and the case or group
// (and the case or group the shards keep). The zero WitnessCheck is
// empty.
type WitnessCheck struct {
	pending    map[string]map[string]citation // constraint, then version
	selections map[string]map[string]citation // constraint, then history
	n          int                            // the witnesses pending
	seq        int                            // the witnesses noted
	kept       *compare.KeptCheck             // the witnesses of classes, splits and selections; nil when none are noted
	parts      []keptPart                     // the parts of those witnesses, by number in kept
	prints     []string                       // the fingerprints of their policies
	other      error                          // a part of other policies than the first
}

// keptPart is a partial report whose witnesses of classes, splits and
// selection a WitnessCheck checks: its name and its shards.
type keptPart struct {
	name   string
	shards []int
	n      int
}

// Add notes the witnesses of p, and lets p drop them. A partial report
// made by RunPartial, or already noted, has none to note.
func (c *WitnessCheck) Add(p *Partial) {
	if p == nil {
		return
	}
	if c.pending == nil {
		c.pending = map[string]map[string]citation{}
		c.selections = map[string]map[string]citation{}
	}
	c.addKept(p)
	for _, w := range p.witnesses {
		pending, key := c.pending, w.version
		if w.selection {
			pending, key = c.selections, w.history
		}
		noted := pending[w.constraint]
		if noted == nil {
			noted = map[string]citation{}
			pending[w.constraint] = noted
		}
		if _, ok := noted[key]; !ok {
			noted[key] = citation{p.name(), w.class, c.seq}
			c.n++
			c.seq++
		}
	}
	p.witnesses = nil
}

// addKept notes the witnesses of the classes, splits and selection of p
// in c.kept.
func (c *WitnessCheck) addKept(p *Partial) {
	if len(p.witnesses) == 0 {
		return
	}
	if c.kept == nil {
		c.kept, c.prints = compare.NewKeptCheck(p.policies), p.prints
	} else if c.other == nil && (!slices.Equal(p.policies, c.kept.Names()) || !slices.Equal(p.prints, c.prints)) {
		c.other = fmt.Errorf("compare: %s and another partial report are not shards of one run: they compare other policies (%s and %s), or policies of the same names that judge otherwise",
			p.name(), quote(strings.Join(p.policies, ", ")), quote(strings.Join(c.kept.Names(), ", ")))
	}
	if c.other != nil {
		return
	}
	at := make(map[string]int, len(p.policies))
	for i, name := range p.policies {
		at[name] = i
	}
	owns := make(map[int]bool, len(p.shards))
	for _, s := range p.shards {
		owns[s-1] = true
	}
	n := int64(p.n)
	part := c.kept.AddPart(func(index int64) bool { return owns[int(index%n)] })
	c.parts = append(c.parts, keptPart{p.name(), p.shards, p.n})
	verdicts := make([]engine.Verdict, 0, len(p.policies))
	for _, w := range p.witnesses {
		switch {
		case w.selection:
			a, okA := at[w.a]
			b, okB := at[w.b]
			if okA && okB {
				c.kept.AddSelection(part, a, b, w.constraint, w.history, w.pa, w.pb)
			}
		case w.verdicts == "":
			a, okA := at[w.a]
			b, okB := at[w.b]
			if okA && okB {
				c.kept.AddClass(part, a, b, w.shape, w.va, w.vb, w.constraint, w.version)
			}
		default:
			verdicts = verdicts[:0]
			for j := range len(w.verdicts) {
				if v := strings.IndexByte("rai", w.verdicts[j]); v >= 0 {
					verdicts = append(verdicts, engine.Verdict(v))
				}
			}
			if len(verdicts) == len(p.policies) && len(w.verdicts) == len(p.policies) {
				c.kept.AddSplit(part, w.shape, verdicts, w.constraint, w.version)
			}
		}
	}
}

// Full reports whether the witnesses noted are many enough to be checked
// before more are noted, so that what a WitnessCheck holds stays bounded
// however many parts are merged.
func (c *WitnessCheck) Full() bool {
	n := c.n
	if c.kept != nil {
		n += c.kept.Len() + c.kept.Selections()
	}
	return n >= maxPendingWitnesses
}

// Check walks d once and fails unless every witness noted since the last
// Check is one of its cases: a group of d has its constraint, with its
// version among the group's versions; and the witness of a selection one
// of its groups: a group of d has its constraint and its history. It
// also fails unless the witness of each class and split is the case its
// shards keep, the smallest case of the class (or split) among the
// groups of its shards, which it finds by judging, with policies (those
// the shards ran, in their order), the cases of the class's shape that
// come before the witness (compare.KeptCheck); it names the file, the
// class or split, the witness and the case the shards keep. So it does
// unless the witness of each pair's selection is the group its shards
// keep, the smallest of their groups where the pair installs different
// versions, with what each policy installs there, which it finds by
// working out what the pair installs from the groups of its shards that
// come before the witness and from the witness's own group; it names the
// file, the pair, the witness and the group the shards keep. It then
// forgets them. d must be the domain the shards ran (the caller checks
// its DomainInfo); it fails as d fails to yield its groups, when a
// policy panics, and when ctx is done.
func (c *WitnessCheck) Check(ctx context.Context, d compare.Domain, policies []engine.Policy) error {
	if c.n == 0 && c.kept == nil {
		return nil
	}
	if d == nil {
		return fmt.Errorf("compare: no domain to check the witnesses with")
	}
	kept, parts, err := c.kept, c.parts, c.other
	if err == nil && kept != nil {
		err = kept.Judge(policies)
	}
	if err == nil && kept != nil {
		// Another policy under the same name would judge the cases
		// otherwise: it is named as Report names it.
		for i, print := range fingerprints(policies) {
			if print != c.prints[i] {
				err = &otherPolicy{fmt.Sprintf("compare: the policy %s is not the policy of that name the shards ran: it judges prerel's probe cases otherwise",
					policies[i].Name())}
				break
			}
		}
	}
	if err != nil {
		c.forget()
		return err
	}
	var index int64
	walkErr := d.Groups(func(g compare.Group) bool {
		if err = ctx.Err(); err != nil {
			return false
		}
		if kept != nil {
			if err = kept.Group(index, g); err != nil {
				return false
			}
			index++
		}
		if histories, ok := c.selections[g.Constraint]; ok && g.History != "" {
			if _, ok := histories[g.History]; ok {
				delete(histories, g.History)
				c.n--
				if len(histories) == 0 {
					delete(c.selections, g.Constraint)
				}
			}
		}
		versions, ok := c.pending[g.Constraint]
		if !ok {
			return c.n > 0 || kept != nil
		}
		for _, v := range g.Versions {
			if _, ok := versions[v]; ok {
				delete(versions, v)
				c.n--
			}
		}
		if len(versions) == 0 {
			delete(c.pending, g.Constraint)
		}
		return c.n > 0 || kept != nil
	})
	if err == nil && walkErr != nil {
		err = fmt.Errorf("compare: checking the witnesses: %w", walkErr)
	}
	if err != nil {
		c.forget()
		return err
	}
	if c.n == 0 {
		c.forget()
		return notKeptError(ctx, d, kept, parts)
	}
	c.kept, c.parts, c.prints, c.other = nil, nil, nil, nil
	// The first witness noted that is missing, for a message that does
	// not depend on the order of maps.
	var first *citation
	var fc, fv string
	var selection bool
	for sel, pending := range map[bool]map[string]map[string]citation{false: c.pending, true: c.selections} {
		for con, noted := range pending {
			for v, at := range noted {
				if first == nil || at.seq < first.seq {
					first, fc, fv, selection = &at, con, v, sel
				}
			}
		}
	}
	n := c.n
	c.pending, c.selections, c.n = nil, nil, 0
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more witnesses)", n-1)
	}
	if selection {
		return &notInDomain{fmt.Sprintf("compare: %s: the witness of %s (constraint %q, history %q) is not a group of the domain the shards ran (%s)%s",
			first.source, first.class, elide.Head(fc, 200), elide.Head(fv, 200), quote(d.Info().Description), more)}
	}
	return &notInDomain{fmt.Sprintf("compare: %s: the witness of %s (constraint %q, version %q) is not a case of the domain the shards ran (%s)%s",
		first.source, first.class, elide.Head(fc, 200), elide.Head(fv, 200), quote(d.Info().Description), more)}
}

// forget drops the witnesses noted.
func (c *WitnessCheck) forget() {
	c.pending, c.selections, c.n = nil, nil, 0
	c.kept, c.parts, c.prints, c.other = nil, nil, nil, nil
}

// notKeptError is the error of the first witness of kept that is not the
// case (or, of a selection, the group) its shards keep, by what kept
// found walking d, or nil. For a witness that no group of its shards
// holds, it walks d again to find the case or group they keep.
func notKeptError(ctx context.Context, d compare.Domain, kept *compare.KeptCheck, parts []keptPart) error {
	if kept == nil {
		return nil
	}
	// walk hands kept every group of d again.
	walk := func() error {
		var index int64
		var err error
		walkErr := d.Groups(func(g compare.Group) bool {
			if err = ctx.Err(); err == nil {
				err = kept.Group(index, g)
			}
			index++
			return err == nil
		})
		if err == nil && walkErr != nil {
			err = fmt.Errorf("compare: checking the witnesses: %w", walkErr)
		}
		return err
	}
	runOf := func(part keptPart) string {
		return "the run of " + shardList((&Partial{n: part.n, shards: part.shards}).heldShards())
	}
	for id := range kept.Len() {
		held, kc, kv, found := kept.Kept(id)
		if held && !found {
			continue
		}
		if !held && !found {
			kept.Unbound(id)
			if err := walk(); err != nil {
				return err
			}
			_, kc, kv, found = kept.Kept(id)
		}
		w := kept.Witness(id)
		part := parts[w.Part]
		run := runOf(part)
		kind, class := "class", ""
		if w.A < 0 {
			kind = "split"
			letters := make([]byte, len(w.Verdicts))
			for i, v := range w.Verdicts {
				letters[i] = "rai"[v]
			}
			class = fmt.Sprintf("the split %q (%s)", elide.Head(w.Shape, 200), letters)
		} else {
			names := kept.Names()
			class = fmt.Sprintf("the class %q (%s, %s) of %s vs %s", elide.Head(w.Shape, 200), w.VA, w.VB, names[w.A], names[w.B])
		}
		what := fmt.Sprintf("compare: %s: the witness of %s (constraint %q, version %q)",
			part.name, class, elide.Head(w.Constraint, 200), elide.Head(w.Version, 200))
		keeps := fmt.Sprintf("constraint %q, version %q", elide.Head(kc, 200), elide.Head(kv, 200))
		switch {
		case held:
			return &notKept{fmt.Sprintf("%s is not the witness %s keeps: that is the smallest case of the %s in its groups, %s",
				what, run, kind, keeps)}
		case found:
			return &notKept{fmt.Sprintf("%s is not a case of the %s in the groups of %s: the witness it keeps, the smallest case of the %s in its groups, is %s",
				what, kind, run, kind, keeps)}
		default:
			return &notKept{fmt.Sprintf("%s is not a case of the %s in the groups of %s, which hold none", what, kind, run)}
		}
	}
	return notKeptSelection(kept, parts, walk, runOf)
}

// notKeptSelection is the error of the first selection witness of kept
// that is not the group its shards keep, by what kept found walking the
// domain, or nil. For a witness whose group is not kept, when no group
// before it is, walk hands kept the domain again to find the group they
// keep.
func notKeptSelection(kept *compare.KeptCheck, parts []keptPart, walk func() error, runOf func(keptPart) string) error {
	names := kept.Names()
	for id := range kept.Selections() {
		owned, held, kc, kh, ka, kb, found := kept.KeptSelection(id)
		if held && !found {
			continue
		}
		if !found {
			kept.UnboundSelection(id)
			if err := walk(); err != nil {
				return err
			}
			_, _, kc, kh, ka, kb, found = kept.KeptSelection(id)
		}
		w := kept.Selection(id)
		a, b := names[w.A], names[w.B]
		run := runOf(parts[w.Part])
		what := fmt.Sprintf("compare: %s: the witness of the selection of %s vs %s (constraint %q, history %q, where %s installs %q and %s %q)",
			parts[w.Part].name, a, b, elide.Head(w.Constraint, 200), elide.Head(w.History, 200),
			a, elide.Head(w.ASelected, 200), b, elide.Head(w.BSelected, 200))
		keeps := fmt.Sprintf("constraint %q, history %q, where %s installs %q and %s %q",
			elide.Head(kc, 200), elide.Head(kh, 200), a, elide.Head(ka, 200), b, elide.Head(kb, 200))
		differ := fmt.Sprintf("where %s and %s install different versions", a, b)
		switch {
		case owned && found:
			return &notKept{fmt.Sprintf("%s is not the witness %s keeps: that is the smallest of its groups %s, %s",
				what, run, differ, keeps)}
		case found:
			return &notKept{fmt.Sprintf("%s is not a group of %s: the witness it keeps, the smallest of its groups %s, is %s",
				what, run, differ, keeps)}
		case owned:
			return &notKept{fmt.Sprintf("%s is not the witness %s keeps: %s and %s install the same version in each of its groups",
				what, run, a, b)}
		default:
			return &notKept{fmt.Sprintf("%s is not a group of %s, and %s and %s install the same version in each of its groups",
				what, run, a, b)}
		}
	}
	return nil
}
