// Command tflint-ruleset-prerel is a tflint plugin: prerel's checks of
// module and provider version constraints as tflint rules (package
// rules). tflint starts it; install it as tflint-ruleset-prerel in the
// plugin directory (TFLINT_PLUGIN_DIR, or ~/.tflint.d/plugins) and enable
// it in .tflint.hcl with plugin "prerel" { enabled = true }.
package main

import (
	"github.com/terraform-linters/tflint-plugin-sdk/plugin"

	"github.com/prerel/prerel/tflint-ruleset-prerel/rules"
)

func main() {
	plugin.Serve(&plugin.ServeOpts{RuleSet: rules.NewRuleSet()})
}
