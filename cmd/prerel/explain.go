package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
)

// explainSubjectWidth caps the subject column of explain's text output; a
// longer subject stands on a line of its own.
const explainSubjectWidth = 34

func runExplain(e *env, args []string) error {
	fs := newFlags(e, "explain", "--policy P [flags] CONSTRAINT VERSION",
		"Show how one policy reaches its verdict for a constraint and a version,\n"+
			"comparator by comparator: how each comparator was read (\"~>\" expanded,\n"+
			"partial versions filled), which held, which prerelease rule applied and why,\n"+
			"and the verdict. For a wrapped library it shows what the library was asked\n"+
			"and what it answered. A policy that does not explain itself still shows its\n"+
			"verdict and reason.")
	name := fs.String("policy", "", "the `POLICY` to explain (see 'prerel policies')")
	format := formatFlag{"text", []string{"text", "json"}}
	fs.Var(&format, "format", "output format: text or json")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *name == "" {
		return usagef("explain needs --policy: one of %s", strings.Join(e.registry.Names(), ", "))
	}
	if fs.NArg() != 2 {
		return usagef("explain needs a constraint and one version, got %s", plural.Of(fs.NArg(), "argument", "arguments"))
	}
	constraint, version := fs.Arg(0), fs.Arg(1)
	if err := checkArgs(constraint, []string{version}); err != nil {
		return err
	}
	ps, err := e.resolve(policyList{*name})
	if err != nil {
		return err
	}
	return render(e.stdout, format.value, engine.NewExplainReport(ps[0], constraint, version), writeExplainText)
}

// writeExplainText writes an explain report: the policy and the pair, the
// steps, the verdict.
func writeExplainText(w io.Writer, rep engine.ExplainReport) error {
	fmt.Fprintf(w, "policy:     %s\nrule:       %s\nconstraint: %s\nversion:    %s\n\n", rep.Policy, rep.Rule, rep.Constraint, rep.Version)
	writeSteps(w, rep.Steps)
	_, err := fmt.Fprintf(w, "\nverdict:    %s\nreason:     %s\n", rep.Verdict, rep.Reason)
	return err
}

// writeSteps prints the steps in two columns, the subject once for a run of
// steps about the same subject.
func writeSteps(w io.Writer, steps []engine.Step) {
	width := 0
	for _, s := range steps {
		if n := len(s.Subject); n <= explainSubjectWidth && n > width {
			width = n
		}
	}
	for i, s := range steps {
		subject := s.Subject
		if i > 0 && steps[i-1].Subject == subject {
			subject = ""
		}
		if len(subject) > width {
			fmt.Fprintf(w, "%s\n%*s  %s\n", subject, width, "", s.Detail)
			continue
		}
		fmt.Fprintf(w, "%-*s  %s\n", width, subject, s.Detail)
	}
}
