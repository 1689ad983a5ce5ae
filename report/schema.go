package report

import (
	"time"

	"github.com/prerel/prerel/engine"
)

// The schema versions of the reports' JSON forms, numbered as the compare
// report's: a version changes when a field changes meaning or disappears;
// a new field does not change it.
const (
	CheckSchema   = 1
	SelectSchema  = 1
	ExplainSchema = 1
)

// PolicyResult is one policy's verdict on one (constraint, version) pair,
// with the policy's reason.
type PolicyResult struct {
	Policy  string         `json:"policy"`
	Verdict engine.Verdict `json:"verdict"`
	Reason  string         `json:"reason"`
}

// NewPolicyResult is r under p's name; a nil p (see engine.ErrNilPolicy) is named
// "".
func NewPolicyResult(p engine.Policy, r engine.Result) PolicyResult {
	return PolicyResult{Policy: nameOf(p), Verdict: r.Verdict, Reason: engine.ClipReason(r.Reason)}
}

// CheckReport judges versions against one constraint with several
// policies. It is the JSON form of "prerel check".
type CheckReport struct {
	// Schema is CheckSchema.
	Schema     int    `json:"schema"`
	Constraint string `json:"constraint"`
	// Policies are the policy names, in the order of every row's Results.
	Policies []string `json:"policies"`
	// Versions has one row per version, in the order given.
	Versions []CheckRow `json:"versions"`
}

// CheckRow is one version of a CheckReport: one result per policy.
type CheckRow struct {
	Version string         `json:"version"`
	Results []PolicyResult `json:"results"`
}

// NewCheckReport compiles constraint once with each policy and judges
// every version with it. A policy that refuses the constraint gives
// Invalid for every version, with the refusal as the reason; so does a nil
// policy, named "", with engine.ErrNilPolicy, as engine.Evaluate answers.
func NewCheckReport(ps []engine.Policy, constraint string, versions []string) CheckReport {
	rep := CheckReport{
		Schema:     CheckSchema,
		Constraint: constraint,
		Policies:   policyNames(ps),
		Versions:   make([]CheckRow, len(versions)),
	}
	for i, v := range versions {
		rep.Versions[i] = CheckRow{Version: v, Results: make([]PolicyResult, len(ps))}
	}
	for j, p := range ps {
		m, err := engine.Compile(p, constraint)
		for i, v := range versions {
			rep.Versions[i].Results[j] = NewPolicyResult(p, matchCompiled(m, err, v))
		}
	}
	return rep
}

// matchCompiled judges version with a compiled constraint, or gives the
// refusal when compiling failed.
func matchCompiled(m engine.Matcher, refusal error, version string) engine.Result {
	if refusal != nil {
		return engine.InvalidResult(refusal)
	}
	return m.Match(version)
}

// EvalLine is one (constraint, version) pair judged by several policies:
// one line of "prerel eval --format json".
type EvalLine struct {
	Constraint string `json:"constraint"`
	Version    string `json:"version"`
	// Results has one result per policy, in the order the policies were
	// given.
	Results []PolicyResult `json:"results"`
}

// NewEvalLine names results, one per policy of ps in the same order.
func NewEvalLine(ps []engine.Policy, constraint, version string, results []engine.Result) EvalLine {
	line := EvalLine{Constraint: constraint, Version: version, Results: make([]PolicyResult, len(ps))}
	for i, p := range ps {
		line.Results[i] = NewPolicyResult(p, results[i])
	}
	return line
}

// SelectReport is what each of several policies would install from a list
// of available versions. It is the JSON form of "prerel select".
type SelectReport struct {
	// Schema is SelectSchema.
	Schema     int      `json:"schema"`
	Constraint string   `json:"constraint"`
	Available  []string `json:"available"`
	// Policies has one row per policy, in the order given.
	Policies []SelectRow `json:"policies"`
	// Cooldown is the minimum release age the selections are made under
	// (NewCooledSelectReport); nil for none.
	Cooldown *SelectCooldown `json:"cooldown,omitempty"`
}

// SelectCooldown is a select report's minimum release age.
type SelectCooldown struct {
	MinAge       string    `json:"min_age"`
	Now          time.Time `json:"now"`
	AllowUndated bool      `json:"allow_undated"`
	// Published are the dates of Available, null for an undated one.
	Published []*time.Time `json:"published"`
}

// RowCooldown is what the cooldown does to one policy's selection.
type RowCooldown struct {
	// Without is what the policy selects without the cooldown.
	Without  *string           `json:"without"`
	HeldBack []engine.HeldBack `json:"held_back"`
	Exempt   string            `json:"exempt,omitempty"`
	// EligibleSince is when the selected version became eligible.
	EligibleSince *time.Time `json:"eligible_since,omitempty"`
}

