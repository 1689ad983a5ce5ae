// Package impact answers "if Terraform adopted policy P, what would
// install differently for real users?". For every real module call and
// provider requirement of a domain, paired with the real version history
// of the module or provider it names, it computes the version P would
// install and the version a baseline B installs, classifies the
// difference, finds its cause, and counts.
//
// # Domains
//
// The corpus domain (LoadCorpus) is the call corpus that ships with
// prerel, testdata/corpus/calls: 6289 module calls and provider
// requirements at the HEAD commit of 119 public repositories, each with
// the published history of its source where one could be obtained. It is
// a sample of public repositories, not a census: rows are not
// independent (one repository, cloudposse/terraform-aws-components, is
// 18.8% of them, and module repositories repeat one versions.tf in every
// example), so the report counts every row, the unit Terraform installs
// for, and next to it the distinct (repository, source, constraint)
// triples. A row with no version argument has the empty constraint: any
// version, so Terraform installs the newest release. A row whose source
// has no history (hashicorp/aws, the most referenced provider, among
// them) is counted and reported as "without a history", never
// classified.
//
// A directory domain (LoadDirs) is every module call and provider of the
// Terraform configurations rooted at some directories, read as prerel
// resolve reads them (package resolve: the module tree as terraform init
// reads it, provider requirements of every module intersected), with the
// version list an offline index or a registry returns as the history.
//
// # What is offered
//
// The registry offers a module's git tag without its leading "v" (the
// tag v5.1.0 is offered as 5.1.0), and providers' versions likewise; the
// corpus histories record tags as tagged. So one leading "v" is stripped
// from each history line of the corpus before it is offered (a directory
// domain's versions come from the registry protocol and are offered as
// listed). A line that the engine cannot read as a version once the "v"
// is stripped (v0.9, v0.9.0_next) is left out of the offer and counted in
// the report, and so is a line that repeats a version already offered
// (v1.0.0 next to 1.0.0).
//
// # Selection
//
// Each policy installs what engine.Select returns: the newest offered
// version it admits, or, for a policy that selects itself (fallback, the
// adapters), what it selects. The baseline B is today's installer for the
// kind of call unless Options.Against names one policy for both: the
// "terraform-module" policy for module calls and "apparentlymart" for
// provider requirements (resolve.TerraformModulePolicy and
// resolve.ProviderPolicy).
//
// # Classes
//
// Each call with a history falls in exactly one Class, decided in this
// order:
//
//	refused                          P or B refuses the constraint, the other does not
//	unchanged                        the same version, both none, or both refuse
//	none-instead-of-version          P installs nothing where B installs something
//	version-instead-of-none          P installs something where B installs nothing
//	prerelease-same-release          P installs a prerelease of the MAJOR.MINOR.PATCH
//	                                 B installs (B 2.0.0-beta.1, P 2.0.0-beta.2)
//	prerelease-later-patch           P installs a prerelease of a later patch of B's
//	                                 MAJOR.MINOR (B 1.2.3, P 1.2.4-rc.1)
//	prerelease-later-minor-or-major  P installs a prerelease of a later minor or major
//	                                 release (B 1.9.0, P 2.0.0-beta.1): the surprises
//	other-prerelease                 P installs a prerelease of an earlier release
//	release-instead-of-prerelease    B installs a prerelease, P a release
//	other-release                    both install releases, different ones
//
// Every class but unchanged is a change. other-release comes from reading
// a constraint differently: hashicorp/go-version reads a one-part "~> 1"
// as ">= 1", so Terraform's module installer takes 2.0.0 where cargo
// takes 1.9.0.
//
// # Cause
//
// Each change gets a cause, decided by changing one thing: both
// selections are computed again over the history with every prerelease
// removed, and with the prerelease parts removed from the constraint's
// comparators when it names one (">= 1.71.3-beta1" becomes ">= 1.71.3",
// the rest of the text as written). If P and B then agree (the same
// version, both none, or both refuse), the prerelease rule caused the
// change (CausePrereleaseRule); otherwise the reading of the constraint
// did (CauseReading).
//
// # Simulated prereleases
//
// Most real histories publish few prereleases, so a rule's effect shows
// only once people publish them. With Options.SimulatePrereleases, every
// history that offers no prerelease gets X.Y.Z-beta.1 and X.Y.Z-rc.1
// inserted before each release X.Y.Z; histories that publish prereleases
// are left as they are. The report says how many histories were
// simulated, counts per class the calls whose history was, and marks
// every example and case chosen from one.
//
// # Examples
//
// Each changed class has its smallest example, in this order: the
// history that publishes the fewest versions (simulated ones do not
// count), then the shortest constraint, then the constraint text, the
// repository, the path and the line. Around the versions B and P install,
// an example shows the two versions on each side, in precedence order. The calls of a class are
// also grouped into cases, one per (kind, source, constraint, history),
// the most calls first (then the smallest first).
//
// # Output
//
// Run returns a Report; Render writes it for an 80-column terminal
// (report.Text), as a pull-request comment (report.Markdown) or in its
// JSON form (report.JSON: schema SchemaVersion, snake_case keys), which
// holds everything the text shows, with the counts of each class by
// cause. The package prints nothing itself.
package impact
