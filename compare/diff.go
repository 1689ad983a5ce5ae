package compare

import (
	"fmt"
	"strconv"
	"strings"
)

// ChangeKind says how a part of a report moved from a baseline.
type ChangeKind string

// The kinds of change.
const (
	Appeared    ChangeKind = "appeared"    // in the report, not in the baseline
	Disappeared ChangeKind = "disappeared" // in the baseline, not in the report
	Changed     ChangeKind = "changed"     // in both, with different values
)

// Change is one difference between a baseline and a report.
type Change struct {
	Kind ChangeKind `json:"kind"`
	// Subject is what changed: "domain", "policy", "pair", "class",
	// "selection" or "selection pair".
	Subject string `json:"subject"`
	// A and B name the pair, for pairs, classes and selection pairs.
	A string `json:"a,omitempty"`
	B string `json:"b,omitempty"`
	// Signature names the class, for classes.
	Signature string `json:"signature,omitempty"`
	// Text says what changed in a sentence a person can read.
	Text string `json:"text"`
}

// String returns c.Text.
func (c Change) String() string { return c.Text }

// Diff lists what differs between the stable parts of a baseline and a
// report: the domain, policies that appeared or disappeared, pairs whose
// counts changed, classes that appeared, disappeared or changed (count,
// cause or witness), and the same for selection. Reasons are ignored. An
// empty result means the report matches the baseline.
//
// Changes come in a fixed order: domain, policies, pairs, classes,
// selection; within each, report order, then what disappeared in baseline
// order.
func Diff(baseline, current *Report) []Change {
	var out []Change
	add := func(c Change) { out = append(out, c) }
	b, c := baseline, current

	if b.Domain.Description != c.Domain.Description {
		add(Change{Kind: Changed, Subject: "domain", Text: fmt.Sprintf("domain changed: now %q, was %q", c.Domain.Description, b.Domain.Description)})
	}
	if b.Domain.Cases != c.Domain.Cases {
		add(Change{Kind: Changed, Subject: "domain", Text: fmt.Sprintf("case count changed: now %d, was %d", c.Domain.Cases, b.Domain.Cases)})
	}

	for _, n := range missing(c.Policies, b.Policies) {
		add(Change{Kind: Appeared, Subject: "policy", Text: fmt.Sprintf("policy %s appeared", n)})
	}
	for _, n := range missing(b.Policies, c.Policies) {
		add(Change{Kind: Disappeared, Subject: "policy", Text: fmt.Sprintf("policy %s disappeared", n)})
	}

	out = append(out, diffPairs(b.Pairs, c.Pairs)...)
	out = append(out, diffClasses(b.Classes, c.Classes)...)
	out = append(out, diffSelection(b.Selection, c.Selection)...)
	return out
}

// missing returns the names of have that are not in other, in order.
func missing(have, other []string) []string {
	set := map[string]bool{}
	for _, n := range other {
		set[n] = true
	}
	var out []string
	for _, n := range have {
		if !set[n] {
			out = append(out, n)
		}
	}
	return out
}

func diffPairs(base, cur []Pair) []Change {
	var out []Change
	old := map[[2]string]Pair{}
	for _, p := range base {
		old[[2]string{p.A, p.B}] = p
	}
	seen := map[[2]string]bool{}
	for _, p := range cur {
		k := [2]string{p.A, p.B}
		seen[k] = true
		q, ok := old[k]
		switch {
		case !ok:
			out = append(out, Change{Kind: Appeared, Subject: "pair", A: p.A, B: p.B,
				Text: fmt.Sprintf("%s vs %s appeared: %d agree, %d diverge", p.A, p.B, p.Agree, p.Diverge)})
		case p != q:
			out = append(out, Change{Kind: Changed, Subject: "pair", A: p.A, B: p.B,
				Text: fmt.Sprintf("%s vs %s: %d diverge, was %d (%d agree, was %d)", p.A, p.B, p.Diverge, q.Diverge, p.Agree, q.Agree)})
		}
	}
	for _, p := range base {
		if !seen[[2]string{p.A, p.B}] {
			out = append(out, Change{Kind: Disappeared, Subject: "pair", A: p.A, B: p.B,
				Text: fmt.Sprintf("%s vs %s disappeared (it had %d agree, %d diverge)", p.A, p.B, p.Agree, p.Diverge)})
		}
	}
	return out
}

type classID struct{ a, b, sig string }

