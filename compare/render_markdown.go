package compare

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/prerel/prerel/internal/markdown"
	"github.com/prerel/prerel/internal/plural"
)

// MarkdownClassesPerPair is how many classes RenderMarkdown lists per
// pair, the largest first, so that a comment stays within what a code
// host accepts; the rest are counted in one line.
const MarkdownClassesPerPair = 20

// MarkdownBudget is about how many bytes RenderMarkdown writes at most: a
// code host takes comments of 65,536 characters. Once the pairs' class
// tables would pass it, the remaining pairs are named in one line instead.
const MarkdownBudget = 60000

// RenderMarkdown writes r as GitHub-flavoured Markdown fit for a
// pull-request comment or a CI step summary: the domain, the agreement
// matrix as a table, then one collapsible section per diverging pair with
// its causes in a line and a table of its
// largest classes (count, cause, signature, witness and both verdicts), and the selection comparison for domains of real histories.
func RenderMarkdown(w io.Writer, r *Report) error {
	e := &errWriter{w: w}
	e.printf("## prerel compare\n\n")
	e.printf("**Domain:** %s  \n", markdown.Escape(r.Domain.Description))
	e.printf("**Cases:** %d  \n", r.Domain.Cases)
	policies := make([]string, len(r.Policies))
	for i, p := range r.Policies {
		policies[i] = markdown.Code(p)
	}
	e.printf("**Policies:** %s\n\n", strings.Join(policies, ", "))

	e.printf("### Agreement\n\n")
	e.printf("Cases diverged, of %d.\n\n", r.Domain.Cases)
	m := divergeMatrix(r)
	e.printf("| |")
	for _, p := range r.Policies {
		e.printf(" %s |", markdown.CodeCell(p))
	}
	e.printf("\n|---|")
	for range r.Policies {
		e.printf("---:|")
	}
	e.printf("\n")
	for _, a := range r.Policies {
		e.printf("| %s |", markdown.CodeCell(a))
		for _, b := range r.Policies {
			if a == b {
				e.printf(" — |")
				continue
			}
			e.printf(" %d |", m[[2]string{a, b}])
		}
		e.printf("\n")
	}

	var selection strings.Builder
	if sel := r.Selection; sel != nil {
		writeMarkdownSelection(&selection, sel)
	}

	e.printf("\n### Divergence classes\n\n")
	if len(r.Classes) == 0 {
		e.printf("None: every pair agrees on every case.\n")
	}
	budget := MarkdownBudget - e.n - selection.Len()
	var left []string
	for _, p := range r.Pairs {
		classes := r.ClassesOf(p.A, p.B)
		if len(classes) == 0 {
			continue
		}
		var sec strings.Builder
		writeMarkdownPair(&sec, p, classes)
		if sec.Len() > budget {
			left = append(left, markdown.Code(p.A)+" vs "+markdown.Code(p.B))
			budget = 0
			continue
		}
		budget -= sec.Len()
		e.printf("%s", sec.String())
	}
	if len(left) > 0 {
		e.printf("The classes of %s are left out to keep this report the size of a pull-request comment (`--format text` or `--format json` lists them): %s.\n\n",
			plural.Of(len(left), "more pair", "more pairs"), strings.Join(left, ", "))
	}
	e.printf("%s", selection.String())
	return e.err
}

// writeMarkdownPair writes one pair's collapsible section of classes.
func writeMarkdownPair(w *strings.Builder, p Pair, classes []Class) {
	fmt.Fprintf(w, "<details><summary>%s vs %s: %d diverged (%s agree), %s</summary>\n\n",
		html.EscapeString(p.A), html.EscapeString(p.B), p.Diverge, percent(p.Agree, p.Agree+p.Diverge), plural.Of(len(classes), "class", "classes"))
	fmt.Fprintf(w, "Causes: %s.\n\n", causeSummaryMarkdown(classes))
	fmt.Fprintf(w, "| count | cause | signature | constraint | version | %s | %s |\n", markdown.CodeCell(p.A), markdown.CodeCell(p.B))
	fmt.Fprintf(w, "|---:|---|---|---|---|---|---|\n")
	shown := classes[:min(len(classes), MarkdownClassesPerPair)]
	for _, c := range shown {
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s |\n", c.Count, causeMarkdown(c.Cause), markdown.CodeCell(c.Signature),
			markdown.CodeCell(c.Witness.Constraint), markdown.CodeCell(c.Witness.Version), c.Witness.AVerdict, c.Witness.BVerdict)
	}
	if rest := classes[len(shown):]; len(rest) > 0 {
		var n int64
		for _, c := range rest {
			n += c.Count
		}
		fmt.Fprintf(w, "\n%s with %s, smaller than these; the text and JSON reports list them all.\n",
			plural.Of(len(rest), "more class", "more classes"), plural.Of(n, "case", "cases"))
	}
	fmt.Fprintf(w, "\n</details>\n\n")
}

// writeMarkdownSelection writes the selection comparison table.
func writeMarkdownSelection(w *strings.Builder, s *SelectionReport) {
	fmt.Fprintf(w, "### Selection\n\n")
	fmt.Fprintf(w, "What each policy would install, over %d constraint and history groups.\n\n", s.Groups)
	fmt.Fprintf(w, "| a | b | agree | diverge | constraint | history | a installs | b installs |\n")
	fmt.Fprintf(w, "|---|---|---:|---:|---|---|---|---|\n")
	for _, sp := range s.Pairs {
		c, h, x, y := "", "", "", ""
		if wit := sp.Witness; wit != nil {
			c, h, x, y = markdown.CodeCell(wit.Constraint), markdown.Escape(wit.History), markdown.CodeCell(wit.ASelected), markdown.CodeCell(wit.BSelected)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %s | %s | %s |\n", markdown.CodeCell(sp.A), markdown.CodeCell(sp.B), sp.Agree, sp.Diverge, c, h, x, y)
	}
}

// causeMarkdown writes a cause for Markdown. The causes this package
// names read the same in Markdown as in text and are written as they
// are; any other text, as a report decoded from a file may hold, is
// escaped.
func causeMarkdown(c Cause) string {
	if c.named() {
		return string(c)
	}
	return markdown.Escape(string(c))
}

// causeSummaryMarkdown is causeSummary for Markdown, escaped unless every
// cause is one this package names.
func causeSummaryMarkdown(classes []Class) string {
	s := causeSummary(classes)
	for _, c := range classes {
		if !c.Cause.named() {
			return markdown.Escape(s)
		}
	}
	return s
}

// named reports whether c is one of the causes this package names.
func (c Cause) named() bool {
	switch c {
	case CauseSyntax, CauseMetadata, CausePessimistic, CausePrecedence, CausePrerelease, CauseUnknown:
		return true
	}
	return false
}
