package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/prerel/prerel/engine"
)

func runPolicies(e *env, args []string) error {
	fs := newFlags(e, "policies", "", "List the registered policies, in registration order, with their rules.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("policies takes no arguments, got %q", fs.Arg(0))
	}
	return failure(writePolicies(e.stdout, e.registry.All()))
}

// writePolicies lists the policies with their rules.
func writePolicies(w io.Writer, ps []engine.Policy) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tRULE")
	for _, p := range ps {
		fmt.Fprintf(tw, "%s\t%s\n", p.Name(), p.Rule())
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

func runCheck(e *env, args []string) error {
	fs := newFlags(e, "check", "[flags] CONSTRAINT VERSION...",
		"Judge each version against the constraint with every chosen policy: versions\n"+
			"as rows, policies as columns.")
	var names policyList
	fs.Var(&names, "policies", "comma-separated policies to run (default: all,\nin 'prerel policies' order)")
	format := formatFlag{"text", []string{"text", "json"}}
	fs.Var(&format, "format", "output format: text or json (json includes the reasons)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		return usagef("check needs a constraint and at least one version")
	}
	constraint, versions := fs.Arg(0), fs.Args()[1:]
	if err := checkArgs(constraint, versions); err != nil {
		return err
	}
	ps, err := e.resolve(names)
	if err != nil {
		return err
	}
	return render(e.stdout, format.value, engine.NewCheckReport(ps, constraint, versions), writeCheckText)
}

// writeCheckText writes a check report as a table: versions as rows,
// policies as columns.
func writeCheckText(w io.Writer, rep engine.CheckReport) error {
	fmt.Fprintf(w, "constraint: %s\n\n", rep.Constraint)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "VERSION")
	for _, name := range rep.Policies {
		fmt.Fprintf(tw, "\t%s", name)
	}
	fmt.Fprintln(tw)
	for _, row := range rep.Versions {
		fmt.Fprint(tw, row.Version)
		for _, r := range row.Results {
			fmt.Fprintf(tw, "\t%s", r.Verdict)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
