package age

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/report"
)

// Formats are the formats of the report, the default first: those
// Render writes.
var Formats = report.Formats{report.Text, report.JSON}

// Render writes r in format f (Formats): WriteText, listing every class
// with opts.ShowAll, or WriteJSON.
func Render(w io.Writer, f report.Format, r *Report, opts report.Options) error {
	switch f {
	case report.Text:
		return WriteText(w, r, opts.ShowAll)
	case report.JSON:
		return WriteJSON(w, r)
	}
	return &report.UnsupportedError{Report: "age", Format: f}
}

// maxClassesShown is how many classes the text report shows unless
// asked for all; the fallback traps are always shown.
const maxClassesShown = 12

// WriteText writes the report in 80 columns: the answer first (which
// policies fall into the fallback trap under the age-first order), then
// every class with its witness.
func WriteText(w io.Writer, r *Report, all bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "prerel compare, the age dimension: minimum age %s, policy first (prerel,\n", r.MinAge)
	fmt.Fprintf(&b, "  Renovate, Dependabot) against age first (OpenTofu RFC #4444), on %s.\n", plural.Of(r.Cases, "case", "cases"))
	wrap(&b, "domain: "+r.Domain, 0, 2)
	traps := r.Traps()
	if len(traps) == 0 {
		b.WriteString("fallback trap: no policy falls into it on this domain.\n")
	} else {
		names := make([]string, len(traps))
		for i, c := range traps {
			names[i] = c.Policy
		}
		verb := "selects"
		if len(names) > 1 {
			verb = "select"
		}
		wrap(&b, fmt.Sprintf("fallback trap: under the age-first order, %s %s a prerelease where it selects a release without the cooldown; the policy-first order never does.", strings.Join(names, ", "), verb), 0, 2)
	}
	b.WriteString("\n  differ  policy\n")
	for _, p := range r.Policies {
		fmt.Fprintf(&b, "%8d  %s\n", r.Differ[p], p)
	}
	b.WriteString("\nClasses (without / policy first / age first), smallest witness:\n")
	shown := 0
	for _, c := range r.Classes {
		if !all && shown >= maxClassesShown && c.Kind != Trap {
			continue
		}
		shown++
		wrap(&b, fmt.Sprintf("%s: %s, %s", c.Policy, c.Kind, plural.Of(c.Cases, "case", "cases")), 2, 4)
		wrap(&b, fmt.Sprintf("%s: without %s, policy first %s, age first %s", c.Witness, c.Without, c.PolicyFirst, c.AgeFirst), 4, 6)
	}
	if left := len(r.Classes) - shown; left > 0 {
		fmt.Fprintf(&b, "  ... and %s more (--show-all)\n", plural.Of(left, "class", "classes"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// wrap writes s in lines of at most 80 columns, the first indented by
// first spaces and the others by rest.
func wrap(b *strings.Builder, s string, first, rest int) {
	line := strings.Repeat(" ", first)
	start := true
	for _, word := range strings.Fields(s) {
		if !start && len(line)+1+len(word) > 80 {
			b.WriteString(line + "\n")
			line, start = strings.Repeat(" ", rest), true
		}
		if !start {
			line += " "
		}
		line += word
		start = false
	}
	b.WriteString(line + "\n")
}
