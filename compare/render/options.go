package render

import (
	"html"
	"slices"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/internal/markdown"
	"github.com/prerel/prerel/report"
)

// Options tunes the text, Markdown and HTML reports; the JSON report
// holds everything and reads none of it. The options every renderer of
// prerel takes (report.Options) apply as they say: ShowAll lists every
// split, every class and every pair instead of the first ones; Group,
// Groups and Today group the policies of the HTML and Markdown reports
// and mark today's rule and the reference (the text report is never
// grouped).
type Options struct {
	report.Options
	// Drift, when set, is the drift from a baseline, which the report
	// begins with; BaselinePath names the baseline.
	Drift        *compare.Drift
	BaselinePath string
	// Installers names the releases whose installers the reference
	// stands for when it is terraform-module or opentofu-module, such as
	// "Terraform 1.15.9 and OpenTofu 1.12.6"; "" says "Terraform and
	// OpenTofu".
	Installers string
}

// Hints are the words a report uses to tell its reader how to see what
// it leaves out: those of every renderer of prerel.
type Hints = report.Hints

// plain writes a hint in text as it is.
func plain(s string) string { return s }

// backticks writes a hint as Markdown code.
func backticks(s string) string { return markdown.Code(s) }

// htmlCode writes a hint as HTML code.
func htmlCode(s string) string { return "<code>" + html.EscapeString(s) + "</code>" }

// hint is "; " + before + the hint + after, or nothing when the hint is
// empty; code writes the hint as the format shows code.
func hint(before, h, after string, code func(string) string) string {
	if h == "" {
		return ""
	}
	return "; " + before + code(h) + after
}

// showAllOrJSON tells how to see a cut list whole: "; --show-all lists
// them, --format json has them all", or the part the hints allow.
func showAllOrJSON(h Hints, code func(string) string) string {
	switch {
	case h.ShowAll != "" && h.JSON != "":
		return "; " + code(h.ShowAll) + " lists them, " + code(h.JSON) + " has them all"
	case h.ShowAll != "":
		return "; " + code(h.ShowAll) + " lists them"
	case h.JSON != "":
		return "; " + code(h.JSON) + " has them all"
	}
	return ""
}

// referenceOf is the reference of a report: ref when given, else
// compare.DefaultReference when the report has it, else the first policy.
func referenceOf(ref string, names []string) string {
	if ref != "" {
		return ref
	}
	if slices.Contains(names, compare.DefaultReference) {
		return compare.DefaultReference
	}
	return names[0]
}