// SelectRow is one policy's selection.
type SelectRow struct {
	Policy string `json:"policy"`
	// Selected is the version as written in the list, or nil when the
	// policy admits none or refuses the constraint.
	Selected *string `json:"selected"`
	// Error is the policy's refusal of the constraint, if any.
	Error string `json:"error,omitempty"`
	// Unreadable lists the versions the policy could not read.
	Unreadable []engine.Unreadable `json:"unreadable,omitempty"`
	// Cooldown is, under a cooldown, what it changes; nil otherwise.
	Cooldown *RowCooldown `json:"cooldown,omitempty"`
}

// NewCooledSelectReport is NewSelectReport under a cooldown: each row is
// engine.SelectCooled's selection, with what it holds back. dates are the
// versions' dates (see engine.Dates).
func NewCooledSelectReport(ps []engine.Policy, constraint string, available []string, dates engine.Dates, c engine.Cooldown) SelectReport {
	rep := NewSelectReport(nil, constraint, available)
	rep.Policies = make([]SelectRow, len(ps))
	rep.Cooldown = &SelectCooldown{MinAge: engine.FormatMinAge(c.MinAge), Now: c.Now.UTC(), AllowUndated: c.AllowUndated, Published: make([]*time.Time, len(available))}
	for i := range available {
		if t, ok := dates.At(i); ok {
			u := t.UTC()
			rep.Cooldown.Published[i] = &u
		}
	}
	for i, p := range ps {
		row := SelectRow{Policy: nameOf(p)}
		if engine.IsNil(p) {
			row.Error = engine.ErrNilPolicy.Error()
			rep.Policies[i] = row
			continue
		}
		sel, err := engine.SelectCooled(p, constraint, available, dates, c)
		if err != nil {
			row.Error = engine.ClipReason(err.Error())
			rep.Policies[i] = row
			continue
		}
		if sel.Found {
			v := sel.Version
			row.Selected = &v
		}
		row.Unreadable = sel.Unreadable
		rc := &RowCooldown{HeldBack: sel.HeldBack, Exempt: sel.Exempt, EligibleSince: sel.EligibleSince}
		if rc.HeldBack == nil {
			rc.HeldBack = []engine.HeldBack{}
		}
		if sel.Without.Found {
			v := sel.Without.Version
			rc.Without = &v
		}
		row.Cooldown = rc
		rep.Policies[i] = row
	}
	return rep
}

// NewSelectReport runs engine.Select with every policy. A nil policy's row is
// named "" and has engine.ErrNilPolicy as its error.
func NewSelectReport(ps []engine.Policy, constraint string, available []string) SelectReport {
	rep := SelectReport{
		Schema:     SelectSchema,
		Constraint: constraint,
		Available:  append([]string{}, available...),
		Policies:   make([]SelectRow, len(ps)),
	}
	for i, p := range ps {
		rep.Policies[i] = newSelectRow(p, constraint, available)
	}
	return rep
}

func newSelectRow(p engine.Policy, constraint string, available []string) SelectRow {
	row := SelectRow{Policy: nameOf(p)}
	sel, err := engine.Select(p, constraint, available)
	switch {
	case err != nil:
		row.Error = engine.ClipReason(err.Error())
	case sel.Found:
		v := sel.Version
		row.Selected = &v
	}
	row.Unreadable = sel.Unreadable
	return row
}

// ExplainReport is one policy's reasoning for one (constraint, version)
// pair. It is the JSON form of "prerel explain".
type ExplainReport struct {
	// Schema is ExplainSchema.
	Schema     int    `json:"schema"`
	Policy     string `json:"policy"`
	Rule       string `json:"rule"`
	Constraint string `json:"constraint"`
	Version    string `json:"version"`
	// Steps are the explanation's steps, in order; never null.
	Steps   []engine.Step  `json:"steps"`
	Verdict engine.Verdict `json:"verdict"`
	Reason  string         `json:"reason"`
}

// NewExplainReport runs engine.Explain. For a nil p, Policy and Rule are "" and
// the verdict is Invalid with engine.ErrNilPolicy's text.
func NewExplainReport(p engine.Policy, constraint, version string) ExplainReport {
	x := engine.Explain(p, constraint, version)
	rule := ""
	if !engine.IsNil(p) {
		rule = p.Rule()
	}
	return ExplainReport{
		Schema:     ExplainSchema,
		Policy:     nameOf(p),
		Rule:       rule,
		Constraint: constraint,
		Version:    version,
		Steps:      append([]engine.Step{}, x.Steps...),
		Verdict:    x.Result.Verdict,
		Reason:     x.Result.Reason,
	}
}

// nameOf is p's name, or "" for a nil p.
func nameOf(p engine.Policy) string {
	if engine.IsNil(p) {
		return ""
	}
	return p.Name()
}

func policyNames(ps []engine.Policy) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = nameOf(p)
	}
	return names
}
