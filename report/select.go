package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/prerel/prerel/internal/notes"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/timeline"
)

// Selection is what a select report renders: the selections and, for
// the HTML timeline, the verdicts of the same policies on the same
// versions.
type Selection struct {
	// Report is the select report; its JSON is the JSON format.
	Report SelectReport
	// Verdicts are the check report of the same policies and versions.
	Verdicts CheckReport
}

// Select writes a select report in format f: Text, JSON or HTML.
func Select(w io.Writer, f Format, s Selection, opts Options) error {
	switch f {
	case Text:
		return writeSelectText(w, s.Report, opts)
	case JSON:
		return WriteJSON(w, s.Report)
	case HTML:
		return writeSelectHTML(w, s.Report, s.Verdicts, opts)
	}
	return &UnsupportedError{"select", f}
}

// writeSelectHTML writes a select report as an HTML page: what the
// policies select, the timeline of their verdicts (check, of the same
// policies and versions) with each selection outlined, then the text
// report.
func writeSelectHTML(w io.Writer, rep SelectReport, check CheckReport, opts Options) error {
	var text strings.Builder
	if err := writeSelectText(&text, rep, opts); err != nil {
		return err
	}
	selected := make([]string, len(rep.Policies))
	for i, r := range rep.Policies {
		if r.Selected != nil {
			selected[i] = *r.Selected
		}
	}
	svg, err := timeline.SVG(CheckTimeline(check, selected))
	if err != nil {
		return err
	}
	return WriteHTML(w, Page{
		Title:    "prerel select: " + printable.String(rep.Constraint),
		Answer:   selectAnswer(rep),
		Sections: []Section{{SVG: svg}},
		Text:     text.String(),
	})
}

// selectAnswer is the conclusion of a select report in one sentence.
func selectAnswer(rep SelectReport) string {
	var distinct []string
	for _, r := range rep.Policies {
		if s := selectsText(r); !slices.Contains(distinct, s) {
			distinct = append(distinct, s)
		}
	}
	switch {
	case len(rep.Policies) == 1:
		return fmt.Sprintf("%s selects %s", printable.String(rep.Policies[0].Policy), distinct[0])
	case len(distinct) == 1 && distinct[0] == "none":
		return "no policy selects a version"
	case len(distinct) == 1:
		return fmt.Sprintf("every policy selects %s", distinct[0])
	}
	return fmt.Sprintf("the policies give %d different answers: %s", len(distinct), strings.Join(distinct, ", "))
}

