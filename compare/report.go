package compare

import (
	"errors"
	"io"
	"strconv"

	"github.com/prerel/prerel/compare/internal/jsonstream"
	"github.com/prerel/prerel/engine"
)

// SchemaVersion is the version of the JSON form of a Report (and so of a
// baseline). It changes when a field changes meaning or disappears.
const SchemaVersion = 1

// Report is the result of a run. Its JSON form (WriteJSON) is the
// machine-readable report; its stable part is what a baseline keeps
// (WriteBaseline): no reasons, and none of what follows from the rest.
type Report struct {
	// Schema is SchemaVersion.
	Schema int `json:"schema"`
	// Domain describes the cases and counts those run.
	Domain DomainInfo `json:"domain"`
	// Policies are the policy names in the order they were given.
	Policies []string `json:"policies"`
	// Reference is the policy the others are compared with in Summary:
	// Options.Reference, or DefaultReference.
	Reference string `json:"reference,omitempty"`
	// Rank is the order of Classes within a pair and of Splits.
	Rank Rank `json:"rank,omitempty"`
	// Summary compares each other policy with Reference, policies that
	// agree on every case in one row, the rows closest to the reference
	// first. A baseline leaves it out: it follows from the pairs and
	// classes.
	Summary []SummaryRow `json:"summary,omitempty"`
	// Splits are the case shapes that split the policies: the cases
	// where they do not all give the same verdict, grouped by case shape
	// and by which policies allow, reject and refuse them, in Rank order.
	// A baseline leaves them out.
	Splits []Split `json:"splits,omitempty"`
	// SplitCasesLeftOut counts the cases of the splits left out of Splits
	// because the run had more than MaxSplits; 0 when Splits has them
	// all.
	SplitCasesLeftOut int64 `json:"split_cases_left_out,omitempty"`
	// Pairs has one entry for each pair of policies, a before b in the
	// order of Policies.
	Pairs []Pair `json:"pairs"`
	// Classes are the divergence classes, in the order of Pairs, then by
	// count (largest first), then by signature.
	Classes []Class `json:"classes"`
	// Selection compares what each policy would install; only domains of
	// real version histories (Group.History set) have it.
	Selection *SelectionReport `json:"selection,omitempty"`
	// Verdicts holds, in a baseline, every policy's verdict on every case
	// in the domain's order, packed, compressed and in base64, so that a drift says exactly which verdicts
	// changed. A run keeps them for domains of up to 64 Mi
	// verdicts (cases times policies).
	Verdicts map[string]string `json:"verdicts,omitempty"`
	// PolicyErrors names each policy that failed on some cases: judging
	// them gave an error, and those cases are its invalid verdicts, the
	// error as the reason. Run leaves it empty; the program that made the
	// policies fills it before the report is shown (render.PolicyErrorsOf,
	// for the policies written in HCL). A baseline leaves it out.
	PolicyErrors []PolicyError `json:"policy_errors,omitempty"`

	// verdicts are the run's verdicts by policy, one byte per case, made
	// from the run's log when first asked for.
	verdicts *runVerdicts
}

// WriteJSON writes r as indented JSON: an object with "schema",
// "domain" (name, description, cases), "policies", "pairs" (a, b, agree,
// diverge), "classes" (a, b, signature, cause, count, witness with
// constraint, version, a_verdict, b_verdict, a_reason, b_reason) and, for
// domains of real histories, "selection", and "policy_errors" when a
// policy failed on some cases (see PolicyErrors). The characters < > & are written
// as they are. The report is written as it is encoded, a class at a time,
// not held whole in memory.
func (r *Report) WriteJSON(w io.Writer) error {
	if w == nil || r == nil {
		return errors.New("compare: render needs a writer and a report")
	}
	return jsonstream.Write(w, r, true)
}

// PolicyError is a policy that failed on some cases, with its errors
// grouped by reason.
type PolicyError struct {
	// Policy is the policy's name.
	Policy string `json:"policy"`
	// Cases counts every case that failed, those of Errors and OtherCases.
	Cases int64 `json:"cases"`
	// Errors are the distinct errors, each with its cases and the first.
	Errors []PolicyErrorGroup `json:"errors"`
	// OtherCases counts the cases of errors beyond those of Errors.
	OtherCases int64 `json:"other_cases,omitempty"`
}

// PolicyErrorGroup is one distinct error of a policy, the cases that gave
// it and the first of them.
type PolicyErrorGroup struct {
	// Reason is the error, as the invalid verdicts give it.
	Reason string `json:"reason"`
	// Cases counts the cases that gave it.
	Cases int64 `json:"cases"`
	// Constraint and Version are the first case that gave it; Version is
	// empty for an error about the constraint alone.
	Constraint string `json:"constraint"`
	Version    string `json:"version,omitempty"`
}

// FirstCase names the first case of g for a message: the constraint,
// quoted, with the version, or the constraint alone when g has no
// version.
func (g PolicyErrorGroup) FirstCase() string {
	if g.Version == "" {
		return "the constraint " + strconv.Quote(g.Constraint)
	}
	return strconv.Quote(g.Constraint) + " with " + strconv.Quote(g.Version)
}

