package compare

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/plural"
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

// diffReports lists what differs between the stable parts of a baseline and a
// report: the domain, policies that appeared or disappeared, pairs whose
// counts changed, classes that appeared, disappeared or changed (count,
// cause or witness), and the same for selection. Reasons are ignored, and
// so is the order of the policies: a pair and its classes are the same
// whichever of the two policies was given first. A domain read from a file
// is compared by its cases (DomainInfo.Digest and the case count), not by
// the file's name. An empty result means the report matches the baseline;
// a nil report is taken as an empty one.
//
// Changes come in a fixed order: domain, policies, pairs, classes,
// selection; within each, report order, then what disappeared in baseline
// order. diffReports lists every change; ComputeDrift keeps the first
// maxDriftChanges and counts the rest.
func diffReports(baseline, current *Report) []Change {
	out, _ := diff(baseline, current, -1)
	return out
}

// changeList keeps the first limit changes (every change when limit is
// negative) and counts them all; a change's text is written only when it
// is kept.
type changeList struct {
	limit int
	out   []Change
	total int
}

// What a change quotes of the baseline (names, signatures, descriptions,
// witnesses) comes from a file prerel was given: each field, and the
// text, is clipped as reasons are (engine.ClipReason), so that a long
// value in a baseline cannot make stderr, the report or the step summary
// as long as itself.
func (l *changeList) add(kind ChangeKind, subject, a, b, sig string, text func() string) {
	l.total++
	if l.limit >= 0 && len(l.out) >= l.limit {
		return
	}
	clip := engine.ClipReason
	l.out = append(l.out, Change{Kind: kind, Subject: subject, A: clip(a), B: clip(b), Signature: clip(sig), Text: clip(text())})
}

// diff is diffReports keeping the first limit changes; it also returns how many
// changes there are in all.
func diff(baseline, current *Report, limit int) ([]Change, int) {
	b, c := baseline, current
	if b == nil {
		b = &Report{}
	}
	if c == nil {
		c = &Report{}
	}
	l := &changeList{limit: limit}
	diffDomain(l, b.Domain, c.Domain)
	for _, n := range missing(c.Policies, b.Policies) {
		l.add(Appeared, "policy", "", "", "", func() string { return fmt.Sprintf("policy %s appeared", n) })
	}
	for _, n := range missing(b.Policies, c.Policies) {
		l.add(Disappeared, "policy", "", "", "", func() string { return fmt.Sprintf("policy %s disappeared", n) })
	}
	diffPairs(l, b.Pairs, c.Pairs)
	diffClasses(l, b.Classes, c.Classes)
	diffSelection(l, b.Selection, c.Selection)
	return l.out, l.total
}

// sameCases reports whether two domains hold the same cases in the same
// order: the same digest and case count for domains read from files, the
// same description and case count for the others (and for a baseline
// written before domains had digests).
func sameCases(x, y DomainInfo) bool {
	if x.Cases != y.Cases {
		return false
	}
	if x.Digest != "" && y.Digest != "" {
		return x.Digest == y.Digest
	}
	return x.Description == y.Description
}

func diffDomain(l *changeList, b, c DomainInfo) {
	switch {
	case b.Digest != "" && c.Digest != "":
		if b.Digest != c.Digest {
			l.add(Changed, "domain", "", "", "", func() string {
				return fmt.Sprintf("domain changed: the file holds other cases (now %q, was %q)", clipQuoted(c.Description), clipQuoted(b.Description))
			})
		}
	case b.Description != c.Description:
		l.add(Changed, "domain", "", "", "", func() string {
			text := fmt.Sprintf("domain changed: now %q, was %q", clipQuoted(c.Description), clipQuoted(b.Description))
			if b.Digest == "" && c.Digest != "" && b.Name == c.Name {
				text += "; the baseline was written by an older prerel that names the file instead of " +
					"recording its cases: rewrite it with --write-baseline"
			}
			return text
		})
	}
	if b.Cases != c.Cases {
		l.add(Changed, "domain", "", "", "", func() string {
			return fmt.Sprintf("case count changed: now %d, was %d", c.Cases, b.Cases)
		})
	}
}

// clipQuoted clips a value one of several in a change's text quotes, so
// that each keeps a part of the text's bound.
func clipQuoted(s string) string { return elide.Middle(s, engine.MaxReason/2) }

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

