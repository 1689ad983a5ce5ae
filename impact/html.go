package impact

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/timeline"
	"github.com/prerel/prerel/report"
)

// htmlMaxTimelines is how many changed cases an HTML report draws.
const htmlMaxTimelines = 10

// htmlCases returns the changed cases to draw, at most
// htmlMaxTimelines: the first case of each changed class (classes in
// report order, the most relevant first), then the second of each, and so
// on; and how many changed cases are left out.
func htmlCases(rep *Report) ([]Case, int) {
	var out []Case
	total := 0
	for _, c := range rep.Classes {
		if c.Changed {
			total += len(c.Cases)
		}
	}
	for k := 0; len(out) < min(total, htmlMaxTimelines); k++ {
		for _, c := range rep.Classes {
			if c.Changed && k < len(c.Cases) && len(out) < htmlMaxTimelines {
				out = append(out, c.Cases[k])
			}
		}
	}
	return out, total - len(out)
}

// renderHTML writes an impact report as an HTML page: how many calls
// install differently, a timeline of each of the most relevant changed
// cases (the case's constraint over its history, B's and P's verdicts
// and selections), then the text report.
//
// It draws from what Run kept of the run: the histories of the domain and
// the policies.
func renderHTML(w io.Writer, rep *Report, ro report.Options) error {
	if rep.run == nil {
		return errors.New("impact: an HTML report needs the report of Run")
	}
	d, run := rep.run.domain, rep.run
	var text strings.Builder
	if err := renderText(&text, rep, ro); err != nil {
		return err
	}
	page := report.Page{
		Title: "prerel impact: " + printable.String(rep.Policy),
		Answer: fmt.Sprintf("%s changes what %d of %s install (against %s)",
			printable.String(rep.Policy), rep.Changed.Calls, plural.Of(rep.Data.WithHistory, "call with a history", "calls with a history"), htmlAgainst(rep)),
		Text: text.String(),
	}
	cases, left := htmlCases(rep)
	for _, c := range cases {
		h := d.HistoryOf(&c)
		b := run.against[c.Kind]
		if h == nil || b == nil {
			left++
			continue
		}
		versions := h.Offered(run.simulate)
		check := report.NewCheckReport([]engine.Policy{b, run.policy}, c.Constraint, versions)
		svg, err := timeline.SVG(report.CheckTimeline(check, []string{htmlSelects(c.Against), htmlSelects(c.Policy)}))
		if err != nil {
			return err
		}
		note := fmt.Sprintf("%s %s, constraint %q: %s; %s installs %s, %s installs %s; %s (%s).",
			c.Kind, printable.String(c.Source), printable.String(c.Constraint),
			plural.Of(c.Calls, "call", "calls")+" in "+plural.Of(c.Repos, "repository", "repositories"),
			printable.String(check.Policies[0]), htmlOutcome(c.Against), printable.String(check.Policies[1]), htmlOutcome(c.Policy),
			plural.Of(len(versions), "version offered", "versions offered"), printable.String(h.Name))
		if c.Simulated {
			note += " Prereleases simulated."
		}
		page.Sections = append(page.Sections, report.Section{
			Heading: fmt.Sprintf("%s: %s %s", c.Cause, printable.String(c.SourceKey), printable.String(c.Constraint)),
			Note:    note,
			SVG:     svg,
		})
	}
	if left > 0 {
		page.Omitted = plural.Of(left, "changed case", "changed cases") + " not drawn."
	}
	return report.WriteHTML(w, page)
}

// htmlAgainst names B as the answer says it.
func htmlAgainst(rep *Report) string {
	if rep.Against.Module == rep.Against.Provider {
		return printable.String(rep.Against.Module)
	}
	return fmt.Sprintf("%s for modules, %s for providers", printable.String(rep.Against.Module), printable.String(rep.Against.Provider))
}

// htmlSelects is the version an outcome installs, "" for none.
func htmlSelects(o Outcome) string {
	if o.Selects == nil {
		return ""
	}
	return *o.Selects
}

// htmlOutcome says what an outcome installs, in a timeline's note.
func htmlOutcome(o Outcome) string {
	switch {
	case o.Refuses != "":
		return "nothing (refuses the constraint)"
	case o.Selects == nil:
		return "nothing"
	}
	return printable.String(*o.Selects)
}
