package readers

import (
	"fmt"
	"sort"

	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
)

// TerraformLS is how terraform-ls, the language server behind the
// editors' Terraform support, reads a registry module's version
// constraint to show the module's inputs and outputs, registered as
// "terraform-ls".
//
// hashicorp/terraform-ls v0.39.1, internal/registry/module.go:
// (Client).GetModuleVersions reads the registry's /versions list with
// go-version's NewVersion (dropping what it refuses) and sorts it with
// sort.Sort(sort.Reverse(version.Collection)); GetMatchingModuleVersion
// returns the first version of that order that the constraint's
// Constraints.Check admits, and GetModuleData shows that version's inputs
// and outputs. The constraint comes from terraform-schema's early decoder
// (hashicorp/terraform-schema, earlydecoder/load_module.go, the "module"
// block, read at commit d277c2a4; terraform-ls v0.39.1 pins fc59ccdf,
// which the module proxy does not serve here): version.NewConstraint of
// the version argument, or no constraint at all (nil Constraints, which
// admit every version) when the argument is empty or NewConstraint refuses
// it.
//
// So on a constraint go-version reads, terraform-ls is the hashicorp
// policy, go-version's Check; on the empty constraint and on one
// go-version refuses it admits every version go-version reads, prereleases
// included, where "terraform init" takes the newest release or stops:
//
//	>= 2.0.0-beta.1      | 2.0.0-beta.2  allow  (init: reject)
//	~> 1.0               | 1.1.0         allow
//	~> 1.0               | 2.0.0-beta.1  reject
//	(empty)              | 2.0.0-beta.1  allow  (init: reject)
//	=> 1.0               | 2.0.0-beta.1  allow  (init: invalid)
//	= 1.0.0              | 1.0.0+b       allow
//	>= 1.0.0             | 1.0.0.0       allow
//	(any)                | x             invalid (dropped from the list)
//
// Selection is the first version of the list sorted as
// sort.Sort(sort.Reverse(version.Collection)) sorts it that the
// constraint admits: the newest by go-version's order. Of versions
// go-version orders equal (1.0.0, v1.0.0 and 1.0.0+b), the one Go's
// sort.Sort puts first, which for a list of up to 12 readable versions
// is the first in list order, and for a longer list depends on the
// list; this policy sorts with the same call.
type TerraformLS struct{}

var (
	_ engine.Policy        = TerraformLS{}
	_ engine.Selector      = TerraformLS{}
	_ engine.VersionReader = TerraformLS{}
)

// Name returns "terraform-ls".
func (TerraformLS) Name() string { return "terraform-ls" }

// Rule returns the rule in one line.
func (TerraformLS) Rule() string {
	return "terraform-ls (the editors' language server): go-version Check, and any version when the argument is empty or go-version refuses it; the first of the reverse-sorted list"
}

// Reasons of the terraform-ls policy.
const (
	reasonTLSAllow   = "go-version Check: true (terraform-ls shows this version's inputs and outputs)"
	reasonTLSDropped = "terraform-ls drops it from the registry's list"
)

// terraformLSMatcher is a compiled constraint: go-version's, or none
// (unconstrained says why).
type terraformLSMatcher struct {
	cs            goversion.Constraints
	unconstrained string
}

func compileTerraformLS(constraint string) *terraformLSMatcher {
	if constraint == "" {
		return &terraformLSMatcher{unconstrained: "no constraint: the module call has no version argument (or an empty one), and terraform-ls takes any version"}
	}
	cs, err := parseGoConstraint(constraint)
	if err != nil {
		return &terraformLSMatcher{unconstrained: engine.ClipReason(fmt.Sprintf("no constraint: terraform-schema drops a version argument go-version refuses (%v), and terraform-ls takes any version", err))}
	}
	return &terraformLSMatcher{cs: cs}
}

// Compile reads constraint as terraform-schema hands it over: it never
// fails.
func (TerraformLS) Compile(constraint string) (engine.Matcher, error) {
	return goMatcher{compileTerraformLS(constraint), reasonTLSDropped}, nil
}

func (m *terraformLSMatcher) judge(v *goversion.Version, withReason bool) engine.Result {
	if m.cs == nil {
		return engine.Allowed(m.unconstrained)
	}
	return check(m.cs, v, reasonTLSAllow, withReason)
}

// Select returns the version GetMatchingModuleVersion returns: the first
// of the readable versions, sorted as GetModuleVersions sorts them, that
// the constraint admits.
func (TerraformLS) Select(constraint string, available []string) (engine.Selection, error) {
	m := compileTerraformLS(constraint)
	var sel engine.Selection
	list := make(goversion.Collection, 0, len(available))
	for _, text := range available {
		v, err := parseGoVersion(text)
		if err != nil {
			sel.Unreadable = append(sel.Unreadable, engine.Unreadable{Version: text, Reason: engine.ClipReason(err.Error())})
			continue
		}
		list = append(list, v)
	}
	sort.Sort(sort.Reverse(list))
	for _, v := range list {
		if m.judge(v, false).Verdict == engine.Allow {
			sel.Found, sel.Version = true, v.Original()
			break
		}
	}
	return sel, nil
}

// ReadVersions reads versions with go-version, once.
func (TerraformLS) ReadVersions(versions []string) engine.VersionTable {
	return newGoTable(versions, reasonTLSDropped, func(c string) (versionJudge, error) { return compileTerraformLS(c), nil })
}

// SelectsPairwise marks Select as the newest version Match admits: under a
// cooldown (engine.SelectCooled) the order makes no difference.
func (TerraformLS) SelectsPairwise() {}
