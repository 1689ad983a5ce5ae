// Package rules is prerel's tflint ruleset: each rule is one of prerel's
// checks of a configuration's version constraints, decided by prerel's own
// packages (the installers' policies in package adapters, the module tree
// of terraform/config, resolve and pin), so that tflint and the prerel
// command say the same.
//
//   - prerel_module_exact_prerelease: a module call whose version means one
//     exact prerelease ("= 2.0.0-beta.1" with a space, a "v" prefix, an
//     exact version in a comma-separated list) that the module installer
//     excludes; the fix writes the bare version.
//   - prerel_provider_pin_refused: a provider pinned to one version in the
//     root module (an override file included) that a called module's
//     constraint refuses, naming the module and its line.
//   - prerel_override_stale: a prerel_override.tf that is not what prerel
//     pin would write (pin --check), against the versions known offline or
//     an index file.
//   - prerel_terraform_opentofu_difference: a module call or provider that
//     Terraform and OpenTofu read differently (.tofu files, a "v" prefix).
//   - prerel_policy_selection (opt-in, needs an index or a registry): where
//     the chosen policy of prerel.hcl selects another version than init.
//
// The rules run on the root module only (a module runner of tflint's
// --call-module-type sees its own module, whose issues tflint would drop),
// and the ones that need the module tree, the lock file or prerel.hcl
// read them from disk, from the root module's directory: tflint hands a
// plugin the root module's own files only.
package rules
