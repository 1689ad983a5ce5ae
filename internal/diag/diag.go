// Package diag formats and gathers hcl.Diagnostics, the one diagnostic
// type of prerel: every configuration mistake it reports, in Terraform's
// files, the module manifest, the lock file or prerel.hcl, is one, printed
// the same way everywhere.
package diag

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/prerel/prerel/internal/printable"
)

// FormatRange returns a place as "FILE:LINE:COLUMN": "FILE:LINE" when the
// column is unknown (0), "FILE" when the line is, and "" for a range with
// no file name (an unknown or implied place). Only the start of the
// range is printed.
func FormatRange(r hcl.Range) string {
	switch {
	case r.Filename == "":
		return ""
	case r.Start.Line == 0:
		return r.Filename
	case r.Start.Column == 0:
		return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line)
	default:
		return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
	}
}

// Format returns a diagnostic on one line, as prerel prints
// every diagnostic: "FILE:LINE:COLUMN: SUMMARY; DETAIL", with "warning: "
// before the summary of a warning. The place is left out when the
// diagnostic has no Subject (or one with no file name), the detail when
// there is none; line breaks inside the summary or detail become spaces.
func Format(d *hcl.Diagnostic) string {
	if d == nil {
		return ""
	}
	var b strings.Builder
	if d.Subject != nil {
		if p := FormatRange(*d.Subject); p != "" {
			b.WriteString(p)
			b.WriteString(": ")
		}
	}
	if d.Severity == hcl.DiagWarning {
		b.WriteString("warning: ")
	}
	b.WriteString(oneLine(d.Summary))
	if d.Detail != "" {
		b.WriteString("; ")
		b.WriteString(oneLine(d.Detail))
	}
	return b.String()
}

// oneLine returns s on one line: when s has line breaks, every run of
// white space becomes one space.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// ErrorAt returns an error diagnostic at r (no place when r is nil).
func ErrorAt(r *hcl.Range, summary, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
	if r != nil {
		rr := *r
		d.Subject = &rr
	}
	return d
}

// Dedupe drops an error at the same place (file, line and column) as an
// earlier error: HCL follows a syntax error with "Unsuitable value type"
// where a decoder reads the broken expression, and "Variables not
// allowed" with "Unsuitable value type" at the same place.
func Dedupe(diags hcl.Diagnostics) hcl.Diagnostics {
	type place struct {
		file         string
		line, column int
	}
	seen := map[place]bool{}
	out := diags[:0:0]
	for _, d := range diags {
		if d == nil {
			continue
		}
		if d.Subject != nil && d.Severity == hcl.DiagError {
			p := place{d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column}
			if seen[p] {
				continue
			}
			seen[p] = true
		}
		out = append(out, d)
	}
	return out
}

// Lines formats the errors among diags one a line (Format), each escaped
// by printable.String, with a count first when there are several.
func Lines(diags hcl.Diagnostics) string {
	var lines []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			lines = append(lines, printable.String(Format(d)))
		}
	}
	if len(lines) == 1 {
		return lines[0]
	}
	return fmt.Sprintf("%d problems in the configuration:\n  %s", len(lines), strings.Join(lines, "\n  "))
}