// pairID names a pair of policies whichever was given first.
type pairID [2]string

func pairOf(a, b string) pairID {
	if b < a {
		return pairID{b, a}
	}
	return pairID{a, b}
}

// swapped reports whether a, b is the pair in the other order than
// pairOf's.
func swapped(a, b string) bool { return b < a }

func diffPairs(l *changeList, base, cur []Pair) {
	old := map[pairID]Pair{}
	for _, p := range base {
		old[pairOf(p.A, p.B)] = p
	}
	seen := map[pairID]bool{}
	for _, p := range cur {
		k := pairOf(p.A, p.B)
		seen[k] = true
		q, ok := old[k]
		switch {
		case !ok:
			l.add(Appeared, "pair", p.A, p.B, "", func() string {
				return fmt.Sprintf("%s vs %s appeared: %d agree, %d diverge", p.A, p.B, p.Agree, p.Diverge)
			})
		case p.Agree != q.Agree || p.Diverge != q.Diverge:
			l.add(Changed, "pair", p.A, p.B, "", func() string {
				return fmt.Sprintf("%s vs %s: %d diverge, was %d (%d agree, was %d)", p.A, p.B, p.Diverge, q.Diverge, p.Agree, q.Agree)
			})
		case p.CasesLeftOut != q.CasesLeftOut:
			l.add(Changed, "pair", p.A, p.B, "", func() string {
				return fmt.Sprintf("%s vs %s: %d diverging cases in classes left out, was %d", p.A, p.B, p.CasesLeftOut, q.CasesLeftOut)
			})
		}
	}
	for _, p := range base {
		if !seen[pairOf(p.A, p.B)] {
			l.add(Disappeared, "pair", p.A, p.B, "", func() string {
				return fmt.Sprintf("%s vs %s disappeared (it had %d agree, %d diverge)", p.A, p.B, p.Agree, p.Diverge)
			})
		}
	}
}

// classID names a class whichever policy of its pair was given first: the
// pair in pairOf's order and the signature with the verdicts in that
// order.
type classID struct {
	pair pairID
	sig  string
}

func classIDOf(c Class) classID {
	if swapped(c.A, c.B) {
		return classID{pairOf(c.A, c.B), swapSignature(c.Signature)}
	}
	return classID{pairOf(c.A, c.B), c.Signature}
}

// swapSignature returns the signature of the same case with the sides of
// the pair swapped: "...; a allow, b reject" becomes "...; a reject, b
// allow".
func swapSignature(sig string) string {
	i := strings.LastIndex(sig, "; a ")
	if i < 0 {
		return sig
	}
	a, b, ok := strings.Cut(sig[i+len("; a "):], ", b ")
	if !ok {
		return sig
	}
	return sig[:i] + "; a " + b + ", b " + a
}

// oriented returns c with its pair in pairOf's order.
func oriented(c Class) Class {
	if !swapped(c.A, c.B) {
		return c
	}
	c.A, c.B = c.B, c.A
	c.Signature = swapSignature(c.Signature)
	w := &c.Witness
	w.AVerdict, w.BVerdict = w.BVerdict, w.AVerdict
	w.AReason, w.BReason = w.BReason, w.AReason
	return c
}

func diffClasses(l *changeList, base, cur []Class) {
	old := make(map[classID]int, len(base))
	for i, c := range base {
		old[classIDOf(c)] = i
	}
	seen := make(map[classID]bool, len(cur))
	for _, c := range cur {
		id := classIDOf(c)
		seen[id] = true
		i, ok := old[id]
		if !ok {
			l.add(Appeared, "class", c.A, c.B, c.Signature, func() string {
				return fmt.Sprintf("%s vs %s: new class %q (%s), %s, witness %s", c.A, c.B, c.Signature, c.Cause, countCases(c.Count), describeWitness(c))
			})
			continue
		}
		q := base[i]
		oc, oq := oriented(c), oriented(q)
		countChanged, causeChanged, witnessChanged := oc.Count != oq.Count, oc.Cause != oq.Cause, !sameWitness(oc.Witness, oq.Witness)
		if !countChanged && !causeChanged && !witnessChanged {
			continue
		}
		l.add(Changed, "class", c.A, c.B, c.Signature, func() string {
			var what []string
			if countChanged {
				what = append(what, fmt.Sprintf("count %d, was %d", c.Count, q.Count))
			}
			if causeChanged {
				what = append(what, fmt.Sprintf("cause %s, was %s", c.Cause, q.Cause))
			}
			if witnessChanged {
				what = append(what, fmt.Sprintf("witness %s, was %s", describeWitness(c), describeWitness(q)))
			}
			return fmt.Sprintf("%s vs %s: class %q changed: %s", c.A, c.B, c.Signature, strings.Join(what, "; "))
		})
	}
	for _, c := range base {
		if !seen[classIDOf(c)] {
			l.add(Disappeared, "class", c.A, c.B, c.Signature, func() string {
				return fmt.Sprintf("%s vs %s: class %q (%s, %s) disappeared; its witness was %s", c.A, c.B, c.Signature, c.Cause, countCases(c.Count), describeWitness(c))
			})
		}
	}
}

