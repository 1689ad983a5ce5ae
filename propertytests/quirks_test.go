package propertytests

import (
	goversions "github.com/apparentlymart/go-versions/versions"
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
)

// The named quirks of the reference libraries. Each exclusion is as narrow
// as the quirk: it applies only to the cases the quirk can decide.

// exclVPrefix: go-versions' parsers refuse a leading "v" (a syntax
// difference; the engine, go-version and OpenTofu accept it).
var exclVPrefix = exclusion{
	name: "v-prefix",
	why:  `go-versions refuses a leading "v" in constraints and versions`,
	applies: func(c generate.CaseSpec) bool {
		if c.Version.VPrefix {
			return true
		}
		for _, cmp := range c.Constraint.Comparators {
			if cmp.Version.VPrefix {
				return true
			}
		}
		return false
	},
}

// exclBuildMetadata: go-versions' exact match compares build metadata:
// "= 1.0.0" rejects 1.0.0+def and "= 1.0.0+def" rejects 1.0.0, where
// SemVer and the engine ignore it. The quirk decides only where an "=" or
// "!=" comparator has the version's precedence but other metadata.
var exclBuildMetadata = exclusion{
	name: "build-metadata",
	why:  `go-versions' "=" and "!=" compare build metadata ("= 1.0.0" rejects 1.0.0+def)`,
	applies: func(c generate.CaseSpec) bool {
		v := c.Version.Engine()
		for _, cmp := range c.Constraint.Engine().Comparators() {
			if (cmp.Op == engine.OpEqual || cmp.Op == engine.OpNotEqual) &&
				cmp.Version.Equal(v) && cmp.Version.Build() != v.Build() {
				return true
			}
		}
		return false
	},
}

// exclZeroVersion: go-versions never puts 0.0.0 in a constraint's set.
var exclZeroVersion = exclusion{
	name: "zero-version",
	why:  "go-versions never counts 0.0.0 as a member of any constraint's set",
	applies: func(c generate.CaseSpec) bool {
		v := c.Version
		return v.Major == 0 && v.Minor == 0 && v.Patch == 0 && v.Prerelease == ""
	},
}

// exclGoVersionsPrecedence: go-versions orders prereleases by the number
// of identifiers first (1.0.0-beta < 1.0.0-alpha.beta), so on a prerelease
// version and a prerelease comparator of the same base its order can
// differ from SemVer's.
var exclGoVersionsPrecedence = exclusion{
	name: "go-versions-precedence",
	why:  "go-versions orders prereleases by identifier count first, unlike SemVer",
	applies: func(c generate.CaseSpec) bool {
		return samePrereleaseBase(c, func(a, b generate.VersionSpec) int {
			x, err1 := goversions.ParseVersion(plain(a))
			y, err2 := goversions.ParseVersion(plain(b))
			if err1 != nil || err2 != nil {
				return 2 // unreadable: not this quirk
			}
			switch {
			case x.LessThan(y):
				return -1
			case x.GreaterThan(y):
				return 1
			}
			return 0
		})
	},
}

// exclGoVersionPrecedence: go-version compares prerelease identifiers
// pairwise and sorts a missing identifier above an alphanumeric one, so
// 1.0.0-beta.alpha sorts below 1.0.0-beta (SemVer: above).
var exclGoVersionPrecedence = exclusion{
	name: "go-version-precedence",
	why:  "go-version sorts 1.0.0-beta.alpha below 1.0.0-beta, unlike SemVer",
	applies: func(c generate.CaseSpec) bool {
		return samePrereleaseBase(c, func(a, b generate.VersionSpec) int {
			x, err1 := goversion.NewVersion(plain(a))
			y, err2 := goversion.NewVersion(plain(b))
			if err1 != nil || err2 != nil {
				return 2
			}
			return x.Compare(y)
		})
	},
}

// exclOnePartPessimistic: go-version's "~> 1" has no upper bound, so it
// admits 2.0.0 and everything above; the quirk decides only versions at or
// above the bound Terraform's syntax gives it.
var exclOnePartPessimistic = exclusion{
	name: "one-part-pessimistic",
	why:  `go-version's one-part "~>" ("~> 1") has no upper bound`,
	applies: func(c generate.CaseSpec) bool {
		v := c.Version.Engine()
		for _, cmp := range c.Constraint.Engine().Comparators() {
			if cmp.Op != engine.OpPessimistic || cmp.Precision != 1 {
				continue
			}
			if upper, ok := cmp.Upper(); ok && v.Compare(upper) >= 0 {
				return true
			}
		}
		return false
	},
}

// exclPrereleasePessimistic: lexical's "~>" with a prerelease admits
// prerelease versions only ("~> 1.0.0-beta" rejects 1.0.1), as go-version
// does; the other native policies read it as a range over releases too.
var exclPrereleasePessimistic = exclusion{
	name: "prerelease-pessimistic",
	why:  `lexical's "~>" with a prerelease admits prereleases only`,
	applies: func(c generate.CaseSpec) bool {
		for _, cmp := range c.Constraint.Comparators {
			if cmp.Op == engine.OpPessimistic && cmp.Version.Prerelease != "" {
				return true
			}
		}
		return false
	},
}

// exclPrereleaseConstraint: core-only refuses every constraint that names
// a prerelease (Invalid), as Terraform's required_version does.
var exclPrereleaseConstraint = exclusion{
	name: "prerelease-constraint",
	why:  "core-only refuses constraints that name a prerelease",
	applies: func(c generate.CaseSpec) bool {
		for _, cmp := range c.Constraint.Comparators {
			if cmp.Version.Prerelease != "" {
				return true
			}
		}
		return false
	},
}

// exclNotEqualOptIn: in Masterminds a "!=" that names a prerelease opts its
// group into prereleases as any other comparator does; any-pre (and
// SemVer intent) does not count "!=". The quirk decides only a prerelease
// version where no other comparator names a prerelease.
var exclNotEqualOptIn = exclusion{
	name: "not-equal-opt-in",
	why:  `Masterminds lets a "!=" with a prerelease opt the constraint into prereleases`,
	applies: func(c generate.CaseSpec) bool {
		if c.Version.Prerelease == "" {
			return false
		}
		optIn := false
		for _, cmp := range c.Constraint.Comparators {
			if cmp.Version.Prerelease == "" {
				continue
			}
			if cmp.Op != engine.OpNotEqual {
				return false
			}
			optIn = true
		}
		return optIn
	},
}

// plain renders a version for a library: three parts, no "v", no build.
func plain(v generate.VersionSpec) string {
	v.VPrefix, v.Build = false, ""
	return v.String()
}

// samePrereleaseBase reports whether the version and some comparator's
// version are prereleases of the same base that order compares differently
// from SemVer.
func samePrereleaseBase(c generate.CaseSpec, order func(a, b generate.VersionSpec) int) bool {
	v := c.Version
	if v.Prerelease == "" {
		return false
	}
	ev := v.Engine()
	for _, cmp := range c.Constraint.Comparators {
		w := cmp.Version
		if w.Prerelease == "" || w.Major != v.Major || w.Minor != v.Minor || w.Patch != v.Patch {
			continue
		}
		want := ev.Compare(w.Engine())
		if got := order(v, w); got != 2 && got != want {
			return true
		}
	}
	return false
}
