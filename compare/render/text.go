package render

import (
	"github.com/prerel/prerel/compare"

	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/textwrap"
)

// textClassesPerPair is how many classes the text report lists per pair, the
// first in rank order, so that a terminal report stays readable; the rest
// are counted in one line, and the JSON report lists them all.
const textClassesPerPair = 5

// textSplits is how many splits the text report lists unless told to list
// them all.
const textSplits = 8

// textSummaryWitnesses is how many witnesses the text report shows under each
// summary row at most; fewer when that would take the summary past
// textScreen lines, and none under the last rows when even one each would. The JSON and Markdown reports have the three a summary row keeps.
const textSummaryWitnesses = 2

// textScreen is the number of lines the text report's summary fits in.
const textScreen = 50

// textWidth is the terminal width the text report fits, but for
// signatures and witnesses longer than a line.
const textWidth = 80

// signatureLegend explains the signature notation, for reports.
const signatureLegend = `Signatures drop the numbers of a case: V is a version (N, N.N or N.N.N ` +
	`for "~>", whose meaning rests on the parts written), -pre a prerelease, +b build metadata, ` +
	`v a leading "v". After each comparator, in brackets, how the version's release compares ` +
	`with the comparator's: [<] below, [=] the same, [>] above; for "~>" also with the bound ` +
	`it implies (2.0.0 for "~> 1.2", 1.3.0 for "~> 1.2.3"): <U below it, =U that bound's own ` +
	`release (2.0.0-beta.1 for "~> 1.2"), >U above.`

// renderText writes r for a terminal at textWidth columns, the answer
// first: how each policy differs from the reference (agreement, which
// admits more, a few witnesses in words), then the case shapes that split
// the policies, a legend, the agreement matrix (similar policies next to
// each other), the classes of each policy against the reference, and for
// domains of real histories the selection comparison. Long lists are cut,
// and each cut says what it left out.
func renderText(w io.Writer, r *compare.Report, opt Options) error {
	if w == nil || r == nil {
		return errors.New("compare: render needs a writer and a report")
	}
	e := &errWriter{w: w}
	ref := referenceOf(r.Reference, r.Policies)
	if opt.Drift != nil {
		writeTextDrift(e, opt.Drift, opt.BaselinePath, opt.Hints)
	}
	headline := ""
	if h := nextMajorText(r, ref); h != "" {
		headline = wrap(h) + "\n"
	}
	header := fmt.Sprintf("%s\n%s\n%s\n", wrap(fmt.Sprintf("prerel compare: %s, each compared with %s%s, on %s.",
		plural.Of(len(r.Policies), "policy", "policies"), ref, referenceNote(ref, opt.Installers), casesText(r.Domain.Cases))),
		wrap("domain: "+r.Domain.Description), headline) + textPolicyErrors(r)
	e.printf("%s", header)
	e.printf("%s", fitTextSummary(r, ref, textScreen-strings.Count(header, "\n")))
	writeTextSplits(e, r, opt)
	e.printf("%s\n\n", wrap(signatureLegend))
	e.printf("%s\n\n", wrap(fmt.Sprintf("Agreement: the %% of the %s on which two policies agree, "+
		"rounded down (= every case, - itself), similar policies next to each other", casesText(r.Domain.Cases))))
	writeTextMatrix(e, r, clusterOrder(r, ref))
	writeTextClasses(e, r, ref, opt)
	if r.Selection != nil {
		writeTextSelection(e, r.Selection)
	}
	return e.err
}

// writeTextDrift writes what moved from the baseline, first in the
// report: per policy the changed verdicts by direction and the most
// relevant changed case shapes.
func writeTextDrift(e *errWriter, d *compare.Drift, path string, h Hints) {
	name := "the baseline"
	if path != "" {
		name += " " + path
	}
	if d.Matches {
		e.printf("%s\n\n", wrap("The run matches "+name+"."))
		return
	}
	e.printf("%s\n", wrap(fmt.Sprintf("DRIFT: the run differs from %s in %s.", name, plural.Of(d.ChangeCount(), "way", "ways"))))
	if !d.Exact {
		s := "The baseline has no per-case verdicts of this domain"
		if h.Changes != "" {
			s += "; the changes are listed " + h.Changes
		}
		s += "."
		if h.WriteBaseline != "" {
			s += " Rewrite it with " + h.WriteBaseline + " to see them per policy."
		}
		e.printf("%s\n\n", wrap(s))
		return
	}
	for _, pd := range d.Policies {
		e.printf("%s\n", wrapIndent(pd.Policy+": "+pd.MovesText(), 2, 4))
		for _, c := range pd.Classes {
			e.printf("%s\n", wrapIndent(fmt.Sprintf("%s → %s  %s with %s  (%s; %s; %s)", c.From, c.To, strconv.Quote(c.Witness.Constraint),
				c.Witness.Version, c.Shape, plural.Of(c.Count, "case", "cases"), c.Relevance), 4, 8))
		}
		if pd.ClassesLeft > 0 {
			e.printf("    ... %s more\n", plural.Of(pd.ClassesLeft, "changed shape", "changed shapes"))
		}
		if pd.CasesLeftOut > 0 {
			e.printf("%s\n", wrapIndent(fmt.Sprintf("... and %s of further shapes, past the %s told apart",
				plural.Of(pd.CasesLeftOut, "changed case", "changed cases"), thousands(compare.MaxDriftShapes)), 4, 8))
		}
	}
	e.printf("\n")
}

