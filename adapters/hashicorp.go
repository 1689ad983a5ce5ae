package adapters

import (
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
)

// HashiCorp is hashicorp/go-version as Terraform uses it for module
// versions and required_version, registered as "hashicorp".
//
// Compile calls version.NewConstraint on the constraint text as given;
// Match calls version.NewVersion on the version text and
// Constraints.Check. Text either call refuses is Invalid with the library's
// error; NewConstraint refuses the empty constraint "" and blank text
// ("malformed constraint"), so they are Invalid here. (terraform-module
// reads "" as a module call without a version argument instead.)
//
// Check tests each comparator on its own. For >, >=, <, <= and ~> a
// prerelease version passes only when the comparator's version is a
// prerelease with the same numeric segments; ~> with a prerelease admits
// prereleases only. Quirks, each verified by the tests:
//
//   - "~> 1" has no upper bound: it admits 2.0.0 ("~> 10" admits 11.10.10),
//     because a one-part "~>" checks no segment before its last.
//   - Prerelease precedence compares identifiers pairwise and a missing
//     identifier sorts above an alphanumeric one, so 1.0.0-beta.alpha sorts
//     below 1.0.0-beta (SemVer says above). Selection shows it.
//   - "= 1.0.0" admits 1.0.0+def: build metadata is ignored by equality.
//   - "=" and "!=" skip the prerelease gate: "!= 1.0.0" admits 1.0.0-beta.
//   - Syntax beyond SemVer is accepted: a "v" prefix, one or two parts,
//     more than three parts (1.2.3.4), a prerelease without "-" (1.0.0beta),
//     leading zeros (01.0.0).
//
// Selection orders admitted versions by go-version's GreaterThan and keeps
// the first of equal ones, as Terraform's module installer loop does.
type HashiCorp struct{}

var (
	_ engine.Policy   = HashiCorp{}
	_ engine.Selector = HashiCorp{}
)

// Name returns "hashicorp".
func (HashiCorp) Name() string { return "hashicorp" }

// Rule returns the rule in one line.
func (HashiCorp) Rule() string {
	return "go-version Constraints.Check: each comparator alone; a range passes a prerelease only if it names one of the same base; = and != by precedence"
}

// Compile parses constraint with version.NewConstraint.
func (HashiCorp) Compile(constraint string) (engine.Matcher, error) {
	cs, err := parseGoVersionConstraints(constraint)
	if err != nil {
		return nil, err
	}
	return hashicorpMatcher{cs}, nil
}

// Select returns the newest admitted version by go-version precedence.
func (HashiCorp) Select(constraint string, available []string) (engine.Selection, error) {
	cs, err := parseGoVersionConstraints(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	return newest(available, hashicorpMatcher{cs}.judge, (*goversion.Version).GreaterThan), nil
}

type hashicorpMatcher struct {
	cs goversion.Constraints
}

func (m hashicorpMatcher) Match(version string) engine.Result {
	r, _ := m.judge(version)
	return r
}

func (m hashicorpMatcher) judge(version string) (r engine.Result, v *goversion.Version) {
	defer guard("go-version Check", &r)
	v, err := parseGoVersion(version)
	if err != nil {
		return engine.InvalidResult(err), nil
	}
	return checkGoVersion(m.cs, v), v
}

// judgeParsed is judge for a version parseGoVersion has read.
func (m hashicorpMatcher) judgeParsed(v *goversion.Version) (r engine.Result) {
	defer guard("go-version Check", &r)
	return checkGoVersion(m.cs, v)
}

// SelectsPairwise marks Select as the newest version Match admits: under a
// cooldown (engine.SelectCooled) the order makes no difference.
func (HashiCorp) SelectsPairwise() {}
