// Package age is the age dimension of the differential harness: on a
// domain whose versions have publication dates, it runs every policy
// under a minimum release age in both orders, the policy first (prerel's,
// Renovate's, Dependabot's, Terraform PR #38372's) and the age first
// (OpenTofu's RFC #4444), and classes the cases where the order changes
// the selection, each class with its smallest witness.
//
// The class that matters most is the fallback trap (pnpm's #9979): without
// the cooldown the policy selects a release; under the age-first order it
// selects a prerelease, because the release it would take is too young
// and the policy, seeing a list without it, falls back. Under the
// policy-first order this never happens (engine.SelectCooled).
//
// The domains of package compare have no dates, and their runs do not
// change: the age dimension runs on a domain of its own, Exhaustive (every
// history over a small alphabet of releases and prereleases, each
// version absent, old or young, against every constraint of one
// comparator over the alphabet, and the pairs of a lower and an upper
// bound).
package age

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/prerel/prerel/engine"
)

// Case is one constraint against one dated history.
type Case struct {
	Constraint string   `json:"constraint"`
	Versions   []string `json:"versions"`
	// Young are the versions of Versions younger than the minimum age.
	Young []string `json:"young"`
}

// String writes the case as the report does: `">= 1.1.0-rc.1" over
// 1.1.0-rc.1, 2.0.0 (young)`.
func (c Case) String() string {
	parts := make([]string, len(c.Versions))
	for i, v := range c.Versions {
		parts[i] = v
		if slices.Contains(c.Young, v) {
			parts[i] += " (young)"
		}
	}
	return fmt.Sprintf("%q over %s", c.Constraint, strings.Join(parts, ", "))
}

// size orders witnesses: fewer versions, then a shorter constraint, then
// the text.
func (c Case) compare(o Case) int {
	return cmp.Or(cmp.Compare(len(c.Versions), len(o.Versions)), cmp.Compare(len(c.Constraint), len(o.Constraint)),
		cmp.Compare(c.String(), o.String()))
}

// Class is the cases of one policy where the two orders select
// differently alike: what it selects without the cooldown, under the
// policy-first order and under the age-first order, each a release, a
// prerelease or none.
type Class struct {
	Policy string `json:"policy"`
	// Kind names the class: "fallback trap" where the age-first order
	// selects a prerelease and the policy without cooldown a release; else
	// "WITHOUT / POLICY FIRST / AGE FIRST" by the kind of each selection.
	Kind  string `json:"kind"`
	Cases int    `json:"cases"`
	// Witness is the smallest case, with the three selections.
	Witness     Case   `json:"witness"`
	Without     string `json:"without"`
	PolicyFirst string `json:"policy_first"`
	AgeFirst    string `json:"age_first"`
}

// Trap is the Kind of the fallback trap's classes.
const Trap = "fallback trap"

// Report is the age dimension of a run.
type Report struct {
	MinAge string `json:"min_age"`
	Domain string `json:"domain"`
	Cases  int    `json:"cases"`
	// Policies are the policies run, in order; Differ counts, for each,
	// the cases where the order changes the selection.
	Policies []string       `json:"policies"`
	Differ   map[string]int `json:"differ"`
	// Classes are every class, the fallback traps first, then by policy
	// order and count.
	Classes []Class `json:"classes"`
}

// Run runs every case of d through every policy of ps under a minimum
// age of minAge in both orders. A policy that refuses a constraint is
// left out of that case.
func Run(d Domain, ps []engine.Policy, minAge time.Duration) (*Report, error) {
	if minAge <= 0 {
		return nil, fmt.Errorf("age: the minimum age must be positive, got %s", minAge)
	}
	r := &Report{MinAge: engine.FormatMinAge(minAge), Domain: d.Description(), Differ: map[string]int{}}
	for _, p := range ps {
		r.Policies = append(r.Policies, p.Name())
	}
	type key struct{ policy, kind string }
	classes := map[key]*Class{}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err := d.Cases(func(c Case) error {
		r.Cases++
		dates := make(engine.Dates, len(c.Versions))
		for i, v := range c.Versions {
			dates[i] = now.Add(-2 * minAge)
			if slices.Contains(c.Young, v) {
				dates[i] = now.Add(-minAge / 2)
			}
		}
		for _, p := range ps {
			pf, err := engine.SelectCooled(p, c.Constraint, c.Versions, dates, engine.Cooldown{MinAge: minAge, Now: now})
			if err != nil {
				continue
			}
			af, err := engine.SelectCooled(p, c.Constraint, c.Versions, dates, engine.Cooldown{MinAge: minAge, Now: now, AgeFirst: true})
			if err != nil {
				return fmt.Errorf("age: policy %s: %q: the age-first order refused what the policy-first order read: %v", p.Name(), c.Constraint, err)
			}
			if pf.Found == af.Found && pf.Version == af.Version {
				continue
			}
			r.Differ[p.Name()]++
			w, pk, ak := kindOf(pf.Without), kindOf(pf.Selection), kindOf(af.Selection)
			kind := w + " / " + pk + " / " + ak
			if w == "release" && ak == "prerelease" {
				kind = Trap
			}
			k := key{p.Name(), kind}
			cl := classes[k]
			if cl == nil {
				cl = &Class{Policy: p.Name(), Kind: kind}
				classes[k] = cl
			}
			cl.Cases++
			if cl.Cases == 1 || c.compare(cl.Witness) < 0 {
				cl.Witness = Case{Constraint: c.Constraint, Versions: slices.Clone(c.Versions), Young: slices.Clone(c.Young)}
				cl.Without, cl.PolicyFirst, cl.AgeFirst = shown(pf.Without), shown(pf.Selection), shown(af.Selection)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	order := map[string]int{}
	for i, n := range r.Policies {
		order[n] = i
	}
	for _, cl := range classes {
		r.Classes = append(r.Classes, *cl)
	}
	slices.SortFunc(r.Classes, func(a, b Class) int {
		return cmp.Or(-cmp.Compare(boolInt(a.Kind == Trap), boolInt(b.Kind == Trap)), cmp.Compare(order[a.Policy], order[b.Policy]),
			-cmp.Compare(a.Cases, b.Cases), cmp.Compare(a.Kind, b.Kind))
	})
	return r, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// kindOf names what a selection is: "release", "prerelease" or "none".
func kindOf(s engine.Selection) string {
	if !s.Found {
		return "none"
	}
	if v, err := engine.ParseVersion(s.Version); err == nil && v.IsPrerelease() {
		return "prerelease"
	}
	return "release"
}

// shown is a selection as the report writes it.
func shown(s engine.Selection) string {
	if !s.Found {
		return "none"
	}
	return s.Version
}

// Traps returns the fallback-trap classes.
func (r *Report) Traps() []Class {
	var out []Class
	for _, c := range r.Classes {
		if c.Kind == Trap {
			out = append(out, c)
		}
	}
	return out
}
