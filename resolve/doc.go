// Package resolve shows what each prerelease policy would install for a
// real Terraform/OpenTofu configuration: for every module call and every
// provider of the whole module tree, the version its chosen policy
// selects from the available versions, next to what today's Terraform
// and OpenTofu select and any other policies asked for.
//
// # Reading the configuration as Terraform does
//
// Run walks the module tree as `terraform init` does (terraform/config):
// modules on local paths are read from disk, remote modules from the
// directories Terraform's module manifest (.terraform/modules/modules.json,
// or the one in TF_DATA_DIR) records once the user has run init. A remote module that cannot be read
// is listed in Report.Unread with the reason, never silently left out:
// its own module calls and provider requirements are then unknown.
//
// Every module call of every module read is an Item of kind module, named
// by its call path ("vpc", "eks.node_group"), the name prerel.hcl uses
// (resolve/policyconfig). Provider requirements are collected from every
// module read, keyed by provider address, and intersected, as Terraform
// intersects them: a provider's Item has one Requirement per module that
// requires it, with the module's address and the place of the
// constraint, and its Constraint is all of them joined with ", ".
//
// A module call's version written as an expression is evaluated as
// Terraform 1.15 and OpenTofu 1.8 evaluate it before init, from
// variables' defaults and the locals made of them (see terraform/config):
// the Item's Constraint is its value and ConstraintFrom names the
// variables and locals it refers to, with their places. A version made of
// a variable not declared `const = true` is a warning, since Terraform
// refuses what OpenTofu evaluates. A version that is not static is in
// Report.Skipped, with the reason.
//
// # Looking up versions
//
// The available versions of each address are looked up once per run,
// however many module calls or modules name it, with at most
// Options.Concurrency lookups (DefaultConcurrency, 8) under way at once;
// the items of one address share its answer, and the report's order is
// the configuration's, whichever lookup ends first. A registry.Client's
// own limits (its deadline, timeouts and retries, and the per-host limit
// on errors) hold for them all together.
//
// # Today's selectors
//
// Terraform's module installer is the "terraform-module" policy and
// OpenTofu's "opentofu-module"; both install providers with
// apparentlymart/go-versions' MeetingConstraints, the "apparentlymart"
// policy. Options.Policies must have them registered (package catalogue
// registers them).
//
// # Today's releases
//
// Options.Terraform and Options.OpenTofu name the releases whose init is
// today's (package terraform/installer; the newest of each by default),
// and the report names them (Report.Installers). A provider whose
// registry answer fails a release's query (Terraform 1.12 and earlier
// and every OpenTofu release fail on one listed version go-versions
// cannot read, where Terraform 1.13 and later skip it) has the release's
// error in Item.TodayErrors, and the text report's TERRAFORM or OPENTOFU
// cell says "error". The tree is read as the OpenTofu release reads it,
// .tofu files included from OpenTofu 1.8 on, and again as Terraform
// reads it when some module has .tofu files: what the two read
// differently is a warning. Each release's required_version (and
// OpenTofu 1.12's language { compatible_with }) that does not admit it
// is a warning, and so is a module version made of variables or locals
// for a release that takes a literal only, and, for Terraform 1.15.0, a
// locked prerelease provider.
//
// # Errors and findings
//
// Every mistake in the configuration, the policy configuration or the
// lock file is reported at once, as hcl.Diagnostics with file, line and
// column; a constraint the engine's parser refuses is one too, as
// Terraform refuses it when it loads the configuration. Everything else
// is in the Report: an item whose chosen policy admits no available
// version is Unsatisfied (its Problem names every requirement with its
// origin and the newest available version, as Terraform's message does),
// an item whose versions could not be listed has an Error, and a locked
// provider version the chosen policy does not admit is among
// RefusedLocks.
//
// Where today's Terraform selects no version although some listed version
// is within the constraint (init stops with "There is no available
// version ... which matches"), Item.NoneToday says why in one line
// (`">= 2.0.0-beta.1" names a prerelease; today only "=" selects one`),
// what the chosen policy and the extra policies select, and the override
// that makes init install the chosen one (package pin writes it); the
// text and Markdown reports list them after the table, the JSON report
// holds it in each item's "none_today".
//
// Where the chosen policy selects no version, Item.NoMatch (Run fills it)
// says why in words: which comparator refuses the newest versions and by
// which rule (a prerelease no comparator names, a prerelease of another
// release, a version outside the range), or the policy's own reason. It
// names the versions the user likely wants (the newest prerelease above
// what today's Terraform selects, and the newest release), the policies
// of Options.Policies that select them as the constraint is written, and
// the smallest edits of the constraint under which the chosen policy
// selects them ("~> 2.0" → "~> 2.0.0-beta.1" under cargo; ">=
// 2.0.0-beta.1, < 3.0.0"), each kept only when engine.Select with the
// chosen policy over the listed versions selects it; near misses get a
// did you mean ("6.0.0-beta3" where 6.0.0-beta.3 is listed, a "v" prefix
// the policy refuses). The work is bounded: each policy runs once over
// the listed versions, and a few dozen candidate edits at most. The text
// and Markdown reports list it first after the table, items alike in one
// entry; the JSON report holds it in each item's "no_match".
//
// # Cooldown
//
// A minimum release age (prerel.hcl's min_age, --min-age) holds back, for
// the chosen policy, the versions younger than it at Options.Now
// (engine.SelectCooled): Item.Selected is the selection under it,
// Item.Cooldown says what it changed and where the dates came from, and
// Item.HeldBack lists what it holds back with when each becomes
// eligible. Today's Terraform and OpenTofu columns stay what init
// installs. The dates come from the listing (an index file's
// published_at) or, for a registry, from its dates APIs
// (registry.Dated); a host that gives none is named once in
// Report.Cooldown. The text and Markdown reports lead with the items
// whose selection the cooldown changes. Under a cooldown, a Reader with
// a ReaderCooldown reads the item as that tool applies the same minimum
// age (Renovate, Dependabot, OpenTofu's RFC #4444).
//
// # Reading the reports
//
// The text report fits 80 columns: one line per module call and one per
// provider, with its constraint in short (Item.BriefConstraint: for a
// provider several modules require, the bounds that bind, the module that
// writes them and how many modules require it), today's Terraform
// selection and the chosen policy's, marked "*" where they differ. Under
// a row it says in words what an extra policy selects where that is not
// today's version, and when a policy selects a prerelease of a higher
// major than today's (Item.NewMajorPrerelease). --show-all (Options.ShowAll)
// lists every module's constraint with its place; the Markdown report
// lists them after its table, and the JSON report in each item's
// "requirements".
//
// Report.AddUpdater puts an updater's policy (package updaters' renovate,
// dependabot or terraform-module-versions) next to today's installer:
// what it selects within each constraint, what it proposes (a Proposer),
// what init installs, and where the two disagree; the text and Markdown
// reports list it after the table, the JSON report under "updater".
//
// # Outside text
//
// Labels, sources, paths, registry answers and error messages come from
// outside prerel. The text report writes them with their control
// characters escaped (internal/printable); the Markdown report puts them
// in code spans or escapes them, so that none can render as a link, an
// image or HTML; JSON escapes control characters as JSON does. The user
// information of a URL is replaced as registry.RedactURL replaces it, in
// the Report and in every rendering.
//
// # Layout
//
// cmd/prerel → resolve → terraform/config, terraform/registry,
// terraform/address, resolve/policyconfig, report → engine. The package looks
// policies up by name in an engine.Registry and imports no policy
// package, so a program's own policies work everywhere; it prints
// nothing itself (Render writes a Report as text, Markdown or JSON).
package resolve
