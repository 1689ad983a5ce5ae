// Package tfconfig reads what prerel needs of a Terraform/OpenTofu root
// module: its module calls (source and version) and its required providers
// (source and version constraints), with their places in the files, and
// the provider versions recorded in a dependency lock file.
//
// The configuration is read with hashicorp/terraform-config-inspect, over
// files parsed with hashicorp/hcl/v2; what that package does not cover
// (OpenTofu's .tofu files, places of required_providers entries,
// arguments that are expressions, duplicate module calls) is read from the
// same parsed files with hcl/v2. Problems come back as Diagnostics with
// file, line and column. Nothing here decides which sources are registry
// addresses (package registry does) or which version to install.
package tfconfig
