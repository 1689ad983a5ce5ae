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

// RenderText writes r for a terminal: the domain, the agreement matrix
// (cases diverged per pair), the pairs with agreed and diverged counts,
// then the divergence classes grouped by pair (with the cases and classes
// of each cause), the TextClassesPerPair largest of each pair with their count, cause, signature and witness
// with both verdicts and reasons, and for domains of
// real histories the selection comparison.
func RenderText(w io.Writer, r *Report) error {
	e := &errWriter{w: w}
	e.printf("domain: %s\n", r.Domain.Description)
	e.printf("cases: %d\n", r.Domain.Cases)
	e.printf("policies: %s\n\n", strings.Join(r.Policies, ", "))

	e.printf("Agreement matrix (cases diverged, of %d)\n\n", r.Domain.Cases)
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

func writeTextMatrix(e *errWriter, r *Report) {
	m := divergeMatrix(r)
	tw := tabwriter.NewWriter(e, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, p := range r.Policies {
		fmt.Fprintf(tw, "%s\t", p)
	}
	fmt.Fprintln(tw)
	for _, a := range r.Policies {
		fmt.Fprintf(tw, "%s\t", a)
		for _, b := range r.Policies {
			if a == b {
				fmt.Fprint(tw, "-\t")
				continue
			}
			fmt.Fprintf(tw, "%d\t", m[[2]string{a, b}])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
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
