package sarif_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/internal/sarif"
	"github.com/prerel/prerel/internal/sarif/sarifschema"
)

var rules = []sarif.Rule{
	{ID: "stale-pin", Short: "A pin is stale.", Help: "Run `prerel pin`.", HelpURI: sarif.DocsURI + "ci.md#sarif", Level: sarif.Error},
	{ID: "read-differently", Short: "Read differently.", Help: "Make them agree.", Level: sarif.Warning},
}

func TestWriteGolden(t *testing.T) {
	l := sarif.Log{ToolVersion: "v1.2.3", Rules: rules, Results: []sarif.Result{
		{Rule: "stale-pin", Message: "module \"db\" is pinned at 1.0.0", Location: sarif.Location{File: "prerel_override.tf", Line: 6, Column: 15},
			Related: []sarif.Location{{File: "main.tf", Line: 3, Column: 13, Message: "the constraint"}}},
		{Rule: "read-differently", Level: sarif.Note, Message: "x", Location: sarif.Location{File: "modules/a/main.tofu", Line: 2}},
		{Rule: "read-differently", Message: "no place"},
	}}
	var b bytes.Buffer
	if err := sarif.Write(&b, l); err != nil {
		t.Fatal(err)
	}
	sarifschema.Check(t, b.Bytes())
	golden.Check(t, "testdata/log.sarif", b.Bytes())
}

// Every path and message, however odd, gives a valid log, each file at
// a URI that names it.
func TestWriteHostile(t *testing.T) {
	long := strings.Repeat("é", 10*sarif.MaxMessage)
	tests := []struct {
		file, uri, base string
	}{
		{"main.tf", "main.tf", sarif.SrcRoot},
		{"./a/../b/main.tf", "b/main.tf", sarif.SrcRoot},
		{"c:/x y/main.tf", "c%3A/x%20y/main.tf", sarif.SrcRoot},
		{"a#b?c%d.tf", "a%23b%3Fc%25d.tf", sarif.SrcRoot},
		{"dir/\x00\x1b[31m\xff.tf", "dir/%00%1B%5B31m%FF.tf", sarif.SrcRoot},
		{"déjà/vu.tf", "d%C3%A9j%C3%A0/vu.tf", sarif.SrcRoot},
		{"/abs/main.tf", "file:///abs/main.tf", ""},
		{"../up/main.tf", "", ""},
		{strings.Repeat("d/", 2000) + "m.tf", "", sarif.SrcRoot},
	}
	for _, tt := range tests {
		l := sarif.Log{ToolVersion: "\x00", Rules: []sarif.Rule{{ID: "r", Short: long, Help: "\x1b]8;;x\x07", Level: sarif.Error}},
			Results: []sarif.Result{{Rule: "r", Message: long + "\xff", Location: sarif.Location{File: tt.file, Line: 1 << 30, Column: 3},
				Related: []sarif.Location{{File: tt.file, Line: 2, Message: "\xff"}}}}}
		var b bytes.Buffer
		if err := sarif.Write(&b, l); err != nil {
			t.Fatal(err)
		}
		got := sarifschema.Check(t, b.Bytes()).Results()[0]
		loc := got.Locations[0].PhysicalLocation
		if tt.uri != "" && loc.ArtifactLocation.URI != tt.uri {
			t.Errorf("%q: uri %q, want %q", tt.file, loc.ArtifactLocation.URI, tt.uri)
		}
		if tt.uri == "" && tt.base == "" && !strings.HasPrefix(loc.ArtifactLocation.URI, "file:///") {
			t.Errorf("%q: uri %q, want a file URI", tt.file, loc.ArtifactLocation.URI)
		}
		if loc.ArtifactLocation.URIBaseID != tt.base {
			t.Errorf("%q: uriBaseId %q, want %q", tt.file, loc.ArtifactLocation.URIBaseID, tt.base)
		}
		if n := len(got.Message.Text); n > sarif.MaxMessage {
			t.Errorf("message of %d bytes, more than %d", n, sarif.MaxMessage)
		}
	}
}

func TestWriteRefusesUnknownRule(t *testing.T) {
	for _, l := range []sarif.Log{
		{Rules: rules, Results: []sarif.Result{{Rule: "nope", Message: "m"}}},
		{Rules: rules, Results: []sarif.Result{{Rule: "stale-pin", Level: "fatal", Message: "m"}}},
		{Rules: []sarif.Rule{{ID: ""}}},
	} {
		var b bytes.Buffer
		if err := sarif.Write(&b, l); err == nil || b.Len() > 0 {
			t.Errorf("Write(%+v) = nil error or wrote %d bytes, want an error and nothing written", l, b.Len())
		}
	}
}

func TestAddRulesOnce(t *testing.T) {
	var l sarif.Log
	l.AddRules(rules...)
	l.AddRules(rules[1], sarif.Rule{ID: "third"})
	if len(l.Rules) != 3 || l.Rules[2].ID != "third" {
		t.Errorf("rules %+v, want the two then third", l.Rules)
	}
}

// The schema check can fail: a log that breaks the schema is refused.
func TestSchemaRefusesInvalid(t *testing.T) {
	for _, bad := range []string{
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"p"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"p"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a b"},"region":{"startLine":0}}}]}]}]}`,
		`{"version":"2.0.0","runs":[]}`,
	} {
		if err := sarifschema.Validate([]byte(bad)); err == nil {
			t.Errorf("Validate(%s) = nil, want an error", bad)
		}
	}
}
