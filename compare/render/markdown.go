package render

import (
	"github.com/prerel/prerel/compare"

	"cmp"
	"errors"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"

	"github.com/prerel/prerel/internal/markdown"
	"github.com/prerel/prerel/internal/plural"
)

// markdownClassesPerPair is how many classes the Markdown report lists per
// pair, the largest first, so that a comment stays within what a code
// host accepts; the rest are counted in one line.
const markdownClassesPerPair = 20

// markdownBudget is about how many bytes the Markdown report takes at most: a
// code host takes comments of 65,536 characters. Once the pairs' class
// tables would pass it, the remaining pairs are named in one line instead.
const markdownBudget = 60000

// markdownSplits is how many splits the Markdown report lists unless told to
// list them all.
const markdownSplits = 15

// markdownDriftChanges is how many of a drift's changes the Markdown report
// lists in its folded list; the rest are counted.
const markdownDriftChanges = 100

// renderMarkdown writes r as GitHub-flavoured Markdown fit for a
// pull-request comment or a CI step summary, the answer first: how each
// policy differs from the reference, the case shapes that split the
// policies, then the agreement matrix, one collapsible section per
// diverging pair (the reference's pairs first) with its largest classes,
// and the selection comparison for domains of real histories.
func renderMarkdown(w io.Writer, r *compare.Report, opt Options) error {
	if w == nil || r == nil {
		return errors.New("compare: render needs a writer and a report")
	}
	e := &errWriter{w: w}
	ref := referenceOf(r.Reference, r.Policies)
	e.printf("## prerel compare\n\n")
	if opt.Drift != nil {
		writeMarkdownDrift(e, opt.Drift, opt.BaselinePath, opt.Hints)
	}
	e.printf("**%s, each compared with %s%s, on %s.**  \n", plural.Of(len(r.Policies), "policy", "policies"),
		markdown.Code(ref), referenceNote(ref, opt.Installers), plural.Of(r.Domain.Cases, "case", "cases"))
	e.printf("**Domain:** %s\n", markdown.Escape(r.Domain.Description))
	if groups := groupPolicies(r.Policies, opt); groups != nil {
		e.printf("**Policies by group:**  \n")
		for i, g := range groups {
			end := "  \n"
			if i == len(groups)-1 {
				end = "\n\n"
			}
			e.printf("**%s**: %s%s", markdown.Escape(g.Name), markdownNames(g.Policies, ref, opt, markdown.Code), end)
		}
	} else {
		e.printf("**Policies:** %s\n\n", markdownNames(r.Policies, ref, opt, markdown.Code))
	}
	writeMarkdownPolicyErrors(e, r)
	if h := nextMajorText(r, ref); h != "" {
		e.printf("**%s**\n\n", markdown.Escape(strings.TrimPrefix(h, "next major: ")))
	}
	writeMarkdownSummary(e, r, ref, opt)
	writeMarkdownSplits(e, r, opt)
	e.printf("<details><summary>How to read a signature</summary>\n\n%s\n\n</details>\n\n", markdown.Escape(signatureLegend))

	order := clusterOrder(r, ref)
	groups := groupPolicies(order, opt)
	e.printf("### Agreement\n\n")
	groupOf := map[string]string{} // the group named on the row of its first policy
	if groups != nil {
		order = flatten(groups)
		var names []string
		for _, g := range groups {
			names = append(names, markdown.Escape(g.Name))
			groupOf[g.Policies[0]] = markdown.Escape(g.Name)
		}
		e.printf("Cases diverged, of %d; the policies grouped (%s), similar policies next to each other within a group.\n\n",
			r.Domain.Cases, strings.Join(names, ", "))
		e.printf("| group ")
	} else {
		e.printf("Cases diverged, of %d; similar policies next to each other.\n\n", r.Domain.Cases)
	}
	m := divergeMatrix(r)
	e.printf("| |")
	for _, p := range order {
		e.printf(" %s |", markdown.CodeCell(p))
	}
	e.printf("\n")
	if groups != nil {
		e.printf("|---")
	}
	e.printf("|---|")
	for range order {
		e.printf("---:|")
	}
	e.printf("\n")
	for _, a := range order {
		if groups != nil {
			e.printf("| %s ", groupOf[a])
		}
		e.printf("| %s |", markdownNames([]string{a}, ref, opt, markdown.CodeCell))
		for _, b := range order {
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
	budget := markdownBudget - e.n - selection.Len()
	var left []string
	pairs := slices.Clone(r.Pairs)
	slices.SortStableFunc(pairs, func(x, y compare.Pair) int {
		return cmp.Compare(boolInt(x.A != ref && x.B != ref), boolInt(y.A != ref && y.B != ref))
	})
	byPair := r.ClassesByPair()
	for _, p := range pairs {
		classes := byPair(p.A, p.B)
		if len(classes) == 0 {
			continue
		}
		var sec strings.Builder
		writeMarkdownPair(&sec, p, classes, opt.ShowAll)
		if sec.Len() > budget {
			left = append(left, markdown.Code(p.A)+" vs "+markdown.Code(p.B))
			budget = 0
			continue
		}
		budget -= sec.Len()
		e.printf("%s", sec.String())
	}
	if len(left) > 0 {
		e.printf("The classes of %s are left out to keep this report the size of a pull-request comment%s: %s.\n\n",
			plural.Of(len(left), "more pair", "more pairs"), eitherListsThem(opt.Hints.TextShowAll, opt.Hints.JSON), strings.Join(left, ", "))
	}
	e.printf("%s", selection.String())
	return e.err
}

// eitherListsThem is " (`a` or `b` lists them)", or the part of it the
// hints given allow.
func eitherListsThem(a, b string) string {
	switch {
	case a != "" && b != "":
		return " (" + backticks(a) + " or " + backticks(b) + " lists them)"
	case a != "" || b != "":
		return " (" + backticks(a+b) + " lists them)"
	}
	return ""
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// markdownNames writes policies as code, each followed by its mark in a
// grouped report, joined with ", "; code writes a name as code.
func markdownNames(policies []string, ref string, opt Options, code func(string) string) string {
	names := make([]string, len(policies))
	for i, p := range policies {
		names[i] = code(p)
		if mark := policyMark(p, ref, opt); mark != "" {
			names[i] += " *(" + mark + ")*"
		}
	}
	return strings.Join(names, ", ")
}

// writeMarkdownSummary writes the summary as a table, one row per group
// of identical policies, with its witnesses in words; in a grouped
// report, with the policies' groups.
func writeMarkdownSummary(e *errWriter, r *compare.Report, ref string, opt Options) {
	e.printf("### How each policy differs from %s\n\n", markdown.Code(ref))
	if len(r.Summary) == 0 {
		e.printf("Every policy agrees with %s on every case.\n\n", markdown.Code(ref))
		return
	}
	grouped := opt.Group != nil
	if grouped {
		e.printf("| policies | group | agree | admits more | admits fewer | refuses | what it does differently |\n")
		e.printf("|---|---|---:|---:|---:|---:|---|\n")
	} else {
		e.printf("| policies | agree | admits more | admits fewer | refuses | what it does differently |\n")
		e.printf("|---|---:|---:|---:|---:|---|\n")
	}
	for _, row := range r.Summary {
		names := markdownNames(row.Policies, ref, opt, markdown.CodeCell)
		if grouped {
			names += " | " + markdown.Escape(rowGroups(row.Policies, opt))
		}
		rel := ""
		if row.Relation != "" {
			rel = row.Relation + " "
		}
		var what []string
		for _, wit := range row.Witnesses {
			what = append(what, fmt.Sprintf("%s with %s: %s (%s)", markdown.CodeCell(wit.Constraint), markdown.CodeCell(wit.Version),
				markdown.Escape(wit.What), wit.Relevance))
		}
		if row.Relation == "=" && row.Diverge == 0 {
			what = append(what, "the same verdict on every case")
		}
		e.printf("| %s%s | %s | %d | %d | %d | %s |\n", rel, names, percent(row.Agree, row.Agree+row.Diverge),
			row.AdmitsMore, row.AdmitsFewer, row.Refuses, strings.Join(what, "<br>"))
	}
	e.printf("\n*admits more*: cases a policy allows and %s does not; *fewer*: the reverse; ⊆ (⊇): it admits a subset (superset) of what %s admits here. "+
		"(n%%): how common the constraint's shape is%s.\n\n", markdown.Code(ref), markdown.Code(ref), relevanceSource(r))
	for _, l := range repeatedCountsText(r, ref, r.ClassesByPair()) {
		e.printf("%s\n\n", markdown.Escape(l))
	}
}

// writeMarkdownSplits writes the case shapes that split the policies.
func writeMarkdownSplits(e *errWriter, r *compare.Report, opt Options) {
	if len(r.Splits) == 0 {
		return
	}
	shown := r.Splits
	if !opt.ShowAll {
		shown = shown[:min(len(shown), markdownSplits)]
	}
	e.printf("### Case shapes that split the policies\n\n")
	e.printf("Most relevant first; %d of %d.\n\n", len(shown), len(r.Splits))
	e.printf("| relevance | witness | shape | cases | sides |\n|---:|---|---|---:|---|\n")
	for _, s := range shown {
		e.printf("| %s | %s with %s | %s | %d | %s |\n", s.Relevance, markdown.CodeCell(s.Witness.Constraint), markdown.CodeCell(s.Witness.Version),
			markdown.CodeCell(s.Shape), s.Count, markdown.Escape(sidesText(s, len(r.Policies))))
	}
	if left := len(r.Splits) - len(shown); left > 0 {
		e.printf("\n%d more%s.\n", left, hint("", opt.Hints.JSON, " lists them all", backticks))
	}
	if r.SplitCasesLeftOut > 0 {
		e.printf("\n%s of further shapes, past the %d a report keeps.\n", plural.Of(r.SplitCasesLeftOut, "case", "cases"), compare.MaxSplits)
	}
	e.printf("\n")
}

// writeMarkdownDrift writes what moved from the baseline, first in the
// report.
func writeMarkdownDrift(e *errWriter, d *compare.Drift, path string, h Hints) {
	name := "the baseline"
	if path != "" {
		name = "the baseline " + markdown.Code(path)
	}
	if d.Matches {
		e.printf("**The run matches %s.**\n\n", name)
		return
	}
	e.printf("### Drift: the run differs from %s\n\n", name)
	if d.Exact {
		if len(d.Policies) == 0 {
			e.printf("No verdict of any policy changed.\n\n")
		}
		for _, pd := range d.Policies {
			e.printf("- **%s**: %s\n", markdown.Code(pd.Policy), pd.MovesText())
		}
		e.printf("\n")
		for _, pd := range d.Policies {
			e.printf("<details open><summary>%s: the changed case shapes, most relevant first</summary>\n\n", html.EscapeString(pd.Policy))
			e.printf("| relevance | witness | shape | change | cases |\n|---:|---|---|---|---:|\n")
			for _, c := range pd.Classes {
				e.printf("| %s | %s with %s | %s | %s → %s | %d |\n", c.Relevance, markdown.CodeCell(c.Witness.Constraint),
					markdown.CodeCell(c.Witness.Version), markdown.CodeCell(c.Shape), c.From, c.To, c.Count)
			}
			if pd.ClassesLeft > 0 {
				e.printf("\n%s more.\n", plural.Of(pd.ClassesLeft, "shape", "shapes"))
			}
			if pd.CasesLeftOut > 0 {
				e.printf("\n%s of further shapes, past the %d told apart.\n", plural.Of(pd.CasesLeftOut, "changed case", "changed cases"), compare.MaxDriftShapes)
			}
			e.printf("\n</details>\n\n")
		}
	} else {
		e.printf("The baseline has no per-case verdicts of this domain, so the drift is told by classes%s.\n\n",
			hint("rewrite it with ", h.WriteBaseline, " to see the changes per policy", backticks))
	}
	shown := d.Changes[:min(len(d.Changes), markdownDriftChanges)]
	if d.ChangeCount() > len(shown) {
		e.printf("<details><summary>The first %d of %s</summary>\n\n", len(shown), plural.Of(d.ChangeCount(), "change", "changes"))
	} else {
		e.printf("<details><summary>All %s</summary>\n\n", plural.Of(d.ChangeCount(), "change", "changes"))
	}
	for _, c := range shown {
		e.printf("- %s\n", markdown.Escape(c.Text))
	}
	if left := d.ChangeCount() - len(shown); left > 0 {
		e.printf("- … and %s\n", plural.Of(left, "more change", "more changes"))
	}
	e.printf("\n</details>\n\n")
}

// writeMarkdownPair writes one pair's collapsible section of classes.
func writeMarkdownPair(w *strings.Builder, p compare.Pair, classes []compare.Class, all bool) {
	fmt.Fprintf(w, "<details><summary>%s vs %s: %d diverged (%s agree), %s</summary>\n\n",
		html.EscapeString(p.A), html.EscapeString(p.B), p.Diverge, percent(p.Agree, p.Agree+p.Diverge), plural.Of(len(classes), "class", "classes"))
	fmt.Fprintf(w, "Causes: %s.\n\n", causeSummaryMarkdown(classes))
	fmt.Fprintf(w, "| count | relevance | cause | signature | constraint | version | %s | %s |\n", markdown.CodeCell(p.A), markdown.CodeCell(p.B))
	fmt.Fprintf(w, "|---:|---:|---|---|---|---|---|---|\n")
	shown := classes
	if !all {
		shown = classes[:min(len(classes), markdownClassesPerPair)]
	}
	for _, c := range shown {
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s |\n", c.Count, c.Relevance, causeMarkdown(c.Cause), markdown.CodeCell(c.Signature),
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
	if p.CasesLeftOut > 0 {
		fmt.Fprintf(w, "\n%s in further classes, past the classes a pair keeps.\n", plural.Of(p.CasesLeftOut, "diverging case", "diverging cases"))
	}
	fmt.Fprintf(w, "\n</details>\n\n")
}

// writeMarkdownSelection writes the selection comparison table.
func writeMarkdownSelection(w *strings.Builder, s *compare.SelectionReport) {
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
func causeMarkdown(c compare.Cause) string {
	if named(c) {
		return string(c)
	}
	return markdown.Escape(string(c))
}

// causeSummaryMarkdown is causeSummary for Markdown, escaped unless every
// cause is one this package names.
func causeSummaryMarkdown(classes []compare.Class) string {
	s := causeSummary(classes)
	for _, c := range classes {
		if !named(c.Cause) {
			return markdown.Escape(s)
		}
	}
	return s
}

// named reports whether c is one of the causes this package names.
func named(c compare.Cause) bool {
	switch c {
	case compare.CauseSyntax, compare.CauseVPrefix, compare.CausePartial, compare.CauseMetadata, compare.CausePessimistic, compare.CausePrecedence, compare.CausePrerelease, compare.CauseUnknown:
		return true
	}
	return false
}
