package propertytests

import (
	"testing"

	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// The catalogue's containments and agreements beyond holds_test.go: the
// containments found between lexical, linear-tight, ga-bound, any-pre and
// core-only; linear-tight against masterminds-pre; and core-only against
// go-version on the version core, which is how Terraform checks its own
// version. Each holding property's exclusions are needed, which the
// divergences "without the ... exclusion" show; and the containments that
// do not hold are divergences with their witnesses.

// exclEqualCore: core-only judges "=" by the version core ("= 2.0.0"
// admits 2.0.0-beta), ga-bound by precedence.
var exclEqualCore = exclusion{
	name: "equal-core",
	why:  `core-only judges "=" by the version core ("= 2.0.0" admits 2.0.0-beta); ga-bound by precedence`,
	applies: func(c generate.CaseSpec) bool {
		return prereleaseMeetsCore(c, engine.OpEqual)
	},
}

// exclNotEqualCore: core-only judges "!=" by the version core ("!= 2.0.0"
// refuses 2.0.0-beta), ga-bound by precedence.
var exclNotEqualCore = exclusion{
	name: "not-equal-core",
	why:  `core-only judges "!=" by the version core ("!= 2.0.0" refuses 2.0.0-beta); ga-bound by precedence`,
	applies: func(c generate.CaseSpec) bool {
		return prereleaseMeetsCore(c, engine.OpNotEqual)
	},
}

// prereleaseMeetsCore reports whether the version is a prerelease and an op
// comparator names its core.
func prereleaseMeetsCore(c generate.CaseSpec, op engine.Op) bool {
	v := c.Version.Engine()
	if !v.IsPrerelease() {
		return false
	}
	for _, cmp := range c.Constraint.Engine().Comparators() {
		if cmp.Op == op && cmp.Version.Equal(v.Core()) {
			return true
		}
	}
	return false
}

// exclTightBound: linear-tight's "~>" stops before the prereleases of its
// upper bound ("~> 1.2" refuses 2.0.0-beta.1), Masterminds' "< 2.0.0" does
// not.
var exclTightBound = exclusion{
	name: "tight-bound",
	why:  `linear-tight's "~>" excludes the prereleases of its upper bound; the translated "<" admits them`,
	applies: func(c generate.CaseSpec) bool {
		v := c.Version.Engine()
		if !v.IsPrerelease() {
			return false
		}
		for _, cmp := range c.Constraint.Engine().Comparators() {
			if upper, ok := cmp.Upper(); ok && v.SameCore(upper) {
				return true
			}
		}
		return false
	},
}

// exclOnePartPessimisticCore is go-version's one-part "~>" quirk on the
// version core: "~> 1" has no upper bound.
var exclOnePartPessimisticCore = exclusion{
	name: "one-part-pessimistic",
	why:  `go-version's one-part "~>" ("~> 1") has no upper bound`,
	applies: func(c generate.CaseSpec) bool {
		core := c.Version.Engine().Core()
		for _, cmp := range c.Constraint.Engine().Comparators() {
			if cmp.Op != engine.OpPessimistic || cmp.Precision != 1 {
				continue
			}
			if upper, ok := cmp.Upper(); ok && core.Compare(upper) >= 0 {
				return true
			}
		}
		return false
	},
}

// catalogueProperties are the holding properties of this file; each needs
// its policies registered.
func catalogueProperties(t *testing.T) []caseProperty {
	var props []caseProperty
	add := func(needs []string, p func() caseProperty) {
		if registered(needs...) {
			props = append(props, p())
		}
	}
	for _, pair := range [][2]string{{"lexical", "linear-tight"}, {"lexical", "ga-bound"}} {
		add(pair[:], func() caseProperty {
			return caseProperty{
				name:  pair[1] + " admits every version " + pair[0] + " admits",
				doc:   "lexical admits a prerelease only through comparators that name a prerelease of its base, which " + pair[1] + " judges by precedence",
				check: contains(policy(t, pair[0]), policy(t, pair[1])),
			}
		})
	}
	add([]string{"core-only", "ga-bound"}, func() caseProperty {
		return caseProperty{
			name:       "ga-bound admits every version core-only admits",
			doc:        `both judge a prerelease by its GA release on every comparator but "=" and "!="`,
			exclusions: []exclusion{exclEqualCore},
			check:      contains(policy(t, "core-only"), policy(t, "ga-bound")),
		}
	})
	add([]string{"ga-bound", "core-only"}, func() caseProperty {
		return caseProperty{
			name:       "core-only admits every version ga-bound admits",
			doc:        `on a constraint that names no prerelease both judge a prerelease by its GA release, but for "=" and "!="`,
			exclusions: []exclusion{exclPrereleaseConstraint, exclNotEqualCore},
			check:      contains(policy(t, "ga-bound"), policy(t, "core-only")),
		}
	})
	add([]string{"ga-bound", "core-only"}, func() caseProperty {
		return caseProperty{
			name:       "ga-bound and core-only agree",
			doc:        `on a constraint that names no prerelease both judge a prerelease by its GA release, but for "=" and "!="`,
			exclusions: []exclusion{exclPrereleaseConstraint, exclEqualCore, exclNotEqualCore},
			check:      agree(policy(t, "ga-bound"), policy(t, "core-only")),
		}
	})
	add([]string{"any-pre", "core-only"}, func() caseProperty {
		return caseProperty{
			name:       "core-only admits every version any-pre admits",
			doc:        "on a constraint that names no prerelease any-pre admits releases only, by precedence",
			exclusions: []exclusion{exclPrereleaseConstraint},
			check:      contains(policy(t, "any-pre"), policy(t, "core-only")),
		}
	})
	add([]string{"linear-tight", "masterminds-pre"}, func() caseProperty {
		return caseProperty{
			name:       "linear-tight agrees with masterminds-pre",
			doc:        `linear-tight is linear, Masterminds' Check with IncludePrerelease, but for its "~>" bound`,
			exclusions: []exclusion{exclTightBound},
			check:      agree(policy(t, "linear-tight"), policy(t, "masterminds-pre")),
		}
	})
	add([]string{"core-only", "hashicorp"}, func() caseProperty {
		core, hashicorp := policy(t, "core-only"), policy(t, "hashicorp")
		return caseProperty{
			name:       "core-only judges a version as go-version judges its core",
			doc:        "Terraform checks its own version with go-version's Check on the version core",
			exclusions: []exclusion{exclPrereleaseConstraint, exclOnePartPessimisticCore},
			check: func(k generate.CaseSpec) string {
				c, v := k.Constraint.String(), k.Version.String()
				ga := generate.VersionSpec{Major: k.Version.Major, Minor: k.Version.Minor, Patch: k.Version.Patch}.String()
				if verdict(core, c, v).Verdict == verdict(hashicorp, c, ga).Verdict {
					return ""
				}
				return describe(c, v, core) + "; " + describe(c, ga, hashicorp)
			},
		}
	})
	return props
}

func TestCataloguePropertiesHold(t *testing.T) {
	for _, p := range catalogueProperties(t) {
		t.Run(p.name, func(t *testing.T) {
			res, hits := p.run(parameters(t))
			requireHolds(t, p.name, res, hits)
		})
	}
}

// catalogueDivergences are the containments that do not hold between the
// catalogue's policies (read: b admits every version a admits), and each
// holding property of this file without one of its exclusions.
func catalogueDivergences(t *testing.T) []divergence {
	var out []divergence
	for _, d := range []struct {
		a, b    string
		witness string
	}{
		{"lexical", "any-pre", `constraint "!= 0.0.0" version "0.0.0-alpha"`},
		{"linear", "linear-tight", `constraint "~> 0.0.0" version "0.1.0-alpha"`},
		{"linear-tight", "any-pre", `constraint ">= 0.0.0" version "1.0.0-alpha"`},
		{"cargo", "ga-bound", `constraint ">= 0.0.0-alpha, < 0.0.0" version "0.0.0-alpha"`},
		{"linear-tight", "ga-bound", `constraint "< 0.0.0" version "0.0.0-alpha"`},
		{"ga-bound", "lexical", `constraint "< 0.1.0" version "0.0.0-alpha"`},
		{"core-only", "linear", `constraint ">= 0.0.0" version "0.0.0-alpha"`},
		{"lexical", "core-only", `constraint ">= 0.0.0-alpha" version "0.0.0"`},
	} {
		if !registered(d.a, d.b) {
			continue
		}
		out = append(out, divergence{
			property: caseProperty{
				name:  d.b + " admits every version " + d.a + " admits",
				check: contains(policy(t, d.a), policy(t, d.b)),
			},
			witness: d.witness,
		})
	}
	witnesses := map[string]string{
		"ga-bound admits every version core-only admits without the equal-core exclusion":                      `constraint "= 0.0.0" version "0.0.0-alpha"`,
		"core-only admits every version ga-bound admits without the prerelease-constraint exclusion":           `constraint ">= 0.0.0-alpha" version "0.0.0"`,
		"core-only admits every version ga-bound admits without the not-equal-core exclusion":                  `constraint "!= 0.0.0" version "0.0.0-alpha"`,
		"ga-bound and core-only agree without the prerelease-constraint exclusion":                             `constraint ">= 0.0.0-alpha" version "0.0.0"`,
		"ga-bound and core-only agree without the equal-core exclusion":                                        `constraint "= 0.0.0" version "0.0.0-alpha"`,
		"ga-bound and core-only agree without the not-equal-core exclusion":                                    `constraint "!= 0.0.0" version "0.0.0-alpha"`,
		"core-only admits every version any-pre admits without the prerelease-constraint exclusion":            `constraint ">= 0.0.0-alpha" version "0.0.0"`,
		"linear-tight agrees with masterminds-pre without the tight-bound exclusion":                           `constraint "~> 0.0.0" version "0.1.0-alpha"`,
		"core-only judges a version as go-version judges its core without the prerelease-constraint exclusion": `constraint ">= 0.0.0-alpha" version "0.0.0"`,
		"core-only judges a version as go-version judges its core without the one-part-pessimistic exclusion":  `constraint "~> 0" version "1.0.0"`,
	}
	for _, p := range catalogueProperties(t) {
		for i, e := range p.exclusions {
			q := p
			q.name = p.name + " without the " + e.name + " exclusion"
			q.exclusions = append(append([]exclusion(nil), p.exclusions[:i]...), p.exclusions[i+1:]...)
			w, ok := witnesses[q.name]
			if !ok {
				t.Errorf("no documented witness for %q", q.name)
			}
			out = append(out, divergence{property: q, witness: w})
		}
	}
	return out
}

func TestCatalogueDivergences(t *testing.T) {
	longtest.SkipShort(t)
	for _, d := range catalogueDivergences(t) {
		t.Run(d.property.name, func(t *testing.T) {
			params := witnessParameters(t, d.tests)
			res, _ := d.property.run(params)
			requireFalsified(t, d.property.name, d.witness, res)
		})
	}
}
