// Package config reads what prerel needs of a Terraform/OpenTofu
// configuration: the module calls (source and version) and required
// providers (source and version constraints) of each module, with their
// places in the files, and the provider versions recorded in a
// dependency lock file.
//
// Load reads one module directory. LoadTree reads a root module and
// follows its module calls as `terraform init` does: local paths from
// disk, every other source from the directory Terraform's module
// manifest (.terraform/modules/modules.json, read by LoadManifest)
// records for it. A call that cannot be followed is listed with the
// reason, never silently left out. LoadLockFile reads
// .terraform.lock.hcl.
//
// The configuration is read with hashicorp/terraform-config-inspect, over
// files parsed with hashicorp/hcl/v2; what that package does not cover
// (OpenTofu's .tofu files, places of required_providers entries,
// arguments that are expressions, duplicate module calls) is read from the
// same parsed files with hcl/v2.
//
// Every problem comes back as an hcl.Diagnostic whose Subject is its
// place (file, line and column) whenever one is known, and every place in
// the structs here is an hcl.Range, the zero Range (no file name) meaning
// unknown or implied. internal/diag.Format prints a diagnostic on one line,
// the way all of prerel prints them.
//
// Nothing here decides which non-local sources are registry addresses
// (package terraform/address does) or which version to install.
package config
