package shard

import (
	"context"
	"errors"
	"fmt"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/internal/elide"
)

// witness is a kept witness of a partial report read from a file: its
// case, and the class or split it stands for, for errors.
type witness struct {
	constraint, version string
	class               string // "the class %q of A vs B" or "the split %q (verdicts)"
}

// witnessesOf lists the witnesses of the classes and splits of j, in the
// order of the file.
func witnessesOf(j *partialJSON) []witness {
	var out []witness
	for _, pj := range j.Pairs {
		for _, cj := range pj.Classes {
			out = append(out, witness{cj.Constraint, cj.Version,
				fmt.Sprintf("the class %q (%s, %s) of %s vs %s", elide.Head(cj.Shape, 200), cj.A, cj.B, pj.A, pj.B)})
		}
	}
	for _, sj := range j.Splits {
		out = append(out, witness{sj.Constraint, sj.Version,
			fmt.Sprintf("the split %q (%s)", elide.Head(sj.Shape, 200), sj.Verdicts)})
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
// domain the shards ran: a partial report holds no domain, and a witness
// that is a case of its class but of no case of the domain would make
// the merged report differ from the report of the whole run. Add notes
// the witnesses of each part; Check walks the domain once, without
// judging a case, and fails on the first witness noted that the domain
// never yields, naming the file, the class and the case. The zero
// WitnessCheck is empty.
type WitnessCheck struct {
	pending map[string]map[string]citation // constraint, then version
	n       int                            // the witnesses pending
	seq     int                            // the witnesses noted
}

// Add notes the witnesses of p, and lets p drop them. A partial report
// made by RunPartial, or already noted, has none to note.
func (c *WitnessCheck) Add(p *Partial) {
	if p == nil {
		return
	}
	if c.pending == nil {
		c.pending = map[string]map[string]citation{}
	}
	for _, w := range p.witnesses {
		versions := c.pending[w.constraint]
		if versions == nil {
			versions = map[string]citation{}
			c.pending[w.constraint] = versions
		}
		if _, ok := versions[w.version]; !ok {
			versions[w.version] = citation{p.name(), w.class, c.seq}
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
// version among the group's versions. It then forgets them. d must be
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
		versions, ok := c.pending[g.Constraint]
		if !ok {
			return true
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
	for con, versions := range c.pending {
		for v, at := range versions {
			if first == nil || at.seq < first.seq {
				first, fc, fv = &at, con, v
			}
		}
	}
	n := c.n
	c.pending, c.n = nil, 0
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more witnesses)", n-1)
	}
	return &notInDomain{fmt.Sprintf("compare: %s: the witness of %s (constraint %q, version %q) is not a case of the domain the shards ran (%s)%s",
		first.source, first.class, elide.Head(fc, 200), elide.Head(fv, 200), quote(d.Info().Description), more)}
}
