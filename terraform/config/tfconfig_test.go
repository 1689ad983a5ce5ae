package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/internal/diag"
)

// summary renders what Load read, one line per call and provider.
func summary(m *Module) string {
	var b strings.Builder
	for _, c := range m.ModuleCalls {
		fmt.Fprintf(&b, "module %s source=%q expr=%v version=%q has=%v expr=%v at %s version at %s\n",
			c.Name, c.Source, c.SourceExpr, c.Version, c.HasVersion, c.VersionExpr, diag.FormatRange(c.Pos), diag.FormatRange(c.VersionPos))
	}
	for _, p := range m.Providers {
		fmt.Fprintf(&b, "provider %s source=%q constraint=%q expr=%q implied=%v at %s\n",
			p.LocalName, p.Source, p.Constraint(), p.Expr, p.Implied, diag.FormatRange(p.Pos))
	}
	return b.String()
}

func TestLoad(t *testing.T) {
	tests := []struct {
		dir   string
		want  string
		files []string
		diags []string // each contained in one diagnostic, in order
	}{
		{
			dir: "basic",
			want: `module local source="./modules/local" expr=false version="" has=false expr=false at testdata/basic/main.tf:16:1 version at testdata/basic/main.tf:16:1
module pinned source="app.terraform.io/corp/net/aws" expr=false version="var.net_version" has=true expr=true at testdata/basic/main.tf:20:1 version at testdata/basic/main.tf:22:13
module vpc source="terraform-aws-modules/vpc/aws" expr=false version="~> 5.2" has=true expr=false at testdata/basic/main.tf:11:1 version at testdata/basic/vpc_override.tf:2:13
provider aws source="hashicorp/aws" constraint=">= 5.0.0, < 6.0.0" expr="" implied=false at testdata/basic/main.tf:3:5
provider legacy source="" constraint="~> 1.0" expr="" implied=false at testdata/basic/main.tf:7:5
provider random source="" constraint="" expr="" implied=true at 
`,
			files: []string{"testdata/basic/main.tf", "testdata/basic/versions.tf", "testdata/basic/vpc_override.tf"},
		},
		{
			dir: "tofu",
			want: `module a source="corp/a/aws" expr=false version="2.0.0-beta.1" has=true expr=false at testdata/tofu/main.tofu:1:1 version at testdata/tofu/main.tofu:3:13
module b source="corp/b/aws" expr=false version=">= 1.0" has=true expr=false at testdata/tofu/extra.tofu.json:1:18 version at testdata/tofu/extra.tofu.json:1:54
`,
			files: []string{"testdata/tofu/extra.tofu.json", "testdata/tofu/main.tofu"},
		},
		{
			dir: "errors",
			diags: []string{
				"testdata/errors/main.tf:3:13: Invalid expression; Expected the start of an expression",
			},
		},
		{
			dir: "dup",
			diags: []string{
				`testdata/dup/other.tf:1:1: Duplicate module call; A module call named "a" was already declared at testdata/dup/main.tf:1:1`,
				`testdata/dup/other.tf:5:1: Missing required argument; The module call "nosource" has no source argument.`,
			},
		},
		{dir: "empty", diags: []string{"No configuration files; testdata/empty has no .tf, .tf.json, .tofu or .tofu.json files"}},
		{dir: "missing", diags: []string{"Cannot read the module directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			m, diags := Load(filepath.Join("testdata", tt.dir))
			if tt.diags == nil {
				if len(diags) > 0 {
					t.Fatalf("diagnostics:\n%s", formatAll(diags))
				}
				if got := summary(m); got != tt.want {
					t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
				}
				if strings.Join(m.Files, ",") != strings.Join(tt.files, ",") {
					t.Errorf("files %q, want %q", m.Files, tt.files)
				}
				return
			}
			if !diags.HasErrors() || len(diags) != len(tt.diags) {
				t.Fatalf("diagnostics:\n%s\nwant %d containing %q", formatAll(diags), len(tt.diags), tt.diags)
			}
			for i, want := range tt.diags {
				if got := diag.Format(diags[i]); !strings.Contains(got, want) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, got, want)
				}
			}
		})
	}
}

func TestParseLockFile(t *testing.T) {
	src := `# This file is maintained automatically by "terraform init".
provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.31.0"
  constraints = ">= 5.0.0, < 6.0.0"
  hashes = [
    "h1:abc=",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.0"
}
`
	got, diags := ParseLockFile([]byte(src), ".terraform.lock.hcl")
	if len(diags) != 0 {
		t.Fatal(formatAll(diags))
	}
	var lines []string
	for _, lp := range got {
		lines = append(lines, fmt.Sprintf("%s %s %q at %s", lp.Address, lp.Version, lp.Constraints, diag.FormatRange(lp.Pos)))
	}
	want := []string{
		`registry.terraform.io/hashicorp/aws 5.31.0 ">= 5.0.0, < 6.0.0" at .terraform.lock.hcl:2:1`,
		`registry.terraform.io/hashicorp/random 3.6.0 "" at .terraform.lock.hcl:10:1`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseLockFileErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`provider "a/b" {`, "lock:1:16: Unclosed configuration block"},
		{`provider "a/b" { constraints = "1" }`, `lock:1:18: Missing required argument; The argument "version" is required`},
		{`provider "a/b" { version = 5 }`, ""}, // a number converts to a string, as Terraform's reader allows
		{`provider "a/b" { version = ["1"] }`, "lock:1:28: Unsuitable value type"},
		{`provider "a/b" { version = "1.0.0" }` + "\n" + `provider "a/b" { version = "1.0.0" }`, `lock:2:1: Duplicate provider lock; The provider "a/b" was already locked at lock:1:1.`},
		{"provider \"a/b\" {\n  version = \"1.0.0\"\n  platform = \"x\"\n}", `lock:3:3: Unsupported argument`},
		{`resource "x" "y" {}`, "lock:1:1: Unsupported block type"},
		{`module "x" {}`, "lock:1:1: warning: Module lock ignored"},
	}
	for _, tt := range tests {
		_, diags := ParseLockFile([]byte(tt.src), "lock")
		got := formatAll(diags)
		if tt.want == "" {
			if diags.HasErrors() {
				t.Errorf("%q: %s", tt.src, got)
			}
			continue
		}
		if len(diags) == 0 || !strings.Contains(got, tt.want) {
			t.Errorf("%q: diagnostics %q, want %q", tt.src, got, tt.want)
		}
	}
	_, diags := LoadLockFile("testdata/none.hcl")
	if !diags.HasErrors() || !strings.HasPrefix(formatAll(diags), "testdata/none.hcl: Cannot read the lock file; ") {
		t.Errorf("missing lock file: %q", formatAll(diags))
	}
}

// formatAll returns the diagnostics one a line, as diag.Format
// prints them.
func formatAll(diags hcl.Diagnostics) string {
	lines := make([]string, len(diags))
	for i, d := range diags {
		lines[i] = diag.Format(d)
	}
	return strings.Join(lines, "\n")
}