// casesText writes a count of cases with thousands separators: "1 case",
// "453,180 cases".
func casesText(n int64) string {
	if n == 1 {
		return "1 case"
	}
	return thousands(n) + " cases"
}

// referenceNote says what the reference stands for when it is a policy
// of today's installers, naming the releases when installers does.
func referenceNote(ref, installers string) string {
	switch ref {
	case "terraform-module", "opentofu-module":
		if installers == "" {
			installers = "Terraform and OpenTofu"
		}
		return " (what " + installers + " do today)"
	}
	return ""
}

// fitTextSummary returns the summary with as many witnesses as fit in
// lines: textSummaryWitnesses under each row, or one, or else one under
// each row from the top while they fit.
func fitTextSummary(r *compare.Report, ref string, lines int) string {
	render := func(witnesses func(row int) int) string {
		var b strings.Builder
		writeTextSummary(&errWriter{w: &b}, r, ref, witnesses)
		return b.String()
	}
	fits := func(s string) bool { return strings.Count(s, "\n") <= lines }
	for k := textSummaryWitnesses; k >= 1; k-- {
		if s := render(func(int) int { return k }); fits(s) {
			return s
		}
	}
	shown := 0 // rows from the top with one witness
	for shown < len(r.Summary) && fits(render(func(row int) int { return boolInt(row <= shown) })) {
		shown++
	}
	return render(func(row int) int { return boolInt(row < shown) })
}

// writeTextSummary writes one row per group of identical policies: the
// agreement with the reference, the cases each side admits that the other
// does not, and witnesses(row) witnesses in words under the row of that
// index.
func writeTextSummary(e *errWriter, r *compare.Report, ref string, witnesses func(row int) int) {
	if len(r.Summary) == 0 {
		e.printf("Every policy agrees with %s on every case.\n\n", ref)
		return
	}
	e.printf("   agree    more  fewer  policy\n")
	for i, row := range r.Summary {
		names := strings.Join(row.Policies, ", ")
		if len(row.Policies) > 1 {
			names += " (identical)"
		}
		if row.Relation == "=" && row.Diverge == 0 {
			e.printf("%8s  %6s  %5s  %s\n", "100%", "-", "-", names+" (same as "+ref+")")
			continue
		}
		if row.Relation != "" {
			names = row.Relation + " " + names
		}
		if row.Refuses > 0 {
			names += ", refuses " + thousands(row.Refuses)
		}
		e.printf("%s\n", wrapIndent(fmt.Sprintf("%8s  %6s  %5s  %s", percent(row.Agree, row.Agree+row.Diverge),
			thousands(row.AdmitsMore), thousands(row.AdmitsFewer), names), 0, 29))
		for _, wit := range row.Witnesses[:min(len(row.Witnesses), witnesses(i))] {
			line := fmt.Sprintf("%s with %s: %s%s", strconv.Quote(wit.Constraint), wit.Version, wit.What, relevanceNote(wit.Relevance))
			e.printf("%s\n", wrapIndent(line, 4, 6))
		}
	}
	legend := fmt.Sprintf("more/fewer: cases a policy allows and %s does not, and the reverse; "+
		"⊆ (⊇): it admits a subset (superset) of what %s does. "+
		"(n%%): how common the constraint's shape is%s.",
		ref, ref, relevanceSource(r))
	for _, l := range repeatedCountsText(r, ref, r.ClassesByPair()) {
		legend += " " + l
	}
	e.printf("\n%s\n\n", wrap(legend))
}

// relevanceNote is " (12.4%)", or "" without a relevance.
func relevanceNote(r *compare.Relevance) string {
	if r == nil {
		return ""
	}
	return " (" + r.String() + ")"
}

// relevanceSource says which real constraints relevance counts, from the
// first relevance the report has.
func relevanceSource(r *compare.Report) string {
	for _, c := range r.Classes {
		if c.Relevance != nil {
			return fmt.Sprintf(", of %s real module calls and provider requirements", thousands(int64(c.Relevance.Of)))
		}
	}
	return ""
}

