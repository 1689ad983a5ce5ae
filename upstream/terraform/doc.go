// Package terraform holds the patch that puts package gate at Terraform
// v1.16.4's version-selection call sites (terraform.patch), the script
// that builds the patched terraform and the release it compares with
// (build.sh OUT), and the end-to-end tests that run it (PREREL_LONG=1,
// with PREREL_PATCHED_TERRAFORM naming the binary; they skip without it).
// See docs/upstream.md, which also says what Terraform's licence, the
// BUSL 1.1, means for a patched binary.
//
// # The call sites
//
// Every function below is in package internal/prerelgate, which the
// patch adds; each returns Terraform's own answer when the root module
// has no prerel.hcl or chooses today's rule there.
//
//   - internal/initwd/module_install.go, installRegistryModule: the
//     selection loop over the registry's list. SelectModule asks the
//     gate once for the listed version the chosen policy selects; the
//     prerelease check (go-versions' MeetingConstraintsString) is
//     skipped when the gate decides, and PickModule takes the place of
//     the range check req.VersionConstraint.Required.Check(v).
//   - internal/initwd/module_install.go, moduleInstallWalker: whether an
//     installed module must be replaced,
//     !req.VersionConstraint.Required.Check(record.Version), becomes
//     !ModuleCheck.
//   - internal/configs/configload/loader_load.go, moduleWalkerLoad: the
//     same check behind "Module version requirements have changed"
//     becomes ModuleCheck.
//   - internal/providercache/installer.go, EnsureProviderVersions: the
//     locked version's check, acceptableVersions.Has(lock.Version()),
//     becomes ProviderHas; before the walk for the newest acceptable
//     available version, ProviderSet narrows the acceptable set to the
//     version the chosen policy selects (a locked version keeps
//     priority).
//   - internal/configs/config.go, VerifyDependencySelections (plan and
//     apply re-check the lock file against the configuration): the
//     allowedVersions.Has(selectedVersion) check becomes ProviderHas.
//   - internal/configs/state_store.go, StateStore.
//     VerifyDependencySelection: the same check for the provider of a
//     state_store block becomes ProviderHas.
//   - internal/command/providers_mirror.go, ProvidersMirrorCommand.Run:
//     avail.Filter(acceptable) filters by ProviderSet.
//
// internal/getproviders/types.go MeetingConstraints (the wrapper) is left
// as it is: its callers on these paths are hooked at the Has that
// follows, and it also serves the plugin protocol check, which is not a
// version choice.
package terraform
