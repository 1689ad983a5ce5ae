package tfconfig

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Pos is a place in a configuration file: 1-based line and column (column
// 0 when unknown).
type Pos struct {
	Filename string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column,omitempty"`
}

// String returns "FILE:LINE:COLUMN", "FILE:LINE" when the column is
// unknown, "FILE" when the line is, and "" for the zero Pos.
func (p Pos) String() string {
	switch {
	case p.Filename == "" && p.Line == 0:
		return ""
	case p.Line == 0:
		return p.Filename
	case p.Column == 0:
		return fmt.Sprintf("%s:%d", p.Filename, p.Line)
	default:
		return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
	}
}

// IsZero reports whether p is the zero Pos.
func (p Pos) IsZero() bool { return p == Pos{} }

func posOf(r hcl.Range) Pos {
	return Pos{Filename: r.Filename, Line: r.Start.Line, Column: r.Start.Column}
}

// Severity is a diagnostic's severity.
type Severity uint8

// The severities.
const (
	Error Severity = iota
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText implements encoding.TextMarshaler.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is a problem the reader found, as the HCL parser or
// hashicorp/terraform-config-inspect reported it, with its place.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail,omitempty"`
	Pos      *Pos     `json:"pos,omitempty"`
}

// String returns "FILE:LINE:COLUMN: SUMMARY; DETAIL", with "warning: "
// before the summary of a warning.
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Pos != nil && !d.Pos.IsZero() {
		b.WriteString(d.Pos.String())
		b.WriteString(": ")
	}
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Summary)
	if d.Detail != "" {
		b.WriteString("; ")
		b.WriteString(d.Detail)
	}
	return b.String()
}

// Diagnostics is a list of problems, errors and warnings.
type Diagnostics []Diagnostic

// HasErrors reports whether some diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns the errors alone.
func (ds Diagnostics) Errors() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// Warnings returns the warnings alone.
func (ds Diagnostics) Warnings() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Warning {
			out = append(out, d)
		}
	}
	return out
}

// Error returns every diagnostic, one a line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Err returns the errors as an error, or nil when there are none.
func (ds Diagnostics) Err() error {
	if errs := ds.Errors(); len(errs) > 0 {
		return errs
	}
	return nil
}

func fromHCL(diags hcl.Diagnostics) Diagnostics {
	var out Diagnostics
	for _, d := range diags {
		nd := Diagnostic{Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagWarning {
			nd.Severity = Warning
		}
		if d.Subject != nil {
			p := posOf(*d.Subject)
			nd.Pos = &p
		}
		out = append(out, nd)
	}
	return out
}

func errorAt(r *hcl.Range, summary, detail string) Diagnostic {
	d := Diagnostic{Severity: Error, Summary: summary, Detail: detail}
	if r != nil {
		p := posOf(*r)
		d.Pos = &p
	}
	return d
}
