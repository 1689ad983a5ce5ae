package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/gate"
)

func load(t *testing.T, inst gate.Installer, hcl string) *gate.Gate {
	t.Helper()
	dir := t.TempDir()
	if hcl != "" {
		if err := os.WriteFile(filepath.Join(dir, "prerel.hcl"), []byte(hcl), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := gate.Load(dir, inst)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

const listed = "1.0.0 1.1.0 2.0.0-beta.1 2.0.0-beta.2"

// TestRules: who decides (nil is the installer's own code) and what the
// gate selects and admits.
func TestRules(t *testing.T) {
	const cfg = `default_policy = "opentofu-module"

module "app.net" {
  policy = "cargo"
}

module "db" {
  want = "2.0.0-beta.1"
}

module "tf" {
  policy = "terraform-module"
}

provider "corp/thing" {
  policy = "linear"
}

provider "hashicorp/aws" {
  policy = "apparentlymart"
}

provider "hashicorp/google" {
  policy = "cargo"
}
`
	tests := []struct {
		name       string
		inst       gate.Installer
		hcl        string
		module     string // call path, or "" for a provider
		provider   string
		constraint string
		policy     string // "" for the installer's own code
		selects    string // "none" for none
		admits     []string
		refuses    []string
	}{
		{name: "no prerel.hcl", inst: gate.OpenTofu, module: "app.net"},
		{name: "no prerel.hcl, provider", inst: gate.OpenTofu, provider: "corp/thing"},
		{name: "chosen module", inst: gate.OpenTofu, hcl: cfg, module: "app.net", constraint: "~> 2.0.0-beta.1",
			policy: "cargo", selects: "2.0.0-beta.2", admits: []string{"2.0.0-beta.1", "2.0.0-beta.2"}, refuses: []string{"1.1.0", "3.0.0-beta.1"}},
		{name: "chosen module, release range", inst: gate.OpenTofu, hcl: cfg, module: "app.net", constraint: "~> 1.0",
			policy: "cargo", selects: "1.1.0", admits: []string{"1.0.0"}, refuses: []string{"2.0.0-beta.1"}},
		{name: "chosen module, constraint refused", inst: gate.OpenTofu, hcl: cfg, module: "app.net", constraint: "~> x",
			policy: "cargo", selects: "none", refuses: []string{"1.0.0"}},
		{name: "today's rule by default", inst: gate.OpenTofu, hcl: cfg, module: "other"},
		{name: "the child's call is its own", inst: gate.OpenTofu, hcl: cfg, module: "app"},
		{name: "want", inst: gate.OpenTofu, hcl: cfg, module: "db", constraint: "~> 1.0",
			policy: "opentofu-module", selects: "2.0.0-beta.1", admits: []string{"2.0.0-beta.1"}, refuses: []string{"1.1.0"}},
		{name: "Terraform's rule in OpenTofu is not today's", inst: gate.OpenTofu, hcl: cfg, module: "tf", constraint: "~> 1.0",
			policy: "terraform-module", selects: "1.1.0"},
		{name: "Terraform's rule in Terraform", inst: gate.Terraform, hcl: cfg, module: "tf"},
		{name: "OpenTofu's rule in Terraform is not today's", inst: gate.Terraform, hcl: cfg, module: "other", constraint: "~> 1.0",
			policy: "opentofu-module", selects: "1.1.0"},
		{name: "provider", inst: gate.OpenTofu, hcl: cfg, provider: "registry.opentofu.org/corp/thing", constraint: ">= 1.1.0",
			policy: "linear", selects: "2.0.0-beta.2", admits: []string{"2.0.0-beta.1"}, refuses: []string{"1.0.0"}},
		{name: "provider's today rule", inst: gate.OpenTofu, hcl: cfg, provider: "registry.opentofu.org/hashicorp/aws"},
		{name: "prerel's default host names OpenTofu's", inst: gate.OpenTofu, hcl: cfg, provider: "registry.opentofu.org/hashicorp/google",
			constraint: "~> 2.0.0-beta.1", policy: "cargo", selects: "2.0.0-beta.2"},
		{name: "Terraform's host", inst: gate.Terraform, hcl: cfg, provider: "registry.terraform.io/hashicorp/google",
			constraint: "~> 2.0.0-beta.1", policy: "cargo", selects: "2.0.0-beta.2"},
		{name: "OpenTofu's host is not Terraform's", inst: gate.Terraform, hcl: cfg, provider: "registry.opentofu.org/hashicorp/google",
			constraint: "~> 1.0", policy: "opentofu-module", selects: "1.1.0"},
		{name: "unreadable provider address", inst: gate.OpenTofu, hcl: cfg, provider: "a/b/c/d"},
		{name: "strict without default_policy", inst: gate.OpenTofu, hcl: "module \"x\" {\n  policy = \"cargo\"\n}\n", module: "y",
			constraint: ">= 2.0.0-beta.1", policy: "strict", selects: "none", refuses: []string{"2.0.0-beta.2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := load(t, tt.inst, tt.hcl)
			var r *gate.Rule
			if tt.module != "" {
				r = g.Module(tt.module)
			} else {
				r = g.Provider(tt.provider)
			}
			if tt.policy == "" {
				if r != nil {
					t.Fatalf("rule %v, want the installer's own code (nil)", r)
				}
				return
			}
			if r == nil || r.Policy() != tt.policy {
				t.Fatalf("rule %v, want policy %q", r, tt.policy)
			}
			got, ok := r.Select(tt.constraint, strings.Fields(listed))
			if !ok {
				got = "none"
				if why := r.Why(tt.constraint, strings.Fields(listed)); why == "" {
					t.Error("Why is empty")
				}
			}
			if got != tt.selects {
				t.Errorf("Select(%q) = %s, want %s", tt.constraint, got, tt.selects)
			}
			for _, v := range tt.admits {
				if !r.Admits(tt.constraint, v) {
					t.Errorf("Admits(%q, %s) = false", tt.constraint, v)
				}
			}
			for _, v := range tt.refuses {
				if r.Admits(tt.constraint, v) {
					t.Errorf("Admits(%q, %s) = true", tt.constraint, v)
				}
			}
		})
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name, hcl string
		inst      gate.Installer
		err       string // "" for none
		none      bool   // a nil Gate
	}{
		{name: "no file", inst: gate.OpenTofu, none: true},
		{name: "empty file", hcl: "\n", inst: gate.OpenTofu},
		{name: "unknown policy", hcl: "default_policy = \"nope\"\n", inst: gate.OpenTofu, err: `prerel.hcl:1,18-24: Unknown policy "nope"`},
		{name: "syntax", hcl: "module {", inst: gate.OpenTofu, err: "prerel.hcl:1"},
		{name: "unknown installer", hcl: "\n", inst: "pulumi", err: `unknown installer "pulumi"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.hcl != "" {
				os.WriteFile(filepath.Join(dir, "prerel.hcl"), []byte(tt.hcl), 0o644)
			}
			g, err := gate.Load(dir, tt.inst)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
			case err != nil:
				t.Fatal(err)
			case tt.none != (g == nil):
				t.Fatalf("gate %v, want nil: %v", g, tt.none)
			case g != nil && g.File() != filepath.Join(dir, "prerel.hcl"):
				t.Errorf("File() = %q", g.File())
			}
		})
	}
}

// A nil Gate is no prerel.hcl.
func TestNilGate(t *testing.T) {
	var g *gate.Gate
	if g.Module("a") != nil || g.Provider("hashicorp/aws") != nil || g.File() != "" {
		t.Error("a nil Gate answered")
	}
}
