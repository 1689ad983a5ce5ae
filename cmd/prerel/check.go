package main

import (
	"encoding/json"
	"fmt"
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
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tRULE")
	for _, p := range e.registry.All() {
		fmt.Fprintf(tw, "%s\t%s\n", p.Name(), p.Rule())
	}
	return tw.Flush()
}

// checkArgs validates a constraint and versions with the engine's parsers:
// an argument the engine cannot parse is a usage error.
func checkArgs(constraint string, versions []string) error {
	if _, err := engine.ParseConstraint(constraint); err != nil {
		return usageError{err}
	}
	for _, v := range versions {
		if _, err := engine.ParseVersion(v); err != nil {
			return usageError{err}
		}
	}
	return nil
}

func runCheck(e *env, args []string) error {
	fs := newFlags(e, "check", "[flags] CONSTRAINT VERSION...",
		"Judge each version against the constraint with every chosen policy: versions as rows, policies as columns.")
	var names policyList
	fs.Var(&names, "policies", "comma-separated policies to run (default: all, in 'prerel policies' order)")
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
	matchers := make([]engine.Matcher, len(ps))
	refusals := make([]error, len(ps))
	for i, p := range ps {
		matchers[i], refusals[i] = p.Compile(constraint)
	}
	judge := func(i int, v string) engine.Result {
		if refusals[i] != nil {
			return engine.InvalidResult(refusals[i])
		}
		return matchers[i].Match(v)
	}
	if format.value == "json" {
		type row struct {
			Version string         `json:"version"`
			Results []policyResult `json:"results"`
		}
		out := struct {
			Constraint string `json:"constraint"`
			Versions   []row  `json:"versions"`
		}{Constraint: constraint}
		for _, v := range versions {
			r := row{Version: v}
			for i, p := range ps {
				r.Results = append(r.Results, newPolicyResult(p, judge(i, v)))
			}
			out.Versions = append(out.Versions, r)
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	fmt.Fprintf(e.stdout, "constraint: %s\n\n", constraint)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "VERSION")
	for _, p := range ps {
		fmt.Fprintf(tw, "\t%s", p.Name())
	}
	fmt.Fprintln(tw)
	for _, v := range versions {
		fmt.Fprint(tw, v)
		for i := range ps {
			fmt.Fprintf(tw, "\t%s", judge(i, v).Verdict)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// policyResult is one policy's verdict in JSON output.
type policyResult struct {
	Policy  string         `json:"policy"`
	Verdict engine.Verdict `json:"verdict"`
	Reason  string         `json:"reason"`
}

func newPolicyResult(p engine.Policy, r engine.Result) policyResult {
	return policyResult{Policy: p.Name(), Verdict: r.Verdict, Reason: r.Reason}
}
