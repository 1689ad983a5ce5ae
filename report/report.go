// Package report holds the reports of prerel's check, select and explain
// and renders them, and the list of policies, and defines the formats and
// options that every renderer of prerel takes: each renders a report with
// a function of the shape
//
//	func Render(w io.Writer, f Format, r Report, opts Options) error
//
// and declares beside it the formats it has (Formats), the default first;
// a program offers exactly those, and asked for another the renderer
// returns an UnsupportedError. The reports and their formats:
//
//	policies (Policies)            text, json             PoliciesFormats
//	check (Check)                  text, json, html       CheckFormats
//	select (Select)                text, json, html       SelectFormats
//	explain (Explain)              text, json             ExplainFormats
//	resolve (resolve.Render)       text, markdown, json,  resolve.Formats
//	                               sarif
//	pin (pin.Render)               text, markdown, json   pin.Formats
//	pin's check                    the same, and sarif    pin.CheckFormats
//	impact (impact.Render)         text, markdown, json,  impact.Formats
//	                               html
//	compare (compare/render)       text, markdown, json,  render.Formats
//	                               html
//	compare with a baseline        the same, and sarif    render.DriftFormats
//	compare's age dimension        text, json             age.Formats
//	(compare/age: age.Render)
//
// SARIF is written only where the findings stand at a place in the user's
// files. A renderer writes the report and returns the first write error.
// It names no command-line flag: what a reader does to see what a text
// report cut is given in Options.Hints, as the program spells it.
//
// # Reports
//
// CheckReport, SelectReport and ExplainReport are the JSON forms of the
// prerel commands check, select and explain (NewCheckReport,
// NewSelectReport and NewExplainReport make them with the engine), and
// EvalLine is one line of eval's JSON output. Each report carries a
// Schema constant; a change of a field's meaning, or a field that
// disappears, changes it.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Format is a format a report is rendered in.
type Format string

// The formats. A report has some of them, which its renderer declares
// (Formats); rendering it in another is an error.
const (
	Text     Format = "text"     // for a terminal
	Markdown Format = "markdown" // for a pull request or a CI step summary
	JSON     Format = "json"     // for programs: everything the report holds
	HTML     Format = "html"     // a self-contained page, with timelines
	// SARIF is a SARIF 2.1.0 log for code scanning (internal/sarif): the
	// findings of the reports whose findings stand at a place in the
	// user's files (resolve, pin's check, compare's drift), each there.
	SARIF Format = "sarif"
	// TSV is one line of tab-separated fields per case, of prerel eval.
	TSV Format = "tsv"
)

// Formats are the formats a report's renderer has, declared beside the
// renderer, the default first: a program offers exactly these (its help
// and its errors are made from them, with String and Parse).
type Formats []Format

// Has reports whether f is one of fs.
func (fs Formats) Has(f Format) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}

// String lists fs as "text, json or html".
func (fs Formats) String() string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = string(f)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Parse returns the format of fs named s, spelled exactly; any other
// name is an error that lists fs.
func (fs Formats) Parse(s string) (Format, error) {
	if f := Format(s); fs.Has(f) {
		return f, nil
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown format %q (expected %s)", s, strings.Join(names, ", "))
}

// The formats of the reports of this package.
var (
	PoliciesFormats = Formats{Text, JSON}       // Policies
	CheckFormats    = Formats{Text, JSON, HTML} // Check
	SelectFormats   = Formats{Text, JSON, HTML} // Select
	ExplainFormats  = Formats{Text, JSON}       // Explain
)

// Options are the choices of a renderer, the same for every report of
// prerel; a report reads those that apply to it.
type Options struct {
	// ShowAll lists everything a text report would otherwise cut.
	ShowAll bool
	// Hints tell the reader how to see what a report leaves out.
	Hints Hints
	// Today says what a policy is today's rule for, "" for a policy that
	// is none (catalogue.Today): the reports mark those policies, and
	// the HTML check report names them together as today's rule. Nil,
	// no policy is.
	Today func(policy string) string
	// Group, when set, names the group of a policy, such as
	// "installers" or "updaters": the reports that group the policies
	// list them in the order of Groups, a group Groups does not name
	// after them. Nil leaves the policies ungrouped.
	Group func(policy string) string
	// Groups lists the groups in the order they are shown.
	Groups []string
}

// Hints are the words a report uses to tell its reader how to see what it
// leaves out, in the terms of the program that shows it (a command-line
// flag, a button). A report says nothing of a way whose hint is empty.
type Hints struct {
	// ShowAll lists everything the text report cuts (Options.ShowAll),
	// as in "--show-all".
	ShowAll string
	// JSON asks for the JSON report, which holds everything, as in
	// "--format json": a text cut short says that this shows it whole.
	JSON string
	// TextShowAll asks for the text report with everything listed; the
	// Markdown report of compare names it for what it leaves out.
	TextShowAll string
	// WriteBaseline writes a new baseline, one with every policy's
	// verdict on every case (compare).
	WriteBaseline string
	// Changes says where the changes of a drift from a baseline without
	// per-case verdicts are listed ("on stderr"); compare's text report,
	// which does not list them, names the place.
	Changes string
}

// leftOut is the last line of a text report that cut what: what, and how
// to list it.
func (o Options) leftOut(what string) string {
	if o.Hints.ShowAll == "" {
		return what + " left out"
	}
	return fmt.Sprintf("%s left out; %s lists them", what, o.Hints.ShowAll)
}

// UnsupportedError is the error of a renderer asked for a format its
// report does not have.
type UnsupportedError struct {
	Report string // "check", "select", ...
	Format Format
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("the %s report has no %s format", e.Report, e.Format)
}

// WriteJSON writes v as indented JSON, as every JSON report of prerel
// is written: "<", ">" and "&" as they are, so that constraints such as
// "~> 1.2" and ">= 1.0, < 2.0" read the same in JSON as on the command
// line.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