// writeSelectText writes a select report: the table of policies and the
// version each selects first, then the notes, each refusal and each group
// of unreadable versions (see selectNotes), then what was left out.
func writeSelectText(w io.Writer, rep SelectReport, opts Options) error {
	var b strings.Builder
	fmt.Fprintf(&b, "constraint: %s\navailable:  %s\n\n", printable.String(rep.Constraint), plural.Of(len(rep.Available), "version", "versions"))
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tSELECTS")
	for _, r := range rep.Policies {
		fmt.Fprintf(tw, "%s\t%s\n", r.Policy, selectsText(r))
	}
	tw.Flush()
	if rep.Cooldown != nil {
		b.WriteString(cooldownNotes(rep))
	}
	lines, omitted := selectNotes(rep, opts.ShowAll)
	if len(lines) > 0 {
		b.WriteString("\n" + strings.Join(lines, "\n") + "\n")
	}
	if omitted > 0 {
		fmt.Fprintf(&b, "\n%s\n", opts.leftOut(plural.Of(omitted, "note", "notes")))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// selectNotes returns the note lines of a select report and how many
// notes (one per policy and version, as the JSON lists them) it left out.
//
// Policies that refuse the constraint with the same words share a line.
// Unreadable versions are grouped by the reason's shape (the reason with
// the version's text abstracted, see notes.Shape) and the exact set of
// policies that cannot read them: one line per group with the count and
// notes.MaxExamples examples, the versions other policies select first,
// then the newest. A version alone in its group keeps the line of old:
// `note: P cannot read "V": REASON`. At most notes.MaxLines lines are
// shown, the largest groups first. With showAll every line is shown and
// every group lists all its versions, in list order, below its line.
func selectNotes(rep SelectReport, showAll bool) ([]string, int) {
	type block struct {
		lines []string
		notes int // how many notes the block stands for
		shown int // how many of them it names
	}
	var blocks []block
	var refusals []notes.Note
	var unreadable []notes.Note
	var selected []string
	for _, r := range rep.Policies {
		if r.Error != "" {
			refusals = append(refusals, notes.Note{Policy: r.Policy, Reason: printable.String(r.Error)})
		}
		if r.Selected != nil && !slices.Contains(selected, *r.Selected) {
			selected = append(selected, *r.Selected)
		}
		for _, u := range r.Unreadable {
			unreadable = append(unreadable, notes.Note{Policy: r.Policy, Subject: u.Version, Reason: printable.String(u.Reason)})
		}
	}
	for _, g := range notes.GroupNotes(refusals) {
		verb := "refuses"
		if len(g.Policies) > 1 {
			verb = "refuse"
		}
		blocks = append(blocks, block{
			lines: []string{fmt.Sprintf("note: %s %s the constraint: %s", notes.And(g.Policies), verb, g.Reason)},
			notes: g.Notes(), shown: g.Notes(),
		})
	}
	for _, g := range notes.GroupNotes(unreadable) {
		who := notes.And(g.Policies)
		b := block{notes: g.Notes(), shown: g.Notes()}
		switch n := len(g.Subjects); {
		case n == 1:
			b.lines = []string{fmt.Sprintf("note: %s cannot read %q: %s", who, g.Subjects[0], g.Reason)}
		case n <= notes.MaxExamples:
			b.lines = []string{fmt.Sprintf("note: %s cannot read %d versions, %s: %s", who, n, notes.And(printables(g.Subjects)), g.Shape)}
		case showAll:
			b.lines = append([]string{fmt.Sprintf("note: %s cannot read %d versions: %s", who, n, g.Shape)},
				notes.Wrap(printables(g.Subjects), "  ", 80)...)
		default:
			examples := notes.Relevant(g.Subjects, selected...)[:notes.MaxExamples]
			b.lines = []string{fmt.Sprintf("note: %s cannot read %d versions, e.g. %s: %s", who, n, notes.And(printables(examples)), g.Shape)}
			b.shown = len(g.Policies) * len(examples)
		}
		blocks = append(blocks, b)
	}
	var lines []string
	omitted := 0
	for i, b := range blocks {
		if !showAll && i >= notes.MaxLines {
			omitted += b.notes
			continue
		}
		lines = append(lines, b.lines...)
		omitted += b.notes - b.shown
	}
	return lines, omitted
}

// printables is texts from outside, each escaped by printable.String.
func printables(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = printable.String(t)
	}
	return out
}

// selectsText is the SELECTS cell of a row.
func selectsText(r SelectRow) string {
	switch {
	case r.Error != "":
		return "invalid constraint"
	case r.Selected == nil:
		return "none"
	}
	return printable.String(*r.Selected)
}

// cooldownNotes are the lines under a select table under a cooldown:
// when the ages are counted, and for each policy whose selection the
// cooldown changes or that it exempts, what it holds back.
func cooldownNotes(rep SelectReport) string {
	c := rep.Cooldown
	var b strings.Builder
	fmt.Fprintf(&b, "\ncooldown: minimum age %s at %s, the policy first\n", c.MinAge, c.Now.Format(time.RFC3339))
	for _, r := range rep.Policies {
		rc := r.Cooldown
		if rc == nil {
			continue
		}
		if rc.Exempt != "" {
			fmt.Fprintf(&b, "  %s: %s\n", r.Policy, rc.Exempt)
			continue
		}
		if len(rc.HeldBack) == 0 {
			continue
		}
		held := make([]string, len(rc.HeldBack))
		for i, h := range rc.HeldBack {
			held[i] = printable.String(h.Version)
			if h.EligibleAt != nil {
				held[i] += " until " + h.EligibleAt.Format(time.RFC3339)
			} else {
				held[i] += " (undated)"
			}
		}
		without := "none"
		if rc.Without != nil {
			without = printable.String(*rc.Without)
		}
		fmt.Fprintf(&b, "  %s: %s without it; held back: %s\n", r.Policy, without, strings.Join(held, ", "))
	}
	return b.String()
}
