package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
)

// explainSubjectWidth caps the subject column of explain's text output; a
// longer subject stands on a line of its own.
const explainSubjectWidth = 34

func runExplain(e *env, args []string) (err error) {
	fs := newFlags(e, "explain", "--policy P [flags] CONSTRAINT VERSION",
		"Show how one policy reaches its verdict for a constraint and a version,\n"+
			"comparator by comparator: how each comparator was read (\"~>\" expanded,\n"+
			"partial versions filled), which held, which prerelease rule applied and why,\n"+
			"and the verdict. For a wrapped library it shows what the library was asked\n"+
			"and what it answered. A policy that does not explain itself still shows its\n"+
			"verdict and reason.")
	sources := addPolicySources(fs)
	name := fs.String("policy", "", "the `POLICY` to explain (see 'prerel policies')")
	format := formatFlag{"text", []string{"text", "json"}}
	fs.Var(&format, "format", "output format: text or json")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	finish, err := sources.load(e)
	defer func() { err = finish(err) }()
	if err != nil {
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
// steps, the verdict. The text is written at once, and an error writing
// it is returned; text from outside is escaped (printable.String).
func writeExplainText(w io.Writer, rep engine.ExplainReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "policy:     %s\nrule:       %s\nconstraint: %s\nversion:    %s\n\n",
		rep.Policy, rep.Rule, printable.String(rep.Constraint), printable.String(rep.Version))
	writeSteps(&b, rep.Steps)
	fmt.Fprintf(&b, "\nverdict:    %s\nreason:     %s\n", rep.Verdict, printable.String(rep.Reason))
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSteps prints the steps in two columns, the subject once for a run of
// steps about the same subject.
func writeSteps(b *strings.Builder, steps []engine.Step) {
	width := 0
	for _, s := range steps {
		if n := len(printable.String(s.Subject)); n <= explainSubjectWidth && n > width {
			width = n
		}
	}
	for i, s := range steps {
		subject := printable.String(s.Subject)
		if i > 0 && steps[i-1].Subject == s.Subject {
			subject = ""
		}
		detail := printable.String(s.Detail)
		if len(subject) > width {
			fmt.Fprintf(b, "%s\n%*s  %s\n", subject, width, "", detail)
			continue
		}
		fmt.Fprintf(b, "%-*s  %s\n", width, subject, detail)
	}
}
