package main

import (
	"github.com/prerel/prerel/report"
)

// policiesCommand is prerel policies.
var policiesCommand = command{
	name:    "policies",
	args:    "[flags]",
	summary: "list the registered policies and their rules",
	help: `List the registered policies with their rules, grouped as the reports group
them (installers, updaters, readers, libraries, proposals, your own), today's
rule marked, each rule wrapped under its policy's name to fit 80 columns.
Within a group the policies keep their registration order. --format json
lists them in registration order, the order --policies defaults to and
scripts rely on, one object per policy with its name, group, rule and
whether it is today's rule.`,
	policySources: true,
	flags: func(fs *flagSet) runFunc {
		format := addFormat(fs, report.PoliciesFormats)
		return func(e *env, args []string) (output, error) {
			if len(args) != 0 {
				return output{}, usagef("policies takes no arguments, got %q", args[0])
			}
			ps := e.registry.All()
			return rendered(report.Policies, format.value, ps, renderOptions(false), nil), nil
		}
	},
}

// checkCommand is prerel check.
var checkCommand = command{
	name:    "check",
	args:    "[flags] CONSTRAINT [VERSION...]",
	summary: "judge versions against a constraint with every policy",
	help: `Judge each version against the constraint with every chosen policy: versions
as rows, policies as columns, the rows where the policies disagree marked *.
When the policies do not fit in 80 columns, those that answer alike on every
version share a column, named in a legend above the table. The text report
lists at most 20 versions, first those some policy allows and another
rejects, then those some policy allows; --format json includes the reasons
and every version, and html is a page that groups the versions every policy
judges alike (those that hold a prerelease the policies disagree on first),
with a timeline of the verdicts.`,
	policySources: true,
	flags: func(fs *flagSet) runFunc {
		names := addPolicies(fs)
		versionsFile := addVersionsFile(fs)
		format := addFormat(fs, report.CheckFormats)
		showAll := addShowAll(fs)
		return func(e *env, args []string) (output, error) {
			if len(args) < 1 {
				return output{}, usagef("check needs a constraint and at least one version")
			}
			// Versions given as arguments must parse; a file's versions are
			// judged as they are, and a policy that cannot read one says
			// invalid.
			constraint, versions, err := gatherVersions(args, *versionsFile)
			if err != nil {
				return output{}, err
			}
			if len(versions) == 0 {
				return output{}, usagef("check needs a constraint and at least one version: as arguments or with --versions-file")
			}
			ps, err := e.resolve(*names)
			if err != nil {
				return output{}, err
			}
			rep := report.NewCheckReport(ps, constraint, versions)
			return rendered(report.Check, format.value, rep, renderOptions(*showAll), nil), nil
		}
	},
}
