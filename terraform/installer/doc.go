// Package installer is the table of Terraform and OpenTofu releases whose
// `init` prerel emulates, and what each does where releases differ: which
// provider versions listed by a registry it skips or fails on, which files
// it reads required_version from, and whether a module call's version may
// be an expression. prerel resolve, pin, impact and compare take
// --installer terraform@VERSION or tofu@VERSION to choose the release they
// call "today"; the default is the newest release of each (Newest).
//
// # What changed, and where in the sources
//
// Each row of Changes is one change, read from the releases' sources:
//
//   - Terraform 1.13.0: internal/getproviders/registry_source.go,
//     RegistrySource.AvailableVersions, logs "registry response includes
//     invalid version string %q. skipping" and goes on when
//     apparentlymart/go-versions' ParseVersion refuses a listed version
//     (commit "Allow successful init when constraint matches at least one
//     valid version", #37137). Terraform 1.12 and every OpenTofu release
//     return ErrQueryFailed instead ("could not query provider registry
//     for ADDRESS: registry response includes invalid version string
//     ..."), and init stops with "Failed to query available provider
//     packages". So one listed version such as "v1.0.0", "1.2.3.4" or ""
//     breaks `tofu init` and not `terraform init` (ProviderVersions).
//   - Module registries: internal/initwd/module_install.go,
//     ModuleInstaller.installRegistryModule, reads each listed version
//     with hashicorp/go-version's NewVersion, which takes any number of
//     numeric parts, and warns "Invalid response from remote module
//     registry" for one it cannot read, in every release of both
//     (ModuleVersions). A four-part module version is therefore
//     installable, and a four-part provider version is skipped or fails
//     the query.
//   - required_version is checked with go-version's Constraints.Check
//     against the program's own version (Terraform:
//     internal/configs/module.go, Module.CheckCoreVersionRequirements;
//     OpenTofu: internal/configs/diagnostics.go, checkVersionRequirements),
//     a constraint naming a prerelease being an error. go-version reads
//     "= 1.15.9.0" as admitting 1.15.9 and "~> 1.15.9.0" as refusing it
//     (Admits).
//   - OpenTofu 1.8.0 reads .tofu and .tofu.json files; NAME.tf is left out
//     when NAME.tofu stands beside it (internal/configs/parser_config_dir.go,
//     filterTfPathsWithTofuAlternatives), for override files as for
//     primary ones. Terraform reads .tf and .tf.json only.
//   - OpenTofu 1.12.0 reads required_version only from .tofu files, and
//     the new language { compatible_with { opentofu = "..." } } block
//     from any file (internal/configs/diagnostics.go,
//     checkVersionRequirements; internal/configs/language.go,
//     decodeLanguageCompatibleWithOpenTofu); a required_version in a .tf
//     file no longer constrains OpenTofu (commit "configs: New-style core
//     version constraints, etc"). Before 1.12 OpenTofu read
//     required_version from every file it read (AppliesTo).
//   - A module call's version made of variables and locals: Terraform
//     1.15.0 evaluates const variables (internal/configs/module_call.go,
//     ModuleCall.VersionExpr; "Terraform now supports variables and
//     locals in module source and version attributes", #38217), OpenTofu
//     1.8.0 any variable's default (internal/configs/module_call.go,
//     ModuleCall.decodeStaticVersion); earlier releases take a literal
//     string only (AllowsModuleVersionExpressions).
//   - Terraform 1.16.0 to 1.16.4 change nothing prerel emulates: the
//     module and provider installers gain hooks that may refuse a
//     version once chosen (ModuleInstallHook.ModuleSourceResolved in
//     internal/initwd/module_install.go, InstallerHook.
//     ProviderVersionSelected in internal/providercache/installer.go) but
//     choose none; the selection loops, the prerelease check and the
//     re-checks read as in 1.15.9.
//   - Terraform 1.15.0 installs the providers recorded in the state
//     without the configuration's constraints, so a locked prerelease
//     provider that the state uses is refused; 1.15.1 fixed it
//     (internal/command/init.go, InitCommand.getProvidersFromState, #38496;
//     RefusesLockedPrereleaseInState).
//
// The package imports hashicorp/go-version and apparentlymart/go-versions,
// the libraries the releases use, so that its answers and error texts are
// theirs.
//
// Today is the pair of releases a run takes as today's: named one by one
// (Name, as --installer does), from a comma-separated list (Fill, as
// PREREL_INSTALLER does), or found where the user runs them (Detect,
// with LookPathIn for a PATH of one's own), the newest of a product left
// unnamed. Settle takes them in prerel's order: those named, then the
// environment variable Env (FromEnv), then those detected.
package installer