// writeTextSplits writes the case shapes that split the policies.
func writeTextSplits(e *errWriter, r *compare.Report, opt Options) {
	if len(r.Splits) == 0 {
		return
	}
	shown := r.Splits
	if !opt.ShowAll {
		shown = shown[:min(len(shown), textSplits)]
	}
	e.printf("%s\n\n", wrap(fmt.Sprintf("Case shapes that split the policies, most relevant first (%d of %s):",
		len(shown), thousands(int64(len(r.Splits))))))
	for _, s := range shown {
		e.printf("%s\n", wrapIndent(fmt.Sprintf("%6s  %s with %s  (%s; %s)", s.Relevance, strconv.Quote(s.Witness.Constraint),
			s.Witness.Version, s.Shape, plural.Of(s.Count, "case", "cases")), 0, 8))
		e.printf("%s\n", wrapIndent(sidesText(s, len(r.Policies)), 8, 10))
	}
	if left := len(r.Splits) - len(shown); left > 0 {
		e.printf("  ... %s more%s\n", thousands(int64(left)), showAllOrJSON(opt.Hints, plain))
	}
	if r.SplitCasesLeftOut > 0 {
		e.printf("%s\n", wrapIndent(fmt.Sprintf("... and %s of further shapes, past the %s a report keeps",
			plural.Of(r.SplitCasesLeftOut, "case", "cases"), thousands(int64(compare.MaxSplits))), 2, 4))
	}
	e.printf("\n")
}

// sidesText names the policies on each side of a split; the largest side,
// when it holds more than half of them, as "the other N".
func sidesText(s compare.Split, total int) string {
	sides := []struct {
		verdict string
		names   []string
	}{{"allow", s.Allow}, {"reject", s.Reject}, {"refuse", s.Invalid}}
	largest := -1
	for i, side := range sides {
		if 2*len(side.names) > total && (largest < 0 || len(side.names) > len(sides[largest].names)) {
			largest = i
		}
	}
	var parts []string
	rest := "" // the largest side, named last
	for i, side := range sides {
		switch {
		case len(side.names) == 0:
		case i == largest:
			rest = fmt.Sprintf("%s: the other %d", side.verdict, len(side.names))
		default:
			parts = append(parts, side.verdict+": "+strings.Join(side.names, ", "))
		}
	}
	if rest != "" {
		parts = append(parts, rest)
	}
	return strings.Join(parts, " · ")
}

