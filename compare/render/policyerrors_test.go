package render_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
)

// withPolicyErrors is the golden report with two policies that failed
// on some cases: one error of a version, two of a constraint alone, and
// cases of further errors.
func withPolicyErrors(t *testing.T) *compare.Report {
	r := goldenReport(t)
	r.PolicyErrors = []compare.PolicyError{
		{Policy: "no-v", Cases: 4, Errors: []compare.PolicyErrorGroup{{Reason: "no-v.hcl:2:53: Invalid index; The given key does not identify an element in this collection value.",
			Cases: 4, Constraint: "~> 1.0", Version: "v1.3.0-rc.1"}}},
		{Policy: "tilde", Cases: 9, OtherCases: 2, Errors: []compare.PolicyErrorGroup{
			{Reason: "tilde.hcl:3:9: Unsupported attribute; This object does not have an attribute named \"pre\".", Cases: 5, Constraint: ">= v1.0.0"},
			{Reason: "tilde.hcl:4:1: <b>Call</b> to unknown function | here", Cases: 2, Constraint: "~> 1.2", Version: "2.0.0-beta"}}},
	}
	return r
}

// TestRenderPolicyErrorsGolden renders a report with policies that
// failed on some cases in every format but JSON: each names the
// policies, their errors, how many cases gave each and the first.
func TestRenderPolicyErrorsGolden(t *testing.T) {
	r := withPolicyErrors(t)
	for f, ext := range map[render.Format]string{render.FormatText: "txt", render.FormatMarkdown: "md", render.FormatHTML: "html"} {
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := render.Render(&buf, f, r, render.Options{Options: report.Options{Hints: cliHints}}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			golden.Check(t, filepath.Join("testdata", "report-policyerrors."+ext), buf.Bytes())
			section := strings.Index(out, "Policies that failed on some cases")
			if section < 0 || section > strings.Index(out, "How each policy differs") && f != render.FormatText {
				t.Errorf("the section is missing or after the summary")
			}
			for _, want := range []string{"no-v", "failed on 4 cases", "failed on 9 cases", "Invalid index", "and 2 cases with other errors", "v1.3.0-rc.1"} {
				if !strings.Contains(out, want) {
					t.Errorf("the report has no %q", want)
				}
			}
			switch f {
			case render.FormatText:
				for _, l := range strings.Split(out, "\n") {
					if len([]rune(l)) > render.TextWidth && strings.Contains(strings.TrimSpace(l), " ") {
						t.Errorf("line wider than %d columns: %q", render.TextWidth, l)
					}
				}
			case render.FormatHTML:
				if strings.Contains(out, "<b>Call") {
					t.Error("the page has an error unescaped")
				}
				p := parseHTMLPage(t, out)
				if !p.ids["policy-errors"] || !strings.Contains(out, `href="#policy-errors"`) {
					t.Error("the section has no id the contents link to")
				}
				if !strings.Contains(p.text, "first: the constraint >= v1.0.0)") {
					t.Error("a constraint's error names the constraint alone")
				}
			}
		})
	}
	var plain bytes.Buffer
	if err := render.Render(&plain, render.FormatText, goldenReport(t), render.Options{Options: report.Options{Hints: cliHints}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "failed on") {
		t.Error("a report without policy errors has the section")
	}
}

// TestPolicyErrorsJSON checks that the JSON report holds the policies
// that failed under "policy_errors" and reads them back, and that a
// report without any has no such key.
func TestPolicyErrorsJSON(t *testing.T) {
	r := withPolicyErrors(t)
	var buf bytes.Buffer
	if err := render.Render(&buf, render.FormatJSON, r, render.Options{}); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		PolicyErrors []struct {
			Policy     string
			Cases      int
			OtherCases int `json:"other_cases"`
			Errors     []struct {
				Reason, Constraint, Version string
				Cases                       int
			}
		} `json:"policy_errors"`
	}
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.PolicyErrors) != 2 || raw.PolicyErrors[1].Policy != "tilde" || raw.PolicyErrors[1].OtherCases != 2 ||
		len(raw.PolicyErrors[1].Errors) != 2 || raw.PolicyErrors[1].Errors[0].Version != "" || raw.PolicyErrors[0].Errors[0].Version != "v1.3.0-rc.1" {
		t.Errorf("policy_errors: %+v", raw.PolicyErrors)
	}
	back, err := compare.DecodeReport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.PolicyErrors) != 2 || back.PolicyErrors[0].Errors[0] != r.PolicyErrors[0].Errors[0] {
		t.Errorf("read back: %+v", back.PolicyErrors)
	}
	buf.Reset()
	if err := render.Render(&buf, render.FormatJSON, goldenReport(t), render.Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "policy_errors") {
		t.Error("a report without policy errors has the key")
	}
}
