package rules

import (
	"sync"

	"github.com/prerel/prerel/catalogue"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
)

// Version is the ruleset's version, which tflint --version shows.
const Version = "0.1.0"

// DocsURL is the page that documents every rule; each rule's Link is its
// section.
const DocsURL = "https://github.com/prerel/prerel/blob/main/docs/tflint.md"

// link returns the documentation link of the rule name.
func link(name string) string { return DocsURL + "#" + name }

// NewRuleSet returns the ruleset the plugin serves.
func NewRuleSet() *tflint.BuiltinRuleSet {
	return &tflint.BuiltinRuleSet{
		Name:    "prerel",
		Version: Version,
		Rules:   Rules(),
	}
}

// Rules returns every rule, in the order of the documentation.
func Rules() []tflint.Rule {
	return []tflint.Rule{
		&ModuleExactPrerelease{},
		&ProviderPinRefused{},
		&OverrideStale{},
		&TerraformOpenTofuDifference{},
		&PolicySelection{},
	}
}

// policies returns prerel's catalogue of policies, built once: the
// installers' emulations and every policy prerel.hcl may name.
var policies = sync.OnceValue(catalogue.New)