// Pair is one cell of the agreement matrix.
type Pair struct {
	A       string `json:"a"`
	B       string `json:"b"`
	Agree   int64  `json:"agree"`   // cases where a and b gave the same verdict
	Diverge int64  `json:"diverge"` // cases where they did not
	// CasesLeftOut counts the diverging cases of the classes the report
	// leaves out because the pair had more than ClassesPerPair classes;
	// 0 when Classes lists every class of the pair.
	CasesLeftOut int64 `json:"cases_left_out,omitempty"`
}

// Class is a divergence class: the cases of one pair of policies that
// share a signature.
type Class struct {
	A         string  `json:"a"`
	B         string  `json:"b"`
	Signature string  `json:"signature"`
	Cause     Cause   `json:"cause"`
	Count     int64   `json:"count"`
	Witness   Witness `json:"witness"`
	// Relevance is how common the witness's constraint shape is among
	// real constraints; nil when the run had no RelevanceTable. A
	// baseline leaves it out.
	Relevance *Relevance `json:"relevance,omitempty"`
}

// Witness is the smallest case of a class (fewest comparators, then the
// smallest numbers, then the shortest text, then byte order) with the
// verdict of each side.
type Witness struct {
	Constraint string         `json:"constraint"`
	Version    string         `json:"version"`
	AVerdict   engine.Verdict `json:"a_verdict"`
	BVerdict   engine.Verdict `json:"b_verdict"`
	// AReason and BReason are the policies' own words. A baseline leaves
	// them out, so that rewording a reason is no drift.
	AReason string `json:"a_reason,omitempty"`
	BReason string `json:"b_reason,omitempty"`
}

// SelectionReport compares, for each (constraint, history) group, the
// version each policy would install from the whole history.
type SelectionReport struct {
	// Groups is the number of (constraint, history) groups compared.
	Groups int64           `json:"groups"`
	Pairs  []SelectionPair `json:"pairs"`
}

// SelectionPair counts, for one pair of policies, the groups where both
// would install the same thing and those where they would not.
type SelectionPair struct {
	A       string `json:"a"`
	B       string `json:"b"`
	Agree   int64  `json:"agree"`
	Diverge int64  `json:"diverge"`
	// Witness is the smallest diverging group (fewest comparators, then
	// the smallest numbers, then the shortest constraint, then byte order
	// of the constraint and the history name); nil when Diverge is 0.
	Witness *SelectionWitness `json:"witness,omitempty"`
}

// SelectionWitness is a (constraint, history) group where two policies
// would install different things.
type SelectionWitness struct {
	Constraint string `json:"constraint"`
	History    string `json:"history"`
	// ASelected and BSelected are the version each side would install
	// exactly as the history spells it, "(none)" when it admits none,
	// or "(invalid)" when it refuses the constraint.
	ASelected string `json:"a_selected"`
	BSelected string `json:"b_selected"`
}

// What a selection witness shows for a side that installs nothing.
const (
	noneSelected    = "(none)"    // the policy admits no version of the history
	invalidSelected = "(invalid)" // the policy refuses the constraint
)

// PairOf returns the agreement of policies a and b, in either order.
func (r *Report) PairOf(a, b string) (Pair, bool) {
	for _, p := range r.Pairs {
		if p.A == a && p.B == b || p.A == b && p.B == a {
			return p, true
		}
	}
	return Pair{}, false
}

// ClassesOf returns the classes of the pair a, b (in either order), in
// report order.
func (r *Report) ClassesOf(a, b string) []Class {
	var out []Class
	for _, c := range r.Classes {
		if c.A == a && c.B == b || c.A == b && c.B == a {
			out = append(out, c)
		}
	}
	return out
}

// ClassesByPair returns a function that gives the classes of a pair as
// ClassesOf does, found with one pass over the report for all the pairs,
// for a renderer that walks every pair. A pair's classes that come in one
// run are the report's own, which the caller must not change.
func (r *Report) ClassesByPair() func(a, b string) []Class {
	return newPairClasses(r).of
}

// pairClasses finds the classes of each pair of a report as ClassesOf
// does, with one pass over the report for all the pairs: the classes of
// a pair come in runs (a run's report has one per pair), and index keeps
// each pair's runs, [from, to) into the report's classes.
type pairClasses struct {
	r     *Report
	index map[[2]string][][2]int
}

func newPairClasses(r *Report) pairClasses {
	pc := pairClasses{r: r, index: map[[2]string][][2]int{}}
	for from := 0; from < len(r.Classes); {
		a, b := r.Classes[from].A, r.Classes[from].B
		to := from + 1
		for to < len(r.Classes) && r.Classes[to].A == a && r.Classes[to].B == b {
			to++
		}
		k := pairClassesKey(a, b)
		pc.index[k] = append(pc.index[k], [2]int{from, to})
		from = to
	}
	return pc
}

// of is r.ClassesOf(a, b); the classes of a pair that come in one run are
// the report's own, which the caller must not change.
func (pc pairClasses) of(a, b string) []Class {
	runs := pc.index[pairClassesKey(a, b)]
	switch len(runs) {
	case 0:
		return nil
	case 1:
		return pc.r.Classes[runs[0][0]:runs[0][1]:runs[0][1]]
	}
	var out []Class
	for _, run := range runs {
		out = append(out, pc.r.Classes[run[0]:run[1]]...)
	}
	return out
}

// pairClassesKey names a pair whichever its order.
func pairClassesKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}
