package adapters

import (
	"os"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

// TestMultipart pins what the adapters answer for versions and
// constraints of more than three numeric parts: go-version (hashicorp
// and the module installers) reads them, go-versions and Masterminds
// refuse them. Terraform's module installer installs 1.2.3.4 for
// ">= 1.2.3"; its provider installer cannot read it; required_version
// "~> 1.15.9.0" refuses Terraform 1.15.9.
func TestMultipart(t *testing.T) {
	const (
		A = engine.Allow
		R = engine.Reject
		I = engine.Invalid
	)
	cases := []struct {
		constraint, version string
		hashicorp, module   engine.Verdict
		apparentlymart      engine.Verdict
		masterminds         engine.Verdict
	}{
		{">= 1.2.3", "1.2.3.4", A, A, I, I},
		{"= 1.15.9.0", "1.15.9", A, A, I, I},
		{"~> 1.15.9.0", "1.15.9", R, R, I, I},
		{"~> 1.15.9.0", "1.15.9.1", A, A, I, I},
		{">= 1.2.3.1", "1.2.4", A, A, I, I},
		// A four-part prerelease: go-versions' npm-style parser cannot
		// read it, so the module installers exclude it.
		{">= 1.2.3", "1.2.3.4-beta", R, R, I, I},
		{"1.2.3.4-beta", "1.2.3.4-beta", A, R, I, I},
	}
	for _, c := range cases {
		for _, p := range []struct {
			policy engine.Policy
			want   engine.Verdict
		}{
			{HashiCorp{}, c.hashicorp},
			{ModuleInstaller{}, c.module},
			{ModuleInstaller{OpenTofu: true}, c.module},
			{ApparentlyMart{}, c.apparentlymart},
			{Masterminds{}, c.masterminds},
		} {
			got := engine.Evaluate(p.policy, c.constraint, c.version)
			if got.Verdict != p.want {
				t.Errorf("%s: %q | %q = %v (%s), want %v", p.policy.Name(), c.constraint, c.version, got.Verdict, got.Reason, p.want)
			}
			if fast := engine.ReadVersions(p.policy, []string{c.version}); fast != nil {
				m, err := fast.Compile(c.constraint)
				var r engine.Result
				if err != nil {
					r = engine.InvalidResult(err)
				} else {
					r = m.Judge(0)
				}
				if r != got {
					t.Errorf("%s: %q | %q: table %+v, Evaluate %+v", p.policy.Name(), c.constraint, c.version, r, got)
				}
			}
		}
	}
}

// TestDocMultipartTable checks the adapters' columns of the table
// "Versions of more than three parts" of docs/policies.md.
func TestDocMultipartTable(t *testing.T) {
	data, err := os.ReadFile("../docs/policies.md")
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	rows := 0
	for n, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "|") {
			if header != nil {
				break
			}
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.Trim(strings.TrimSpace(c), "`"))
		}
		switch {
		case header == nil && cells[0] == "four-part constraint":
			header = cells
		case header == nil, strings.HasPrefix(cells[0], "---"):
		default:
			rows++
			for i, name := range header[4:] {
				p := map[string]engine.Policy{"hashicorp": HashiCorp{}, "terraform-module": ModuleInstaller{}, "apparentlymart": ApparentlyMart{}}[name]
				if p == nil {
					t.Fatalf("docs/policies.md:%d: unknown column %q", n+1, name)
				}
				if got := engine.Evaluate(p, cells[0], cells[1]).Verdict.String(); got != cells[4+i] {
					t.Errorf("docs/policies.md:%d: %s: %q | %q = %s, the page says %s", n+1, name, cells[0], cells[1], got, cells[4+i])
				}
			}
		}
	}
	if rows == 0 {
		t.Fatal("docs/policies.md: no table \"four-part constraint\"")
	}
}
