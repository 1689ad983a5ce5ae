package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCoreRequirements: required_version and language { compatible_with }
// with their files, an override's required_version replacing the
// primary files'.
func TestCoreRequirements(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"versions.tf":   "terraform {\n  required_version = \">= 1.15.0\"\n}\n",
		"versions.tofu": "terraform {\n  required_version = \">= 1.10.0\"\n}\nlanguage {\n  compatible_with {\n    opentofu = \">= 1.12.0\"\n    other = \"x\"\n  }\n}\n",
		"main.tf":       "language {\n  compatible_with {\n    opentofu = \"~> 1.12.0\"\n  }\n}\n",
		"tf.tf.json":    `{"terraform": {"required_version": "< 2.0.0"}}`,
	})
	m, diags := Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got []string
	for _, r := range m.CoreRequirements {
		got = append(got, describeCore(r))
	}
	// versions.tf is left out: versions.tofu takes its place.
	want := []string{"language ~> 1.12.0 main.tf:3", "required_version < 2.0.0 tf.tf.json:1", "required_version >= 1.10.0 tofu versions.tofu:2", "language >= 1.12.0 tofu versions.tofu:6"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("as OpenTofu reads it:\n got %q\nwant %q", got, want)
	}
	tree, diags := LoadTree(dir, TreeOptions{Terraform: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got = nil
	for _, r := range tree.Nodes[0].Module.CoreRequirements {
		got = append(got, describeCore(r))
	}
	want = []string{"language ~> 1.12.0 main.tf:3", "required_version < 2.0.0 tf.tf.json:1", "required_version >= 1.15.0 versions.tf:2"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("as Terraform reads it:\n got %q\nwant %q", got, want)
	}
	if tree.Nodes[0].Module.ReadsTofuFiles() || !m.ReadsTofuFiles() {
		t.Errorf("ReadsTofuFiles: Terraform %v, OpenTofu %v", tree.Nodes[0].Module.ReadsTofuFiles(), m.ReadsTofuFiles())
	}

	over := writeFiles(t, map[string]string{
		"versions.tf":          "terraform {\n  required_version = \">= 1.0.0\"\n}\nlanguage {\n  compatible_with {\n    opentofu = \">= 1.12.0\"\n  }\n}\n",
		"versions_override.tf": "terraform {\n  required_version = \">= 1.15.9.0\"\n}\n",
	})
	m, diags = Load(over)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got = nil
	for _, r := range m.CoreRequirements {
		got = append(got, describeCore(r))
	}
	want = []string{"language >= 1.12.0 versions.tf:6", "required_version >= 1.15.9.0 override versions_override.tf:2"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("with an override:\n got %q\nwant %q", got, want)
	}
}

// TestTerraformReadsNoTofuFiles: NAME.tofu takes NAME.tf's place for
// OpenTofu only.
func TestTerraformReadsNoTofuFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.tf":   "module \"a\" {\n  source  = \"hashicorp/consul/aws\"\n  version = \"1.0.0\"\n}\n",
		"main.tofu": "module \"a\" {\n  source  = \"hashicorp/consul/aws\"\n  version = \"2.0.0\"\n}\n",
	})
	for _, c := range []struct {
		terraform bool
		want      string
	}{{false, "2.0.0"}, {true, "1.0.0"}} {
		tree, diags := LoadTree(dir, TreeOptions{Terraform: c.terraform})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if got := tree.Nodes[0].Module.ModuleCalls[0].Version; got != c.want {
			t.Errorf("Terraform %v: version %q, want %q", c.terraform, got, c.want)
		}
	}
}

func describeCore(r CoreRequirement) string {
	s := "required_version"
	if r.Language {
		s = "language"
	}
	s += " " + r.Constraint
	if r.Tofu {
		s += " tofu"
	}
	if r.Override {
		s += " override"
	}
	return s + " " + filepath.Base(r.Pos.Filename) + ":" + itoa(r.Pos.Start.Line)
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTerraformReadsNoTofuOverrides: an override file NAME_override.tofu
// is OpenTofu's alone.
func TestTerraformReadsNoTofuOverrides(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.tf":              "module \"a\" {\n  source  = \"hashicorp/consul/aws\"\n  version = \"1.0.0\"\n}\n",
		"prerel_override.tofu": "module \"a\" {\n  version = \"2.0.0-beta.1\"\n}\n",
	})
	for _, c := range []struct {
		terraform bool
		want      string
	}{{false, "2.0.0-beta.1"}, {true, "1.0.0"}} {
		tree, diags := LoadTree(dir, TreeOptions{Terraform: c.terraform})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if got := tree.Nodes[0].Module.ModuleCalls[0].Version; got != c.want {
			t.Errorf("Terraform %v: version %q, want %q", c.terraform, got, c.want)
		}
	}
}
