// Package pin writes the override files that make `terraform init` and
// `tofu init` install what each module call's and provider's chosen
// prerelease policy selects (package resolve), where that is not what
// today's installer selects.
//
// # What is pinned where
//
// Terraform merges an override file (override.tf, NAME_override.tf) into
// the module of its own directory only (package terraform/config reads
// override files as Terraform does):
//
//   - A module call is overridden argument by argument: pin writes, in
//     FileName (prerel_override.tf) in the directory of the module that
//     makes the call, a module block with the version alone, the bare
//     selected version ("2.0.0-beta.2"). The module installer reads it
//     with the npm-style parser, which takes a bare version, or one
//     after "=", as exact, but not "= 2.0.0-beta.2" with a space.
//   - A required_providers entry is replaced whole, and the provider
//     constraints of every module are intersected: pin writes one entry
//     per provider in the root module's FileName, with the source (an
//     entry without one would stand for hashicorp/NAME), the version, and
//     the root entry's configuration_aliases. The entry's local name is
//     the root module's own for that provider, or the name the first
//     module that requires it uses. The pin must satisfy every other
//     module's constraint, as today's installer (resolve.ProviderPolicy)
//     judges them all together; where one does not, the provider is not
//     pinned, and the message names the module, its constraint and its
//     place.
//
// # What cannot be pinned
//
// Plan.Unpinned lists, with the reason and what the user can do instead:
// a call inside a module that init downloads (a registry, Git or HTTP
// source: its directory under .terraform/modules is rewritten by init);
// a registry call whose version is an expression that is not static (see
// config.ModuleCall.VersionNotStatic); an item whose chosen
// policy selects no version; a call or provider that an override file the
// user wrote already sets, naming that file; everything in a directory
// whose prerel_override.tf the user wrote; and a call in a local module
// called from several places whose chosen policies do not all select the
// same version (one override file serves every instance).
//
// # Files
//
// Files are written with hclwrite and start with a four-line header
// comment that names the command that wrote them. pin recognises its own
// files by that whole header, read alone (Owned), and never writes over,
// nor removes, a file without it, nor a symbolic link. Build reads the
// configuration without pin's own files (resolve.Options.SkipFile and
// config.TreeOptions.SkipFile set to Skip), so that a plan made after
// Write is the same plan. Check compares the files on disk with what
// Write would leave; Remove deletes pin's files.
//
// Every path is named relative to the root module's directory once the
// symbolic links of its directory are followed ("../../modules/app/
// prerel_override.tf" for a monorepo's module called from envs/prod), so
// that File.Rel, Plan.Stale and Plan.LockFile have one form. A file pin
// writes or removes must lie inside the boundary: the Git repository that
// holds the root module's directory, or that directory outside a
// repository (Options.AllowOutside and WriteOptions.AllowOutside lift
// this); a file outside it is listed in Plan.Refused and its items are
// Unpinned. Write and Remove make their change as one: every file is
// written to a temporary file beside its target first, then all are
// renamed into place; a failure puts back what was replaced, and the
// error names what could not be. The temporary files a killed run left
// (Plan.Leftovers) are removed by the next Write and by Remove.
//
// A module pin is written in the form both installers read as exact (no
// "v"), and checked with today's module installers over the listed
// versions before it is planned. With Options.TerraformTree, a call or
// provider that Terraform and OpenTofu read differently (.tofu files) is
// not pinned, since one prerel_override.tf serves both; a
// prerel_override.tofu, which OpenTofu reads instead, blocks its
// directory.
//
// # A minimum release age
//
// Terraform and OpenTofu have no cooldown. Under one (resolve's
// Item.Cooldown), the chosen policy's selection is the newest eligible
// version, and pin writes it as an exact pin where init would take a
// younger one; the comment above the pin says since when it is eligible
// (Pin.EligibleSince), so that the file changes, and Check reports it,
// once a held-back version becomes eligible or the pinned one is no
// longer listed.
//
// # The lock file
//
// The dependency lock file records the provider version init installed,
// and init keeps it while it meets the constraints: adding or removing a
// provider pin when the lock holds another version needs
// `terraform init -upgrade` (`tofu init -upgrade`), or that provider's
// block removed from .terraform.lock.hcl. Plan.Lock lists the entries to
// change; WriteOptions.Unlock (Unlock) removes exactly those blocks,
// keeping every other byte of the file. Module versions are not locked.
//
// # Rendering
//
// Render writes a Plan as text, Markdown or JSON. The text and Markdown
// forms lead with what init installs now that it did not before, per
// module, with, for a pin of an item today's installer selects no
// version for, why (resolve.Item.NoneToday), and keep within Width (80)
// columns.
package pin
