package propertytests

import (
	"testing"

	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
)

// holdingProperties are the properties over generated cases that hold,
// each with the named exclusions it needs.
func holdingProperties(t *testing.T) []caseProperty {
	strict, lexical, cargo := policy(t, "strict"), policy(t, "lexical"), policy(t, "cargo")
	props := []caseProperty{
		{
			name: "strict agrees with apparentlymart",
			doc:  "strict is go-versions' MeetingConstraints wherever none of go-versions' own quirks decides",
			exclusions: []exclusion{
				exclVPrefix, exclBuildMetadata, exclGoVersionsPrecedence, exclZeroVersion,
			},
			check: agree(strict, policy(t, "apparentlymart")),
		},
		{
			name: "lexical agrees with hashicorp",
			doc:  "lexical is go-version's Constraints.Check wherever none of go-version's own quirks decides",
			exclusions: []exclusion{
				exclOnePartPessimistic, exclGoVersionPrecedence,
			},
			check: agree(lexical, policy(t, "hashicorp")),
		},
		{
			name:  "cargo admits every version strict admits",
			doc:   "an exact request names a prerelease of the version's own base, which is cargo's condition",
			check: contains(strict, cargo),
		},
		{
			name:  "strict and cargo agree on release versions",
			doc:   "on a release version strict and cargo are both base satisfaction",
			check: releasesAgree(strict, cargo),
		},
		{
			name:       "native policies agree on release versions",
			doc:        `on a release version every native policy is base satisfaction, but for lexical's prerelease "~>"`,
			exclusions: []exclusion{exclPrereleasePessimistic},
			check:      releasesAgree(strict, lexical, cargo),
		},
		{
			name: "an exact request within a constraint is honoured by strict and cargo",
			doc: `adding "= V" to a constraint whose other comparators V satisfies by precedence ` +
				"admits V, prerelease or not",
			check: func(k generate.CaseSpec) string {
				exact := generate.ComparatorSpec{Op: engine.OpEqual, Precision: 3, Version: k.Version}
				cons := k.Constraint.Clone()
				cons.Comparators = append(cons.Comparators, exact)
				if !cons.Engine().Holds(k.Version.Engine()) {
					return ""
				}
				c, v := cons.String(), k.Version.String()
				for _, p := range []engine.Policy{strict, cargo} {
					if verdict(p, c, v).Verdict != engine.Allow {
						return describe(c, v, strict, cargo)
					}
				}
				return ""
			},
		},
	}
	for _, name := range []string{"strict", "lexical", "cargo", "hashicorp", "masterminds", "masterminds-pre"} {
		props = append(props, exactProperty(policy(t, name)))
	}
	for _, name := range []string{"apparentlymart", "apparentlymart-exact"} {
		p := exactProperty(policy(t, name))
		p.exclusions = []exclusion{exclVPrefix, exclZeroVersion}
		props = append(props, p)
	}
	for _, name := range append(append([]string(nil), natives...), adapterNames...) {
		props = append(props, orderProperty(policy(t, name)))
	}
	return props
}

// exactProperty is the property that "= V" and the bare "V" admit V.
func exactProperty(p engine.Policy) caseProperty {
	return caseProperty{
		name:  "an exact request is honoured by " + p.Name(),
		doc:   `"= V" and "V" admit V, prerelease, build metadata and "v" prefix included`,
		exact: true,
		check: func(k generate.CaseSpec) string {
			c, v := k.Constraint.String(), k.Version.String()
			if verdict(p, c, v).Verdict != engine.Allow {
				return describe(c, v, p)
			}
			return ""
		},
	}
}

// releasesAgree is the check that the policies give one verdict on every
// release version.
func releasesAgree(ps ...engine.Policy) func(generate.CaseSpec) string {
	return func(k generate.CaseSpec) string {
		if k.Version.Prerelease != "" {
			return ""
		}
		c, v := k.Constraint.String(), k.Version.String()
		want := verdict(ps[0], c, v).Verdict
		for _, p := range ps[1:] {
			if verdict(p, c, v).Verdict != want {
				return describe(c, v, ps...)
			}
		}
		return ""
	}
}

// orderProperty is the property that no order of the comparators changes
// p's verdict: the reverse and every rotation are tried.
func orderProperty(p engine.Policy) caseProperty {
	return caseProperty{
		name: "comparator order never changes the " + p.Name() + " verdict",
		doc:  "a constraint is the intersection of its comparators",
		check: func(k generate.CaseSpec) string {
			c, v := k.Constraint.String(), k.Version.String()
			want := verdict(p, c, v)
			for _, o := range reorderings(k.Constraint) {
				oc := o.String()
				if got := verdict(p, oc, v); got.Verdict != want.Verdict {
					return describe(c, v, p) + "; reordered: " + describe(oc, v, p)
				}
			}
			return ""
		},
	}
}

// reorderings returns the reverse of c and its rotations.
func reorderings(c generate.ConstraintSpec) []generate.ConstraintSpec {
	n := len(c.Comparators)
	if n < 2 {
		return nil
	}
	rev := c.Clone()
	for i := range rev.Comparators {
		rev.Comparators[i] = c.Comparators[n-1-i]
	}
	out := []generate.ConstraintSpec{rev}
	for r := 1; r < n; r++ {
		rot := c.Clone()
		for i := range rot.Comparators {
			rot.Comparators[i] = c.Comparators[(i+r)%n]
		}
		out = append(out, rot)
	}
	return out
}

// optionalProperties are properties of policies that may be registered
// besides the three native ones; each is skipped when one of its policies
// is missing.
func optionalProperties(t *testing.T) []struct {
	needs []string
	prop  func() caseProperty
} {
	return []struct {
		needs []string
		prop  func() caseProperty
	}{
		{
			needs: []string{"cargo", "linear"},
			prop: func() caseProperty {
				return caseProperty{
					name:  "linear admits every version cargo admits",
					doc:   "linear is base satisfaction alone; cargo adds a condition to it",
					check: contains(policy(t, "cargo"), policy(t, "linear")),
				}
			},
		},
	}
}

func TestPropertiesHold(t *testing.T) {
	for _, p := range holdingProperties(t) {
		t.Run(p.name, func(t *testing.T) {
			res, hits := p.run(parameters(t))
			requireHolds(t, p.name, res, hits)
		})
	}
	for _, o := range optionalProperties(t) {
		missing := ""
		for _, n := range o.needs {
			if _, ok := engine.Default.Lookup(n); !ok {
				missing = n
			}
		}
		if missing != "" {
			t.Logf("skipping a property of %v: policy %q is not registered", o.needs, missing)
			continue
		}
		p := o.prop()
		t.Run(p.name, func(t *testing.T) {
			res, hits := p.run(parameters(t))
			requireHolds(t, p.name, res, hits)
		})
	}
}
