package compare

import (
	"fmt"
	"slices"
	"strings"
)

// Gated is the choice of policies for a run checked against a baseline:
// a baseline records a policy set, and drift is about those policies.
type Gated struct {
	// Policies are the names the run compares: the baseline's, in its
	// order, when none were chosen; else those chosen, in theirs.
	Policies []string
	// Ungated are the registered policies the baseline does not hold,
	// in the registry's order, when none were chosen: the run leaves
	// them out, and a note should say so.
	Ungated []string
}

// GatedPolicies chooses the policies of a run checked against base.
// registered names the policies the run may take, in order; chosen
// those the user named, empty for none. Without chosen, the run compares
// base's policies, each of which must be registered, and Ungated lists
// the registered ones base does not hold. With chosen, they must be
// base's policies, in any order. Otherwise it fails with a
// *PolicySetError that says which policies differ.
func GatedPolicies(base *Report, registered, chosen []string) (Gated, error) {
	if base == nil {
		return Gated{}, fmt.Errorf("compare: no baseline to choose the policies from")
	}
	if len(chosen) > 0 {
		e := &PolicySetError{OnlyBaseline: notIn(base.Policies, chosen), OnlyChosen: notIn(chosen, base.Policies)}
		if len(e.OnlyBaseline) > 0 || len(e.OnlyChosen) > 0 {
			return Gated{}, e
		}
		return Gated{Policies: slices.Clone(chosen)}, nil
	}
	if m := notIn(base.Policies, registered); len(m) > 0 {
		return Gated{}, &PolicySetError{OnlyBaseline: m, Unregistered: true}
	}
	return Gated{Policies: slices.Clone(base.Policies), Ungated: notIn(registered, base.Policies)}, nil
}

// notIn lists the names of a that b does not hold, in a's order.
func notIn(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

// PolicySetError is the error of a run whose policies are not its
// baseline's: the policies chosen differ from the baseline's, or, with
// none chosen, some of the baseline's are not registered.
type PolicySetError struct {
	// OnlyBaseline are the baseline's policies the run lacks (not
	// chosen, or not registered).
	OnlyBaseline []string
	// OnlyChosen are the policies chosen that the baseline does not
	// hold.
	OnlyChosen []string
	// Unregistered is set when none were chosen: OnlyBaseline are
	// then the baseline's policies that are not registered.
	Unregistered bool
}

func (e *PolicySetError) Error() string {
	if e.Unregistered {
		return fmt.Sprintf("the baseline has policies that are not registered: %s", strings.Join(e.OnlyBaseline, ", "))
	}
	var parts []string
	if len(e.OnlyBaseline) > 0 {
		parts = append(parts, "only the baseline has "+strings.Join(e.OnlyBaseline, ", "))
	}
	if len(e.OnlyChosen) > 0 {
		parts = append(parts, "only the policies chosen have "+strings.Join(e.OnlyChosen, ", "))
	}
	return "the policies chosen differ from the baseline's: " + strings.Join(parts, "; ")
}

// GateRun is the part of run that drift from base is about: when run
// holds every policy of base and more, run restricted to base's policies
// (Only), and the policies of run base does not gate, in run's order;
// otherwise run itself, whose policies missing from base are drift.
// A merge of shards that ran more policies than a baseline records is
// checked this way.
func GateRun(base, run *Report) (*Report, []string) {
	if base == nil || run == nil || len(notIn(base.Policies, run.Policies)) > 0 {
		return run, nil
	}
	more := notIn(run.Policies, base.Policies)
	if len(more) == 0 {
		return run, nil
	}
	return run.Only(base.Policies), more
}

// Only returns the part of r about the policies names: those of r's
// policies, in r's order, and the pairs, classes and selection pairs
// of two of them. The per-case verdicts are r's, shared. The summary
// and the splits, which follow from every policy of the run, are left
// out. r is not modified.
func (r *Report) Only(names []string) *Report {
	in := func(a, b string) bool { return slices.Contains(names, a) && slices.Contains(names, b) }
	o := *r
	o.Policies = nil
	for _, p := range r.Policies {
		if slices.Contains(names, p) {
			o.Policies = append(o.Policies, p)
		}
	}
	o.Summary, o.Splits, o.SplitCasesLeftOut = nil, nil, 0
	o.Pairs, o.Classes = nil, nil
	for _, p := range r.Pairs {
		if in(p.A, p.B) {
			o.Pairs = append(o.Pairs, p)
		}
	}
	for _, c := range r.Classes {
		if in(c.A, c.B) {
			o.Classes = append(o.Classes, c)
		}
	}
	if r.Selection != nil {
		s := SelectionReport{Groups: r.Selection.Groups}
		for _, p := range r.Selection.Pairs {
			if in(p.A, p.B) {
				s.Pairs = append(s.Pairs, p)
			}
		}
		o.Selection = &s
	}
	if r.Verdicts != nil {
		o.Verdicts = make(map[string]string, len(names))
		for _, n := range o.Policies {
			if v, ok := r.Verdicts[n]; ok {
				o.Verdicts[n] = v
			}
		}
	}
	return &o
}
