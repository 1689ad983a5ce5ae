package compare

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/prerel/prerel/internal/plural"
)

// TextClassesPerPair is how many classes RenderText lists per pair, the
// largest first, so that a terminal report stays readable; the rest are
// counted in one line, and the JSON report lists them all.
const TextClassesPerPair = 5

// TextWidth is the terminal width the head of RenderText's report fits:
// the domain, the policies and the agreement matrix.
const TextWidth = 80

// RenderText writes r for a terminal: the domain, the agreement matrix
// (the share of cases each pair agrees on, policies numbered with a
// legend so that it fits TextWidth columns), the pairs with agreed and
// diverged counts,
// then the divergence classes grouped by pair (with the cases and classes
// of each cause), the TextClassesPerPair largest of each pair with their count, cause, signature and witness
// with both verdicts and reasons, and for domains of
// real histories the selection comparison.
func RenderText(w io.Writer, r *Report) error {
	e := &errWriter{w: w}
	e.printf("%s\n", wrap("domain: "+r.Domain.Description))
	e.printf("cases: %d\n", r.Domain.Cases)
	e.printf("%s\n\n", wrap("policies: "+strings.Join(r.Policies, ", ")))

	e.printf("%s\n\n", wrap(fmt.Sprintf("Agreement matrix: the %% of the %d cases on which two policies agree, "+
		"rounded down (= every case, - itself; the pairs below have the counts)", r.Domain.Cases)))
	writeTextMatrix(e, r)

	e.printf("\nPairs\n\n")
	tw := tabwriter.NewWriter(e, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "a\tb\tagree\tdiverge\tagreement\tclasses\t\n")
	for _, p := range r.Pairs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t\n", p.A, p.B, p.Agree, p.Diverge, percent(p.Agree, p.Agree+p.Diverge), len(r.ClassesOf(p.A, p.B)))
	}
	tw.Flush()

	e.printf("\nDivergence classes\n")
	if len(r.Classes) == 0 {
		e.printf("\nnone: every pair agrees on every case\n")
	}
	for _, p := range r.Pairs {
		classes := r.ClassesOf(p.A, p.B)
		if len(classes) == 0 {
			continue
		}
		e.printf("\n%s vs %s: %d diverged, %s\n", p.A, p.B, p.Diverge, plural.Of(len(classes), "class", "classes"))
		e.printf("  causes: %s\n", causeSummary(classes))
		shown := classes[:min(len(classes), TextClassesPerPair)]
		for _, c := range shown {
			e.printf("  %d  %s  %s\n", c.Count, c.Cause, c.Signature)
			e.printf("      witness: constraint %s, version %s\n", strconv.Quote(c.Witness.Constraint), strconv.Quote(c.Witness.Version))
			tw := tabwriter.NewWriter(e, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "        %s\t%s\t%s\n", c.A, c.Witness.AVerdict, c.Witness.AReason)
			fmt.Fprintf(tw, "        %s\t%s\t%s\n", c.B, c.Witness.BVerdict, c.Witness.BReason)
			tw.Flush()
		}
		if rest := classes[len(shown):]; len(rest) > 0 {
			var n int64
			for _, c := range rest {
				n += c.Count
			}
			e.printf("  ... %s with %s, smaller than these; --format json lists them all\n",
				plural.Of(len(rest), "more class", "more classes"), plural.Of(n, "case", "cases"))
		}
	}
	if r.Selection != nil {
		writeTextSelection(e, r.Selection)
	}
	return e.err
}

// writeTextMatrix writes the agreement matrix with the policies
// numbered: a legend, then one row and one column per number.
func writeTextMatrix(e *errWriter, r *Report) {
	legend := make([]string, len(r.Policies))
	for i, p := range r.Policies {
		legend[i] = fmt.Sprintf("%d %s", i+1, p)
	}
	for i := range legend[:len(legend)-1] {
		legend[i] += ","
	}
	e.printf("%s\n\n", wrapWords(legend))
	agree := agreeMatrix(r)
	tw := tabwriter.NewWriter(e, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for i := range r.Policies {
		fmt.Fprintf(tw, "%d\t", i+1)
	}
	fmt.Fprintln(tw)
	for i, a := range r.Policies {
		fmt.Fprintf(tw, "%d\t", i+1)
		for _, b := range r.Policies {
			fmt.Fprintf(tw, "%s\t", agreeCell(a, b, agree, r.Domain.Cases))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
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

// wrap breaks s into lines of at most TextWidth columns at spaces,
// indenting the lines after the first by two.
func wrap(s string) string { return wrapWords(strings.Split(s, " ")) }

// wrapWords joins words with spaces into lines of at most TextWidth
// columns, indenting the lines after the first by two; a word is never
// broken, and one longer than a line stands on a line of its own.
func wrapWords(words []string) string {
	var b strings.Builder
	col := 0
	for i, w := range words {
		switch {
		case i == 0:
		case col+1+len(w) > TextWidth:
			b.WriteString("\n  ")
			col = 2
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

func writeTextSelection(e *errWriter, s *SelectionReport) {
	e.printf("\nSelection (what each policy would install, over %d constraint and history groups)\n\n", s.Groups)
	tw := tabwriter.NewWriter(e, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "a\tb\tagree\tdiverge\twitness\n")
	for _, p := range s.Pairs {
		wit := "-"
		if p.Witness != nil {
			wit = fmt.Sprintf("constraint %s over %s: %s installs %s, %s installs %s",
				strconv.Quote(p.Witness.Constraint), p.Witness.History, p.A, p.Witness.ASelected, p.B, p.Witness.BSelected)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", p.A, p.B, p.Agree, p.Diverge, wit)
	}
	tw.Flush()
}