func diffClasses(base, cur []Class) []Change {
	var out []Change
	old := map[classID]Class{}
	for _, c := range base {
		old[classID{c.A, c.B, c.Signature}] = c
	}
	seen := map[classID]bool{}
	for _, c := range cur {
		id := classID{c.A, c.B, c.Signature}
		seen[id] = true
		q, ok := old[id]
		if !ok {
			out = append(out, Change{Kind: Appeared, Subject: "class", A: c.A, B: c.B, Signature: c.Signature,
				Text: fmt.Sprintf("%s vs %s: new class %q (%s), %s, witness %s", c.A, c.B, c.Signature, c.Cause, countCases(c.Count), describeWitness(c))})
			continue
		}
		var what []string
		if c.Count != q.Count {
			what = append(what, fmt.Sprintf("count %d, was %d", c.Count, q.Count))
		}
		if c.Cause != q.Cause {
			what = append(what, fmt.Sprintf("cause %s, was %s", c.Cause, q.Cause))
		}
		if !sameWitness(c.Witness, q.Witness) {
			what = append(what, fmt.Sprintf("witness %s, was %s", describeWitness(c), describeWitness(q)))
		}
		if len(what) > 0 {
			out = append(out, Change{Kind: Changed, Subject: "class", A: c.A, B: c.B, Signature: c.Signature,
				Text: fmt.Sprintf("%s vs %s: class %q changed: %s", c.A, c.B, c.Signature, strings.Join(what, "; "))})
		}
	}
	for _, c := range base {
		if !seen[classID{c.A, c.B, c.Signature}] {
			out = append(out, Change{Kind: Disappeared, Subject: "class", A: c.A, B: c.B, Signature: c.Signature,
				Text: fmt.Sprintf("%s vs %s: class %q (%s, %s) disappeared; its witness was %s", c.A, c.B, c.Signature, c.Cause, countCases(c.Count), describeWitness(c))})
		}
	}
	return out
}

func sameWitness(x, y Witness) bool {
	return x.Constraint == y.Constraint && x.Version == y.Version && x.AVerdict == y.AVerdict && x.BVerdict == y.BVerdict
}

func describeWitness(c Class) string {
	w := c.Witness
	return fmt.Sprintf("%s with %s (%s %s, %s %s)", strconv.Quote(w.Constraint), strconv.Quote(w.Version), c.A, w.AVerdict, c.B, w.BVerdict)
}

func diffSelection(base, cur *SelectionReport) []Change {
	switch {
	case base == nil && cur == nil:
		return nil
	case base == nil:
		return []Change{{Kind: Appeared, Subject: "selection", Text: fmt.Sprintf("selection appeared (%d groups)", cur.Groups)}}
	case cur == nil:
		return []Change{{Kind: Disappeared, Subject: "selection", Text: fmt.Sprintf("selection disappeared (it had %d groups)", base.Groups)}}
	}
	var out []Change
	if base.Groups != cur.Groups {
		out = append(out, Change{Kind: Changed, Subject: "selection", Text: fmt.Sprintf("selection groups: now %d, was %d", cur.Groups, base.Groups)})
	}
	old := map[[2]string]SelectionPair{}
	for _, p := range base.Pairs {
		old[[2]string{p.A, p.B}] = p
	}
	seen := map[[2]string]bool{}
	for _, p := range cur.Pairs {
		k := [2]string{p.A, p.B}
		seen[k] = true
		q, ok := old[k]
		if !ok {
			out = append(out, Change{Kind: Appeared, Subject: "selection pair", A: p.A, B: p.B,
				Text: fmt.Sprintf("selection %s vs %s appeared: %d agree, %d diverge%s", p.A, p.B, p.Agree, p.Diverge, describeSelectionWitness(p))})
			continue
		}
		var what []string
		if p.Agree != q.Agree || p.Diverge != q.Diverge {
			what = append(what, fmt.Sprintf("%d diverge, was %d (%d agree, was %d)", p.Diverge, q.Diverge, p.Agree, q.Agree))
		}
		if !sameSelectionWitness(p.Witness, q.Witness) {
			what = append(what, fmt.Sprintf("witness now%s; was%s", describeSelectionWitness(p), describeSelectionWitness(q)))
		}
		if len(what) > 0 {
			out = append(out, Change{Kind: Changed, Subject: "selection pair", A: p.A, B: p.B,
				Text: fmt.Sprintf("selection %s vs %s: %s", p.A, p.B, strings.Join(what, "; "))})
		}
	}
	for _, p := range base.Pairs {
		if !seen[[2]string{p.A, p.B}] {
			out = append(out, Change{Kind: Disappeared, Subject: "selection pair", A: p.A, B: p.B,
				Text: fmt.Sprintf("selection %s vs %s disappeared (it had %d agree, %d diverge)", p.A, p.B, p.Agree, p.Diverge)})
		}
	}
	return out
}

func sameSelectionWitness(x, y *SelectionWitness) bool {
	if x == nil || y == nil {
		return x == y
	}
	return *x == *y
}

func describeSelectionWitness(p SelectionPair) string {
	w := p.Witness
	if w == nil {
		return " no witness"
	}
	return fmt.Sprintf(" %s over %s (%s installs %s, %s installs %s)", strconv.Quote(w.Constraint), w.History, p.A, w.ASelected, p.B, w.BSelected)
}

func countCases(n int64) string {
	if n == 1 {
		return "1 case"
	}
	return strconv.FormatInt(n, 10) + " cases"
}
