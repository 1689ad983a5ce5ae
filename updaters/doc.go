// Package updaters holds how the bots and tools that propose or lock
// versions read a Terraform version constraint: Renovate ([Renovate],
// "renovate"), Dependabot ([Dependabot], "dependabot") and
// terraform-module-versions ([TerraformModuleVersions],
// "terraform-module-versions"). Each is a native engine.Policy with its
// own grammar, version order and refusals, written from the tool's source
// (cited in each type's doc) and proven equal to the real implementation
// on the exhaustive domain of scope 3 and the corpus by this package's
// tests: Renovate's own published code for Renovate (its hashicorp
// versioning and its lookup, npm package renovate 44.121.2), RubyGems
// with Dependabot's requirement and version classes transcribed for
// Dependabot, Masterminds/semver v3.3.1 for terraform-module-versions.
//
// The candidate filters of the tools, which decide whether prereleases
// are looked at before any constraint is, are [RenovateCandidates] and
// [DependabotWantsPrerelease]; [DependabotProposal] is Dependabot's
// proposal, the newest candidate whatever the constraint.
//
// Each policy is an engine.VersionReader: it reads a list of versions
// once, with the parser its Match uses, and judges every version of the
// list against a compiled constraint with the decision Match makes,
// without writing the reasons (TestTablesEqualText holds the two equal).
//
// Terragrunt's tfr:// sources, tenv and Atlantis read constraints with
// hashicorp/go-version's Check: the "hashicorp" adapter of package
// adapters is their policy.
package updaters
