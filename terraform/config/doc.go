// Package config reads what prerel needs of a Terraform/OpenTofu
// configuration: the module calls (source and version) and required
// providers (source and version constraints) of each module, with their
// places in the files, and the provider versions recorded in a
// dependency lock file.
//
// Load reads one module directory. LoadTree reads a root module and
// follows its module calls as `terraform init` does: local paths from
// disk, every other source from the directory Terraform's module
// manifest (.terraform/modules/modules.json, or modules/modules.json in
// the directory TF_DATA_DIR names; read by LoadManifest) records for it.
// A call that cannot be followed is listed with the reason, never
// silently left out. LoadLockFile reads .terraform.lock.hcl; FindLockFile
// finds it in a root module.
//
// # Limits
//
// Every file is read through package safefile, so that no file can hang
// the reader or exhaust its memory:
//
//   - Only regular files are read. A FIFO, device, socket or directory
//     found under a configuration file's name (in a module directory, or
//     as the lock file or module manifest prerel looks for) is skipped
//     with a warning diagnostic; one named explicitly (LoadLockFile,
//     LoadManifest, TreeOptions.ModulesDir) is an error.
//   - A file may be at most 2 MiB long (safefile.ConfigLimit), and
//     LoadTree reads at most MaxConfigBytes (32 MiB) of configuration in
//     all.
//   - A file may nest at most 1000 levels deep: brackets, braces,
//     parentheses, templates and the operators chained in one expression
//     each count as a level, in native syntax and in JSON. A deeper file
//     is refused with one error diagnostic, such as
//     "main.tf:2:6: Expressions nested deeper than 1000 levels", before
//     the HCL parser, which recurses once per level, sees it.
//   - LoadTree follows module calls at most MaxTreeDepth deep, reads
//     at most MaxTreeNodes module instances and lists at most
//     MaxTreeUnread calls it could not read. Reading a tree takes time
//     and memory linear in its configuration and its instances: each
//     module directory is parsed once, whatever the number of its
//     instances, and resolved (symbolic links) once.
//
// A diagnostic about a file that could not be read carries the error
// from the file system as its Extra (hcl.DiagnosticExtra[error]), so that
// a caller can tell an outside failure (permission, I/O) from bad input.
//
// The configuration is read with hashicorp/terraform-config-inspect, over
// files parsed with hashicorp/hcl/v2; what that package does not cover
// (OpenTofu's .tofu files, places of required_providers entries,
// arguments that are expressions, duplicate module calls) is read from the
// same parsed files with hcl/v2.
//
// # Override files
//
// Override files (override.tf, NAME_override.tf and their .tf.json and
// .tofu forms) are read after the primary files, in name order, and
// merged as Terraform merges them, not as terraform-config-inspect does
// (which replaces a module call whole and appends a provider's
// constraints): a module call's source and version each replace the
// call's when the override sets them, and an override of a call that no
// primary file declares is the error "Missing module call to override";
// a required_providers entry is replaced whole, so that one without a
// source stands for hashicorp/NAME again; required_version is replaced.
// An override file applies to the module of its own directory only.
//
// Every problem comes back as an hcl.Diagnostic whose Subject is its
// place (file, line and column) whenever one is known, and every place in
// the structs here is an hcl.Range, the zero Range (no file name) meaning
// unknown or implied. internal/diag.Format prints a diagnostic on one line,
// the way all of prerel prints them.
//
// # Terraform's files and OpenTofu's
//
// By default a module is read as OpenTofu 1.8 and later read it: .tf,
// .tf.json, .tofu and .tofu.json files, NAME.tofu in place of NAME.tf
// (override files too). TreeOptions.Terraform reads it as Terraform
// does, without .tofu files. Module.CoreRequirements are the
// requirements on the program's own version with their files and
// places: terraform { required_version } and OpenTofu 1.12's
// language { compatible_with { opentofu = "..." } }; package
// terraform/installer says which release reads which.
//
// # Versions from variables and locals
//
// A module call's version may be an expression that Terraform 1.15 and
// OpenTofu 1.8 evaluate before init: one made of variables' default
// values (Terraform 1.15 asks that the variable be declared
// `const = true`; OpenTofu takes any variable's value), locals that
// depend only on those, and functions. Load evaluates it with the
// defaults (values given to init with -var or in .tfvars files are not
// read) and the locals, each local once, in the order they depend on
// each other; ModuleCall.VersionFrom names the variables and locals the
// version refers to. An expression that refers to anything else (a
// resource, path.module, a variable without a default), a cycle of
// locals, a for expression, or a function other than format, join,
// lower, upper, trimspace, trimprefix, trimsuffix, replace, coalesce and
// tostring is not static: ModuleCall.VersionNotStatic says why. Locals
// are followed at most MaxStaticDepth deep, an expression holds at most
// MaxStaticRefs references and every value is at most MaxStaticSize
// bytes.
//
// Nothing here decides which non-local sources are registry addresses
// (package terraform/address does) or which version to install.
package config
