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
	props = append(props, moreNativeProperties(t)...)
	for _, name := range []string{
		"strict", "lexical", "cargo", "linear", "linear-tight", "ga-bound", "any-pre", "fallback",
		"hashicorp", "masterminds", "masterminds-pre",
	} {
		if registered(name) {
			props = append(props, exactProperty(policy(t, name)))
		}
	}
	for _, name := range []string{"apparentlymart", "apparentlymart-exact"} {
		p := exactProperty(policy(t, name))
		p.exclusions = []exclusion{exclVPrefix, exclZeroVersion}
		props = append(props, p)
	}
	if registered("core-only") {
		p := exactProperty(policy(t, "core-only"))
		p.exclusions = []exclusion{exclPrereleaseConstraint}
		props = append(props, p)
	}
	for _, p := range registry.All() {
		props = append(props, orderProperty(p))
	}
	return props
}

// registered reports whether every named policy is registered.
func registered(names ...string) bool {
	for _, n := range names {
		if _, ok := registry.Lookup(n); !ok {
			return false
		}
	}
	return true
}

// moreNativeProperties are the properties of the native policies beyond
// strict, lexical and cargo, each included when its policies are
// registered.
func moreNativeProperties(t *testing.T) []caseProperty {
	var props []caseProperty
	add := func(needs []string, p func() caseProperty) {
		if registered(needs...) {
			props = append(props, p())
		}
	}
	for _, pair := range [][2]string{
		{"strict", "linear"}, {"cargo", "linear"}, {"cargo", "any-pre"},
		{"any-pre", "linear"}, {"linear-tight", "linear"},
	} {
		add(pair[:], func() caseProperty {
			return caseProperty{
				name:  pair[1] + " admits every version " + pair[0] + " admits",
				doc:   "the prerelease rule of " + pair[0] + " is at least as strict as that of " + pair[1],
				check: contains(policy(t, pair[0]), policy(t, pair[1])),
			}
		})
	}
	add([]string{"fallback", "linear"}, func() caseProperty {
		return caseProperty{
			name:  "fallback and linear agree",
			doc:   "pairwise, a selection-level policy answers as if the version were the only one available",
			check: agree(policy(t, "fallback"), policy(t, "linear")),
		}
	})
	for _, name := range []string{"linear", "linear-tight", "ga-bound", "any-pre", "fallback"} {
		add([]string{"strict", name}, func() caseProperty {
			return caseProperty{
				name:  name + " agrees with strict on release versions",
				doc:   "on a release version every native policy is base satisfaction",
				check: releasesAgree(policy(t, "strict"), policy(t, name)),
			}
		})
	}
	add([]string{"strict", "core-only"}, func() caseProperty {
		return caseProperty{
			name:       "core-only agrees with strict on release versions",
			doc:        "on a release version every native policy is base satisfaction",
			exclusions: []exclusion{exclPrereleaseConstraint},
			check:      releasesAgree(policy(t, "strict"), policy(t, "core-only")),
		}
	})
	add([]string{"strict", "core-only"}, func() caseProperty {
		strict, core := policy(t, "strict"), policy(t, "core-only")
		return caseProperty{
			name:       "core-only judges a version as its release",
			doc:        "core-only judges v by GA(v), which strict judges by precedence alone",
			exclusions: []exclusion{exclPrereleaseConstraint},
			check: func(k generate.CaseSpec) string {
				c, v := k.Constraint.String(), k.Version.String()
				ga := generate.VersionSpec{Major: k.Version.Major, Minor: k.Version.Minor, Patch: k.Version.Patch}.String()
				if verdict(core, c, v).Verdict == verdict(strict, c, ga).Verdict {
					return ""
				}
				return describe(c, v, core) + "; " + describe(c, ga, strict)
			},
		}
	})
	add([]string{"linear", "apparentlymart-exact"}, func() caseProperty {
		return caseProperty{
			name: "linear agrees with apparentlymart-exact",
			doc:  "linear is go-versions' MeetingConstraintsExact wherever none of go-versions' own quirks decides",
			exclusions: []exclusion{
				exclVPrefix, exclBuildMetadata, exclGoVersionsPrecedence, exclZeroVersion,
			},
			check: agree(policy(t, "linear"), policy(t, "apparentlymart-exact")),
		}
	})
	add([]string{"linear", "masterminds-pre"}, func() caseProperty {
		return caseProperty{
			name:  "linear agrees with masterminds-pre",
			doc:   "linear is Masterminds' Check with IncludePrerelease on the translated constraint",
			check: agree(policy(t, "linear"), policy(t, "masterminds-pre")),
		}
	})
	add([]string{"any-pre", "masterminds"}, func() caseProperty {
		return caseProperty{
			name:       "any-pre agrees with masterminds",
			doc:        "any-pre is Masterminds' Check on the translated constraint, but for its \"!=\" opt-in",
			exclusions: []exclusion{exclNotEqualOptIn},
			check:      agree(policy(t, "any-pre"), policy(t, "masterminds")),
		}
	})
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

func TestPropertiesHold(t *testing.T) {
	for _, p := range holdingProperties(t) {
		t.Run(p.name, func(t *testing.T) {
			res, hits := p.run(parameters(t))
			requireHolds(t, p.name, res, hits)
		})
	}
}
