package hclpolicy

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
)

// Failure is one error that evaluating a policy's expressions gave (a
// diagnostic, such as an index out of range or an exceeded budget), with
// the cases it was given on. Each such case is Invalid with the error as
// its reason; unlike a case that the engine's parser refuses or that
// refuse refuses, it is a mistake in the policy.
type Failure struct {
	// Reason is the diagnostic, formatted as prerel formats diagnostics.
	Reason string
	// Cases counts the cases judged that gave it (a refuse that fails
	// counts once for each constraint).
	Cases int
	// Constraint and Version are one of them: the first in the order of
	// constraint, then version, so that it does not depend on the order
	// the cases were judged in.
	Constraint, Version string
}

// maxFailures bounds the distinct errors a policy keeps; the cases of
// any further one are only counted.
const maxFailures = 16

// failures are the errors of a policy's evaluations, grouped by reason.
type failures struct {
	mu     sync.Mutex
	groups []Failure
	index  map[string]int
	other  int
}

// add records that the case gave the error reason; a nil f records
// nothing.
func (f *failures) add(reason, constraint, version string) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i, ok := f.index[reason]
	if !ok {
		if len(f.groups) >= maxFailures {
			f.other++
			return
		}
		if f.index == nil {
			f.index = map[string]int{}
		}
		i = len(f.groups)
		f.index[reason] = i
		f.groups = append(f.groups, Failure{Reason: reason, Constraint: constraint, Version: version})
	}
	g := &f.groups[i]
	g.Cases++
	if constraint < g.Constraint || constraint == g.Constraint && version < g.Version {
		g.Constraint, g.Version = constraint, version
	}
}

// Failures returns the errors that evaluating the policy's expressions
// gave so far, in the order they were first met, and the number of cases
// that gave an error beyond the first 16 distinct ones. A command block's
// policy has none here.
func (p *Policy) Failures() (groups []Failure, more int) {
	p.failures.mu.Lock()
	defer p.failures.mu.Unlock()
	return append([]Failure(nil), p.failures.groups...), p.failures.other
}

// Err returns a *FailureError when evaluating the policy's expressions
// failed on some case so far, and nil otherwise. A program that judges
// cases with the policy checks it after its last case, as it checks a
// command policy's Close: such a case is Invalid, but the run did less
// than asked.
func (p *Policy) Err() error {
	groups, more := p.Failures()
	if len(groups) == 0 {
		return nil
	}
	return &FailureError{Policy: p.name, Failures: groups, More: more}
}

// FailureError is the errors that evaluating a policy's expressions
// gave, grouped: one line for each distinct error, with how many cases
// gave it and one of them.
type FailureError struct {
	Policy   string
	Failures []Failure
	// More counts the cases of errors beyond the first 16 distinct ones.
	More int
}

func (e *FailureError) Error() string {
	n := e.More
	for _, f := range e.Failures {
		n += f.Cases
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the policy %s failed on %s, each invalid:", e.Policy, plural.Of(n, "case", "cases"))
	for _, f := range e.Failures {
		fmt.Fprintf(&b, "\n  %s\n    (%s; %s)", f.Reason, plural.Of(f.Cases, "case", "cases"), describeCase(f.Constraint, f.Version))
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  and %s with other errors", plural.Of(e.More, "case", "cases"))
	}
	return b.String()
}

// describeCase names a case for a message: the constraint, quoted, with
// the version, or the constraint alone when the error is refuse's.
func describeCase(constraint, version string) string {
	c := fmt.Sprintf("%q", engine.ClipReason(constraint))
	if version == "" {
		return "first: the constraint " + c
	}
	return fmt.Sprintf("first: %s with %s", c, fmt.Sprintf("%q", engine.ClipReason(version)))
}

// FailuresIn returns the errors (Err) of the policies of reg written in
// HCL whose expressions failed on some cases, one a line in registration
// order, and nil when none failed.
func FailuresIn(reg *engine.Registry) error {
	var msgs []string
	for _, p := range reg.All() {
		if hp, ok := p.(*Policy); ok {
			if err := hp.Err(); err != nil {
				msgs = append(msgs, err.Error())
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "\n"))
}