func sameWitness(x, y Witness) bool {
	return x.Constraint == y.Constraint && x.Version == y.Version && x.AVerdict == y.AVerdict && x.BVerdict == y.BVerdict
}

func describeWitness(c Class) string {
	w := c.Witness
	return fmt.Sprintf("%s with %s (%s %s, %s %s)", strconv.Quote(w.Constraint), strconv.Quote(w.Version), c.A, w.AVerdict, c.B, w.BVerdict)
}

func diffSelection(l *changeList, base, cur *SelectionReport) {
	switch {
	case base == nil && cur == nil:
		return
	case base == nil:
		l.add(Appeared, "selection", "", "", "", func() string { return fmt.Sprintf("selection appeared (%d groups)", cur.Groups) })
		return
	case cur == nil:
		l.add(Disappeared, "selection", "", "", "", func() string {
			return fmt.Sprintf("selection disappeared (it had %d groups)", base.Groups)
		})
		return
	}
	if base.Groups != cur.Groups {
		l.add(Changed, "selection", "", "", "", func() string {
			return fmt.Sprintf("selection groups: now %d, was %d", cur.Groups, base.Groups)
		})
	}
	old := map[pairID]SelectionPair{}
	for _, p := range base.Pairs {
		old[pairOf(p.A, p.B)] = p
	}
	seen := map[pairID]bool{}
	for _, p := range cur.Pairs {
		k := pairOf(p.A, p.B)
		seen[k] = true
		q, ok := old[k]
		if !ok {
			l.add(Appeared, "selection pair", p.A, p.B, "", func() string {
				return fmt.Sprintf("selection %s vs %s appeared: %d agree, %d diverge%s", p.A, p.B, p.Agree, p.Diverge, describeSelectionWitness(p))
			})
			continue
		}
		countChanged := p.Agree != q.Agree || p.Diverge != q.Diverge
		witnessChanged := !sameSelectionWitness(orientedSelection(p).Witness, orientedSelection(q).Witness)
		if !countChanged && !witnessChanged {
			continue
		}
		l.add(Changed, "selection pair", p.A, p.B, "", func() string {
			var what []string
			if countChanged {
				what = append(what, fmt.Sprintf("%d diverge, was %d (%d agree, was %d)", p.Diverge, q.Diverge, p.Agree, q.Agree))
			}
			if witnessChanged {
				what = append(what, fmt.Sprintf("witness now%s; was%s", describeSelectionWitness(p), describeSelectionWitness(q)))
			}
			return fmt.Sprintf("selection %s vs %s: %s", p.A, p.B, strings.Join(what, "; "))
		})
	}
	for _, p := range base.Pairs {
		if !seen[pairOf(p.A, p.B)] {
			l.add(Disappeared, "selection pair", p.A, p.B, "", func() string {
				return fmt.Sprintf("selection %s vs %s disappeared (it had %d agree, %d diverge)", p.A, p.B, p.Agree, p.Diverge)
			})
		}
	}
}

// orientedSelection returns p with its pair in pairOf's order.
func orientedSelection(p SelectionPair) SelectionPair {
	if !swapped(p.A, p.B) {
		return p
	}
	p.A, p.B = p.B, p.A
	if p.Witness != nil {
		w := *p.Witness
		w.ASelected, w.BSelected = w.BSelected, w.ASelected
		p.Witness = &w
	}
	return p
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

func countCases(n int64) string { return plural.Of(n, "case", "cases") }
