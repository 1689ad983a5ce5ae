package diag

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func TestFormatRange(t *testing.T) {
	for _, tt := range []struct {
		r    hcl.Range
		want string
	}{
		{hcl.Range{}, ""},
		{hcl.Range{Start: hcl.Pos{Line: 3, Column: 7}}, ""},
		{hcl.Range{Filename: "a.tf"}, "a.tf"},
		{hcl.Range{Filename: "a.tf", Start: hcl.Pos{Line: 3}}, "a.tf:3"},
		{hcl.Range{Filename: "a.tf", Start: hcl.Pos{Line: 3, Column: 7}, End: hcl.Pos{Line: 4, Column: 1}}, "a.tf:3:7"},
	} {
		if got := FormatRange(tt.r); got != tt.want {
			t.Errorf("FormatRange(%#v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	at := &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 13, Byte: 20}, End: hcl.Pos{Line: 2, Column: 20, Byte: 27}}
	for _, tt := range []struct {
		d    *hcl.Diagnostic
		want string
	}{
		{&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid expression", Detail: "Expected the start of an expression.", Subject: at},
			"main.tf:2:13: Invalid expression; Expected the start of an expression."},
		{&hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Module lock ignored", Subject: at},
			"main.tf:2:13: warning: Module lock ignored"},
		{&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No configuration files", Detail: "x has none"},
			"No configuration files; x has none"},
		{&hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Deprecated", Subject: &hcl.Range{}},
			"warning: Deprecated"},
		{&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Two\nlines", Detail: "First line.\n\n  Second line."},
			"Two lines; First line. Second line."},
		{nil, ""},
	} {
		if got := Format(tt.d); got != tt.want {
			t.Errorf("Format = %q, want %q", got, tt.want)
		}
	}
}

func TestDedupe(t *testing.T) {
	r := func(line, col, end int) *hcl.Range {
		return &hcl.Range{Filename: "a.tf", Start: hcl.Pos{Line: line, Column: col}, End: hcl.Pos{Line: line, Column: end}}
	}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Invalid expression", Subject: r(3, 13, 14)},
		{Severity: hcl.DiagError, Summary: "Unsuitable value type", Subject: r(3, 13, 20)},
		{Severity: hcl.DiagWarning, Summary: "w", Subject: r(3, 13, 14)},
		{Severity: hcl.DiagWarning, Summary: "w", Subject: r(3, 13, 14)},
		{Severity: hcl.DiagError, Summary: "no place"},
		{Severity: hcl.DiagError, Summary: "no place"},
		{Severity: hcl.DiagError, Summary: "elsewhere", Subject: r(4, 1, 2)},
	}
	var got []string
	for _, d := range Dedupe(diags) {
		got = append(got, d.Summary)
	}
	want := "Invalid expression,w,w,no place,no place,elsewhere"
	if strings.Join(got, ",") != want {
		t.Errorf("Dedupe kept %q, want %q", strings.Join(got, ","), want)
	}
}

func TestLines(t *testing.T) {
	e := func(summary string) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Subject: &hcl.Range{Filename: "p.hcl", Start: hcl.Pos{Line: 1, Column: 2}}}
	}
	warning := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Deprecated"}
	for _, tt := range []struct {
		name  string
		diags hcl.Diagnostics
		want  string
	}{
		{"one", hcl.Diagnostics{warning, e("Bad")}, "p.hcl:1:2: Bad"},
		{"escaped", hcl.Diagnostics{e("Bad \x1b[31mred")}, `p.hcl:1:2: Bad \x1b[31mred`},
		{"several", hcl.Diagnostics{e("One"), warning, e("Two")}, "2 problems in the configuration:\n  p.hcl:1:2: One\n  p.hcl:1:2: Two"},
	} {
		if got := Lines(tt.diags); got != tt.want {
			t.Errorf("%s: Lines = %q, want %q", tt.name, got, tt.want)
		}
	}
}
