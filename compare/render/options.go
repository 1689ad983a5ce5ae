package render

import (
	"html"
	"slices"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/internal/markdown"
)

// Options tunes the text, Markdown and HTML reports; the JSON report
// holds everything and reads none of it.
type Options struct {
	// All lists every split, every class and every pair instead of the
	// first ones.
	All bool
	// Drift, when set, is the drift from a baseline, which the report
	// begins with; BaselinePath names the baseline.
	Drift        *compare.Drift
	BaselinePath string
	// Hints tell the reader how to see what a report leaves out.
	Hints Hints
	// Installers names the releases whose installers the reference
	// stands for when it is terraform-module or opentofu-module, such as
	// "Terraform 1.15.9 and OpenTofu 1.12.6"; "" says "Terraform and
	// OpenTofu".
	Installers string
	// Group, when set, names the group of a policy, such as
	// "installers" or "updaters": the HTML and Markdown reports then list
	// the policies by group, in the order of Groups, a group Groups does
	// not name after them, and mark today's rule and the reference. Nil
	// leaves the policies ungrouped. The text report is never grouped.
	Group func(policy string) string
	// Groups lists the groups in the order they are shown.
	Groups []string
	// Today says what a policy that is today's rule stands for
	// (catalogue.Today), "" for any other; such a policy is marked in a
	// grouped report. Nil marks none.
	Today func(policy string) string
}

// Hints are the words a report uses to tell its reader how to see what it
// leaves out, in the terms of the program that shows it (a command-line
// flag, a button). A report says nothing of a way whose hint is empty.
type Hints struct {
	// ShowAll lists everything the text report cuts: it sets
	// Options.All.
	ShowAll string
	// JSON asks for the JSON report, which holds everything.
	JSON string
	// TextShowAll asks for the text report with everything listed; the
	// Markdown report names it for what it leaves out.
	TextShowAll string
	// WriteBaseline writes a new baseline, one with every policy's
	// verdict on every case.
	WriteBaseline string
	// Changes says where the changes of a drift from a baseline without
	// per-case verdicts are listed ("on stderr"); the text report, which
	// does not list them, names the place.
	Changes string
}

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
func (h Hints) showAllOrJSON(code func(string) string) string {
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