// writeTextMatrix writes the agreement matrix with the policies numbered
// in the given order: a legend, then one row and one column per number.
func writeTextMatrix(e *errWriter, r *compare.Report, order []string) {
	legend := make([]string, len(order))
	for i, p := range order {
		legend[i] = fmt.Sprintf("%d %s", i+1, p)
	}
	for i := range legend[:len(legend)-1] {
		legend[i] += ","
	}
	e.printf("%s\n\n", wrapWords(legend))
	agree := agreeMatrix(r)
	tw := tabwriter.NewWriter(e, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for i := range order {
		fmt.Fprintf(tw, "%d\t", i+1)
	}
	fmt.Fprintln(tw)
	for i, a := range order {
		fmt.Fprintf(tw, "%d\t", i+1)
		for _, b := range order {
			fmt.Fprintf(tw, "%s\t", agreeCell(a, b, agree, r.Domain.Cases))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// writeTextClasses writes the classes of each policy against the
// reference (with Options.All, of every pair), the first
// textClassesPerPair of each.
func writeTextClasses(e *errWriter, r *compare.Report, ref string, opt Options) {
	e.printf("\nDivergence classes, most relevant first\n")
	if len(r.Classes) == 0 {
		e.printf("\nnone: every pair agrees on every case\n")
		return
	}
	left := 0
	byPair := r.ClassesByPair()
	for _, p := range r.Pairs {
		classes := byPair(p.A, p.B)
		if len(classes) == 0 {
			continue
		}
		if !opt.ShowAll && p.A != ref && p.B != ref {
			left++
			continue
		}
		e.printf("\n%s\n", wrap(fmt.Sprintf("%s vs %s: %s diverged (%s agree), %s", p.A, p.B, thousands(p.Diverge), percent(p.Agree, p.Agree+p.Diverge),
			plural.Of(len(classes), "class", "classes"))))
		e.printf("%s\n", wrapIndent("causes: "+causeSummary(classes), 2, 4))
		shown := classes
		if !opt.ShowAll {
			shown = classes[:min(len(classes), textClassesPerPair)]
		}
		for _, c := range shown {
			e.printf("%s\n", wrapIndent(fmt.Sprintf("%d  %s  %s%s", c.Count, c.Cause, c.Signature, relevanceNote(c.Relevance)), 2, 6))
			e.printf("      witness: constraint %s, version %s\n", strconv.Quote(c.Witness.Constraint), strconv.Quote(c.Witness.Version))
			e.printf("%s\n", wrapIndent(fmt.Sprintf("%s: %s: %s", c.A, c.Witness.AVerdict, c.Witness.AReason), 8, 12))
			e.printf("%s\n", wrapIndent(fmt.Sprintf("%s: %s: %s", c.B, c.Witness.BVerdict, c.Witness.BReason), 8, 12))
		}
		if rest := classes[len(shown):]; len(rest) > 0 {
			var n int64
			for _, c := range rest {
				n += c.Count
			}
			e.printf("  ... %s with %s%s\n",
				plural.Of(len(rest), "more class", "more classes"), plural.Of(n, "case", "cases"), hint("", opt.Hints.ShowAll, " lists them", plain))
		}
		if p.CasesLeftOut > 0 {
			e.printf("%s\n", wrapIndent(fmt.Sprintf("... and %s in further classes, past the %s a pair keeps",
				plural.Of(p.CasesLeftOut, "diverging case", "diverging cases"), thousands(int64(compare.ClassesPerPair(len(r.Pairs))))), 2, 4))
		}
	}
	if left > 0 {
		e.printf("\n%s\n", wrap(fmt.Sprintf("The classes of the %s without %s are left out%s.",
			plural.Of(left, "diverging pair", "diverging pairs"), ref, showAllOrJSON(opt.Hints, plain))))
	}
}

// agreeCell is a matrix cell: "-" on the diagonal, "=" for a pair that
// agrees on every case, else the share of cases it agrees on, in whole
// percent rounded down (so that 99 still means some cases differ).
func agreeCell(a, b string, agree map[[2]string]int64, cases int64) string {
	switch n, ok := agree[[2]string{a, b}]; {
	case a == b:
		return "-"
	case !ok || cases == 0:
		return "?"
	case n == cases:
		return "="
	default:
		return strconv.FormatInt(100*n/cases, 10)
	}
}

// clusterOrder orders the policies so that similar ones sit together: the
// reference first, then each time the policy that agrees most with the
// one before it (the earlier in run order on a tie).
func clusterOrder(r *compare.Report, ref string) []string {
	agree := agreeMatrix(r)
	order := []string{ref}
	used := map[string]bool{ref: true}
	for len(order) < len(r.Policies) {
		last := order[len(order)-1]
		best, bestN := "", int64(-1)
		for _, p := range r.Policies {
			if used[p] {
				continue
			}
			if n := agree[[2]string{last, p}]; n > bestN {
				best, bestN = p, n
			}
		}
		order = append(order, best)
		used[best] = true
	}
	return order
}

// wrap breaks s into lines of at most textWidth columns at spaces,
// indenting the lines after the first by two.
func wrap(s string) string { return wrapWords(strings.Split(s, " ")) }

// wrapWords joins words with spaces into lines of at most textWidth
// columns, indenting the lines after the first by two; a word is never
// broken, and one longer than a line stands on a line of its own.
func wrapWords(words []string) string { return wrapWordsIndent(words, 0, 2) }

// wrapIndent is wrap with the first line indented by first and the
// others by rest.
func wrapIndent(s string, first, rest int) string {
	return wrapWordsIndent(strings.Split(s, " "), first, rest)
}

func wrapWordsIndent(words []string, first, rest int) string {
	return strings.Join(textwrap.Lines(strings.Join(words, " "), textWidth, first, rest), "\n")
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func writeTextSelection(e *errWriter, s *compare.SelectionReport) {
	e.printf("\n%s\n\n", wrap(fmt.Sprintf("Selection (what each policy would install, over %d constraint and history groups), each pair's witness under it", s.Groups)))
	wa, wb := len("a"), len("b")
	for _, p := range s.Pairs {
		wa, wb = max(wa, len([]rune(p.A))), max(wb, len([]rune(p.B)))
	}
	row := func(a, b, agree, diverge string) {
		e.printf("%s\n", strings.TrimRight(fmt.Sprintf("%-*s  %-*s  %5s  %7s", wa, a, wb, b, agree, diverge), " "))
	}
	row("a", "b", "agree", "diverge")
	for _, p := range s.Pairs {
		row(p.A, p.B, strconv.FormatInt(p.Agree, 10), strconv.FormatInt(p.Diverge, 10))
		if p.Witness != nil {
			e.printf("%s\n", wrapIndent(fmt.Sprintf("constraint %s over %s: %s installs %s, %s installs %s",
				strconv.Quote(p.Witness.Constraint), p.Witness.History, p.A, p.Witness.ASelected, p.B, p.Witness.BSelected), 4, 6))
		}
	}
}
