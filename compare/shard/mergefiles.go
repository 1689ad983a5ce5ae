package shard

import (
	"context"
	"errors"
	"fmt"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// MergeOptions are what Merge needs besides the files of the partial
// reports.
type MergeOptions struct {
	// Hints are the words of the errors on what is not a partial report.
	Hints Hints
	// Partial merges the parts into one partial report, to be merged
	// again later: the parts may then be any of the shards, and no
	// witness is checked (the merge that builds the report checks them).
	Partial bool
	// Domain makes the domain of the partial reports again from the
	// flags they record (Partial.DomainArgs) and their DomainInfo, to
	// check the witnesses with, or says why it cannot. Required unless
	// Partial.
	Domain func(args []string, info compare.DomainInfo) (compare.Domain, error)
	// Policies returns the policies named, the policies of the partial
	// reports in their order; an error of it is Merge's as it is.
	// Required unless Partial.
	Policies func(names []string) ([]engine.Policy, error)
}

// Merged is what Merge makes: with MergeOptions.Partial the merged
// partial report alone, else the report of the whole run, the domain
// made again and the relevance table the shards ranked with.
type Merged struct {
	Partial   *Partial
	Report    *compare.Report
	Domain    compare.Domain
	Relevance *compare.RelevanceTable
}

// ErrBadParts is matched (errors.Is) by the errors of Merge that are the
// fault of the parts: what is not a partial report, parts of several
// runs, a missing shard, a witness the domain does not hold or that is
// not the case its shard keeps, a domain that cannot be made again.
var ErrBadParts = errors.New("compare: the partial reports cannot be merged")

// badParts marks err as ErrBadParts, keeping its message.
type badParts struct{ err error }

func (e *badParts) Error() string        { return e.err.Error() }
func (e *badParts) Unwrap() error        { return e.err }
func (e *badParts) Is(target error) bool { return target == ErrBadParts }

// ReadError is the error of Merge that reads a file: what
// ReadPartial returned.
type ReadError struct{ Err error }

func (e *ReadError) Error() string { return e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// Merge reads the partial reports at paths and merges them, one at a
// time: the memory of two partial reports, however many shards. Unless
// opts.Partial, it makes the domain again from the first part, checks
// that every witness is a case of it and the case its shard keeps (as
// soon as the witnesses noted fill a WitnessCheck, and at the end), and
// builds the report of the whole run from the parts, which must hold
// every shard. A compare.PanicError of a policy comes as it is.
func Merge(ctx context.Context, paths []string, opts MergeOptions) (*Merged, error) {
	m := merging{ctx: ctx, opts: opts}
	for _, path := range paths {
		part, err := ReadPartial(path, opts.Hints)
		if err != nil {
			return nil, &ReadError{err}
		}
		if err := m.merger.Add(part); err != nil {
			return nil, &badParts{err}
		}
		if opts.Partial {
			continue
		}
		if m.first == nil {
			m.first = part
			m.info = part.Info()
		}
		m.witnesses.Add(part)
		if m.witnesses.Full() {
			if err := m.check(); err != nil {
				return nil, err
			}
		}
	}
	merged, err := m.merger.Partial()
	if err != nil {
		return nil, &badParts{err}
	}
	if opts.Partial {
		return &Merged{Partial: merged}, nil
	}
	if !merged.Complete() {
		_, err := merged.Report(context.Background(), nil) // names the missing shards
		return nil, &badParts{err}
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	rep, err := merged.Report(ctx, m.ps)
	var panicked *compare.PanicError
	if err != nil && !errors.As(err, &panicked) {
		err = &badParts{err}
	}
	return &Merged{Report: rep, Domain: m.d, Relevance: merged.Relevance()}, err
}

// merging is the state of Merge.
type merging struct {
	ctx       context.Context
	opts      MergeOptions
	merger    Merger
	witnesses WitnessCheck
	first     *Partial // the first part read, whose domain is made again
	info      compare.DomainInfo
	d         compare.Domain
	ps        []engine.Policy
}

// check checks the witnesses noted so far with the domain made again
// and the policies, which it gets the first time.
func (m *merging) check() error {
	if m.d == nil {
		d, err := m.opts.Domain(m.first.DomainArgs, m.info)
		if err != nil {
			return &badParts{fmt.Errorf("the witnesses of the partial reports cannot be checked: %v", err)}
		}
		m.d = d
	}
	if m.ps == nil {
		ps, err := m.opts.Policies(m.first.Policies())
		if err != nil {
			return err
		}
		m.ps = ps
	}
	err := m.witnesses.Check(m.ctx, m.d, m.ps)
	if errors.Is(err, ErrNotInDomain) || errors.Is(err, ErrNotKept) || errors.Is(err, ErrOtherPolicy) {
		return &badParts{err}
	}
	return err
}
