package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/prerel/prerel/engine"
)

// explainSubjectWidth caps the subject column of explain's text output; a
// longer subject stands on a line of its own.
const explainSubjectWidth = 34

func runExplain(e *env, args []string) error {
	fs := newFlags(e, "explain", "--policy P [flags] CONSTRAINT VERSION",
		`Show how one policy reaches its verdict for a constraint and a version, comparator by
comparator: how each comparator was read ("~>" expanded, partial versions filled),
which held, which prerelease rule applied and why, and the verdict. For a wrapped
library it shows what the library was asked and what it answered. A policy that
does not explain itself still shows its verdict and reason.`)
	name := fs.String("policy", "", "the `POLICY` to explain (see 'prerel policies')")
	format := formatFlag{"text", []string{"text", "json"}}
	fs.Var(&format, "format", "output format: text or json")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *name == "" {
		return usagef("explain needs --policy: one of %s", joinNames(e.registry.Names()))
	}
	if fs.NArg() != 2 {
		return usagef("explain needs a constraint and one version, got %d argument%s", fs.NArg(), explainPlural(fs.NArg()))
	}
	constraint, version := fs.Arg(0), fs.Arg(1)
	if err := checkArgs(constraint, []string{version}); err != nil {
		return err
	}
	ps, err := e.resolve(policyList{*name})
	if err != nil {
		return err
	}
	p := ps[0]
	x := engine.Explain(p, constraint, version)
	if format.value == "json" {
		type step struct {
			Subject string `json:"subject"`
			Detail  string `json:"detail"`
		}
		out := struct {
			Policy     string         `json:"policy"`
			Rule       string         `json:"rule"`
			Constraint string         `json:"constraint"`
			Version    string         `json:"version"`
			Steps      []step         `json:"steps"`
			Verdict    engine.Verdict `json:"verdict"`
			Reason     string         `json:"reason"`
		}{p.Name(), p.Rule(), constraint, version, []step{}, x.Result.Verdict, x.Result.Reason}
		for _, s := range x.Steps {
			out.Steps = append(out.Steps, step{s.Subject, s.Detail})
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	}
	fmt.Fprintf(e.stdout, "policy:     %s\nrule:       %s\nconstraint: %s\nversion:    %s\n\n", p.Name(), p.Rule(), constraint, version)
	writeSteps(e.stdout, x.Steps)
	fmt.Fprintf(e.stdout, "\nverdict:    %s\nreason:     %s\n", x.Result.Verdict, x.Result.Reason)
	return nil
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

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

func explainPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
