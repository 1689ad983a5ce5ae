package render

import (
	"fmt"
	"strings"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/markdown"
	"github.com/prerel/prerel/internal/plural"
)

// policyErrorsTitle heads the section of the policies that failed on
// some cases, and policyErrorsNote follows it.
const (
	policyErrorsTitle = "Policies that failed on some cases"
	policyErrorsNote  = "Those cases are the policy's invalid verdicts, with the error as the reason."
)

// textPolicyErrors is the text section of the policies that failed on
// some cases, each error wrapped under its policy with its cases and the
// first; "" when none failed.
func textPolicyErrors(r *compare.Report) string {
	if len(r.PolicyErrors) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(wrap(policyErrorsTitle+". "+policyErrorsNote) + "\n")
	for _, pe := range r.PolicyErrors {
		b.WriteString(wrapIndent(fmt.Sprintf("%s failed on %s:", pe.Policy, plural.Of(pe.Cases, "case", "cases")), 2, 4) + "\n")
		for _, g := range pe.Errors {
			b.WriteString(wrapWordsIndent(strings.Fields(g.Reason), 4, 6) + "\n")
			b.WriteString(wrapIndent(fmt.Sprintf("(%s; first: %s)", plural.Of(g.Cases, "case", "cases"), g.FirstCase()), 6, 8) + "\n")
		}
		if pe.OtherCases > 0 {
			b.WriteString(wrapIndent(fmt.Sprintf("and %s with other errors", plural.Of(pe.OtherCases, "case", "cases")), 4, 6) + "\n")
		}
	}
	return b.String() + "\n"
}

// writeMarkdownPolicyErrors writes the Markdown section of the policies
// that failed on some cases, nothing when none failed.
func writeMarkdownPolicyErrors(e *errWriter, r *compare.Report) {
	if len(r.PolicyErrors) == 0 {
		return
	}
	e.printf("### %s\n\n%s\n\n", policyErrorsTitle, policyErrorsNote)
	for _, pe := range r.PolicyErrors {
		e.printf("- %s failed on %s:\n", markdown.Code(pe.Policy), plural.Of(pe.Cases, "case", "cases"))
		for _, g := range pe.Errors {
			first := "the constraint " + markdown.Code(g.Constraint)
			if g.Version != "" {
				first = markdown.Code(g.Constraint)
				first += " with " + markdown.Code(g.Version)
			}
			e.printf("  - %s (%s; first: %s)\n", markdown.Escape(g.Reason), plural.Of(g.Cases, "case", "cases"), first)
		}
		if pe.OtherCases > 0 {
			e.printf("  - and %s with other errors\n", plural.Of(pe.OtherCases, "case", "cases"))
		}
	}
	e.printf("\n")
}

// PolicyErrorsOf returns, for compare.Report.PolicyErrors, which the
// reports tell in a section of their own, the policies of ps
// written in HCL (hclpolicy) that failed on some cases, in the order of
// ps: each distinct error with its cases and the first, clipped as a
// verdict's reason is (engine.ClipReason), and the cases of the errors
// beyond those kept.
func PolicyErrorsOf(ps []engine.Policy) []compare.PolicyError {
	var out []compare.PolicyError
	for _, p := range ps {
		hp, ok := p.(*hclpolicy.Policy)
		if !ok {
			continue
		}
		groups, more := hp.Failures()
		if len(groups) == 0 {
			continue
		}
		pe := compare.PolicyError{Policy: hp.Name(), Cases: int64(more), OtherCases: int64(more)}
		for _, g := range groups {
			pe.Errors = append(pe.Errors, compare.PolicyErrorGroup{Reason: engine.ClipReason(g.Reason), Cases: int64(g.Cases),
				Constraint: engine.ClipReason(g.Constraint), Version: engine.ClipReason(g.Version)})
			pe.Cases += int64(g.Cases)
		}
		out = append(out, pe)
	}
	return out
}
