// Package report renders the reports of prerel's check, select and
// explain (engine.CheckReport, engine.SelectReport and
// engine.ExplainReport), and defines the formats and options that every
// renderer of prerel takes: each renders a report with a function of the
// shape
//
//	func Render(w io.Writer, f Format, r Report, opts Options) error
//
// (here Check, Select and Explain; resolve.Render and impact.Render for
// those reports). A renderer writes the report and returns the first
// write error. It names no command-line flag: what a reader does to see
// what a text report cut is given in Options, as the command line
// spells it.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Format is a format a report is rendered in.
type Format string

// The formats. A report has some of them; rendering it in another is an
// error.
const (
	Text     Format = "text"     // for a terminal
	Markdown Format = "markdown" // for a pull request or a CI step summary
	JSON     Format = "json"     // for programs: everything the report holds
	HTML     Format = "html"     // a self-contained page, with timelines
	// SARIF is a SARIF 2.1.0 log for code scanning (internal/sarif): the
	// findings of the reports whose findings stand at a place in the
	// user's files (resolve, pin's check, compare's drift), each there.
	// It is not among Formats: the commands that write it add it to
	// their --format themselves.
	SARIF Format = "sarif"
)

// Formats are the formats every report may have, in the order help
// texts list them.
var Formats = []Format{Text, Markdown, JSON, HTML}

// ParseFormat returns the format named s.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if s == string(f) {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown format %q (expected %s)", s, strings.Join(names, ", "))
}

// Options are the choices of a renderer.
type Options struct {
	// ShowAll lists everything a text report would otherwise cut.
	ShowAll bool
	// ShowAllHint is how a reader asks for everything, as in
	// "--show-all": a text report that cut something ends with a line
	// saying what it left out and that this lists it. Empty, the line
	// says only what was left out.
	ShowAllHint string
	// WholeHint is how a reader sees a long text whole, as in
	// "--format json": a text cut short says that this shows it. Empty,
	// it says only what was left out.
	WholeHint string
	// Today says what a policy is today's rule for, "" for a policy that
	// is none (catalogue.Today): the HTML check report names those
	// policies together as today's rule. Nil, no policy is.
	Today func(policy string) string
}

// leftOut is the last line of a text report that cut what: what, and how
// to list it.
func (o Options) leftOut(what string) string {
	if o.ShowAllHint == "" {
		return what + " left out"
	}
	return fmt.Sprintf("%s left out; %s lists them", what, o.ShowAllHint)
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
