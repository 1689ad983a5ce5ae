package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
)

// TestJSONWritesConstraintsAsTheyAre checks every command's JSON for "~>",
// "<" and ">" written as they are, not as \u003c and the like.
func TestJSONWritesConstraintsAsTheyAre(t *testing.T) {
	const constraint = "~> 1.0.0-beta, < 1.0.0"
	cases := writeCases(t, constraint+"\t1.0.0-rc.1\n")
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"check", "", []string{"check", "--format", "json", constraint, "1.0.0-rc.1"}, constraint},
		{"select", "", []string{"select", "--format", "json", constraint, "1.0.0-rc.1"}, constraint},
		{"explain", "", []string{"explain", "--policy", "cargo", "--format", "json", constraint, "1.0.0-rc.1"}, constraint},
		{"eval", constraint + "\t1.0.0-rc.1\n", []string{"eval", "--format", "json"}, constraint},
		{"compare", "", []string{"compare", "--policies", "strict,cargo", "--domain", cases, "--format", "json"}, constraint},
		{"resolve", "", []string{"resolve", "--index", resolveIndex, "--lock-file", "-", "--format", "json", resolveExample}, "~> 1.2.0-rc1"},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, tt.stdin, tt.args...)
		if code != exitOK {
			t.Errorf("%s: exit %d: %s", tt.name, code, stderr)
			continue
		}
		if !strings.Contains(out, tt.want) {
			t.Errorf("%s: JSON lacks %q:\n%s", tt.name, tt.want, out)
		}
		for _, escaped := range []string{`\u003c`, `\u003e`, `\u0026`} {
			if strings.Contains(out, escaped) {
				t.Errorf("%s: JSON escapes HTML (%s):\n%s", tt.name, escaped, out)
			}
		}
		if !json.Valid([]byte(out)) {
			t.Errorf("%s: not one JSON value:\n%s", tt.name, out)
		}
	}
}

// TestJSONSchemas checks the schema of each report and that every key is
// snake_case, unreadable versions included.
func TestJSONSchemas(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		schema int
	}{
		{"check", []string{"check", "--format", "json", ">= 1", "1.0.0"}, report.CheckSchema},
		{"select", []string{"select", "--format", "json", ">= 1", "1.0.0"}, report.SelectSchema},
		{"explain", []string{"explain", "--format", "json", "--policy", "strict", ">= 1", "1.0.0"}, report.ExplainSchema},
		{"resolve", []string{"resolve", "--format", "json", "--index", resolveIndex, "--lock-file", "-", resolveExample}, resolve.SchemaVersion},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, "", tt.args...)
		var got struct {
			Schema int `json:"schema"`
		}
		if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil || got.Schema != tt.schema {
			t.Errorf("%s: exit %d (%s), %v, schema %d; want %d", tt.name, code, stderr, err, got.Schema, tt.schema)
		}
		if !strings.HasPrefix(out, "{\n  \"schema\": ") {
			t.Errorf("%s: schema is not the first key:\n%s", tt.name, out)
		}
	}
}

func TestSelectJSONUnreadableKeys(t *testing.T) {
	file := writeCases(t, "1.0.0\nnot-a-version\n")
	code, out, stderr := runCLI(t, "", "select", "--format", "json", "--policies", "strict", "--versions-file", file, ">= 1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got report.SelectReport
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Policies) != 1 || len(got.Policies[0].Unreadable) != 1 {
		t.Fatalf("unexpected report:\n%s", out)
	}
	if !strings.Contains(out, `"version": "not-a-version"`) || !strings.Contains(out, `"reason": "version \"not-a-version\"`) {
		t.Errorf("unreadable versions are not snake_case:\n%s", out)
	}
}
