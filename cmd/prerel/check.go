package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/report"
)

// policiesCommand is prerel policies.
var policiesCommand = command{
	name:          "policies",
	args:          "[flags]",
	summary:       "list the registered policies and their rules",
	help:          "List the registered policies, in registration order, with their rules.",
	policySources: true,
	flags: func(fs *flagSet) func(*env, []string) error {
		return func(e *env, args []string) error {
			if len(args) != 0 {
				return usagef("policies takes no arguments, got %q", args[0])
			}
			return failure(writePolicies(e.stdout, e.registry.All()))
		}
	},
}

// writePolicies lists the policies with their rules, escaped as every
// text from outside is (a policy file or a command may give a rule any
// bytes).
func writePolicies(w io.Writer, ps []engine.Policy) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tRULE")
	for _, p := range ps {
		fmt.Fprintf(tw, "%s\t%s\n", printable.String(p.Name()), printable.String(p.Rule()))
	}
	return tw.Flush()
}

// checkArgs validates a constraint and versions with the engine's parsers:
// an argument the engine cannot parse is a usage error.
func checkArgs(constraint string, versions []string) error {
	if _, err := engine.ParseConstraint(constraint); err != nil {
		return usage(err)
	}
	for _, v := range versions {
		if _, err := engine.ParseVersion(v); err != nil {
			return usage(err)
		}
	}
	return nil
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
and every version, and html is a page with a timeline of the verdicts.`,
	policySources: true,
	flags: func(fs *flagSet) func(*env, []string) error {
		names := addPolicies(fs)
		versionsFile := addVersionsFile(fs)
		format := addFormat(fs, "text", "json", "html")
		showAll := addShowAll(fs)
		return func(e *env, args []string) error {
			if len(args) < 1 {
				return usagef("check needs a constraint and at least one version")
			}
			constraint, versions := args[0], args[1:]
			// Versions given as arguments must parse; a file's versions are
			// judged as they are, and a policy that cannot read one says
			// invalid.
			versions, err := gatherVersions(constraint, versions, *versionsFile)
			if err != nil {
				return err
			}
			if len(versions) == 0 {
				return usagef("check needs a constraint and at least one version: as arguments or with --versions-file")
			}
			ps, err := e.resolve(*names)
			if err != nil {
				return err
			}
			rep := engine.NewCheckReport(ps, constraint, versions)
			if err := e.policyFailure(); err != nil {
				return err
			}
			return failure(report.Check(e.stdout, report.Format(format.value), rep, renderOptions(*showAll)))
		}
	},
}
