package shard

import (
	"context"
	"errors"
	"fmt"

	"github.com/prerel/prerel/compare"
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
}

// witnessesOf lists the witnesses of the classes, splits and selection
// of j, in the order of the file.
func witnessesOf(j *partialJSON) []witness {
	var out []witness
	for _, pj := range j.Pairs {
		for _, cj := range pj.Classes {
			out = append(out, witness{constraint: cj.Constraint, version: cj.Version,
				class: fmt.Sprintf("the class %q (%s, %s) of %s vs %s", elide.Head(cj.Shape, 200), cj.A, cj.B, pj.A, pj.B)})
		}
	}
	for _, sj := range j.Splits {
		out = append(out, witness{constraint: sj.Constraint, version: sj.Version,
			class: fmt.Sprintf("the split %q (%s)", elide.Head(sj.Shape, 200), sj.Verdicts)})
	}
	if s := j.Selection; s != nil {
		for k, sp := range s.Pairs {
			w := sp.Witness
			if w == nil {
				continue
			}
			pair := fmt.Sprintf("pair %d", k+1)
			if k < len(j.Pairs) {
				pair = j.Pairs[k].A + " vs " + j.Pairs[k].B
			}
			out = append(out, witness{constraint: w.Constraint, history: w.History, selection: true,
				class: "the selection of " + pair})
		}
	}
	return out
}

// ErrNotInDomain is what the error of WitnessCheck.Check is, for
// errors.Is, when a witness is not a case of the domain.
var ErrNotInDomain = errors.New("compare: a witness is not a case of the domain")

// notInDomain is the error of a witness that is not a case of the
// domain.
type notInDomain struct{ msg string }

func (e *notInDomain) Error() string        { return e.msg }
func (e *notInDomain) Is(target error) bool { return target == ErrNotInDomain }

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
// report of the whole run. Add notes the witnesses of each part; Check
// walks the domain once, without judging a case, and fails on the first
// witness noted that the domain never yields, naming the file, the
// class, split or selection, and the case or group. The zero
// WitnessCheck is empty.
type WitnessCheck struct {
	pending    map[string]map[string]citation // constraint, then version
	selections map[string]map[string]citation // constraint, then history
	n          int                            // the witnesses pending
	seq        int                            // the witnesses noted
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

// Full reports whether the witnesses noted are many enough to be checked
// before more are noted, so that what a WitnessCheck holds stays bounded
// however many parts are merged.
func (c *WitnessCheck) Full() bool { return c.n >= maxPendingWitnesses }

// Check walks d once and fails unless every witness noted since the last
// Check is one of its cases: a group of d has its constraint, with its
// version among the group's versions; and the witness of a selection one
// of its groups: a group of d has its constraint and its history. It
// then forgets them. d must be
// the domain the shards ran (the caller checks its DomainInfo); it fails
// as d fails to yield its groups, and when ctx is done.
func (c *WitnessCheck) Check(ctx context.Context, d compare.Domain) error {
	if c.n == 0 {
		return nil
	}
	if d == nil {
		return fmt.Errorf("compare: no domain to check the witnesses with")
	}
	var err error
	walkErr := d.Groups(func(g compare.Group) bool {
		if err = ctx.Err(); err != nil {
			return false
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
			return c.n > 0
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
		return c.n > 0
	})
	if err != nil {
		return err
	}
	if walkErr != nil {
		return fmt.Errorf("compare: checking the witnesses: %w", walkErr)
	}
	if c.n == 0 {
		return nil
	}
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
