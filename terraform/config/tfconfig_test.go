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
module pinned source="app.terraform.io/corp/net/aws" expr=false version="1.0.0" has=true expr=false at testdata/basic/main.tf:20:1 version at testdata/basic/main.tf:22:13
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
	const ab = `provider "registry.terraform.io/a/b" `
	tests := []struct{ name, src, want string }{
		{"unclosed block", ab + `{`, "lock:1:38: Unclosed configuration block"},
		{"no version", ab + `{ constraints = "1" }`, `lock:1:40: Missing required argument; The argument "version" is required`},
		{"number version", ab + `{ version = 5 }`, ""}, // a number converts to a string, as Terraform's reader allows
		{"list version", ab + `{ version = ["1"] }`, "lock:1:50: Unsuitable value type"},
		{"duplicate", ab + `{ version = "1.0.0" }` + "\n" + ab + `{ version = "1.0.0" }`,
			`lock:2:1: Duplicate provider lock; The provider "registry.terraform.io/a/b" was already locked at lock:1:1.`},
		{"duplicate spelt in capitals", `provider "REG.EXAMPLE/ns/thing" { version = "1.0.0" }` + "\n" + `provider "reg.example/ns/thing" { version = "1.0.0" }`,
			"lock:1:10: Invalid provider address; A lock file names a provider by its full address, as Terraform writes it: \"reg.example/ns/thing\".\n" +
				`lock:2:1: Duplicate provider lock; The provider "reg.example/ns/thing" was already locked at lock:1:1.`},
		{"short address", `provider "a/b" { version = "1.0.0" }`,
			`lock:1:10: Invalid provider address; A lock file names a provider by its full address, as Terraform writes it: "registry.terraform.io/a/b".`},
		{"not an address", `provider "a/b/c/d/e" { version = "1.0.0" }`, `lock:1:10: Invalid provider address; provider source "a/b/c/d/e": `},
		{"unknown argument", ab + "{\n  version = \"1.0.0\"\n  platform = \"x\"\n}", `lock:3:3: Unsupported argument`},
		{"empty address", "provider \"\"{\nversion=\"\"\nA=[]\n}", `lock:1:10: Invalid provider address; provider source "": the source is empty`},
		{"unknown argument after a version", ab + "{\nversion=\"\"\nA=[]\n}", `lock:3:1: Unsupported argument`},
		{"resource block", `resource "x" "y" {}`, "lock:1:1: Unsupported block type"},
		{"module block", `module "x" {}`, "lock:1:1: warning: Module lock ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			locked, diags := ParseLockFile([]byte(tt.src), "lock")
			got := formatAll(diags)
			if diags.HasErrors() && locked != nil {
				t.Errorf("providers %v returned with errors %s", locked, got)
			}
			if tt.want == "" {
				if diags.HasErrors() || len(locked) != 1 {
					t.Errorf("%d providers, diagnostics %s", len(locked), got)
				}
				return
			}
			if len(diags) == 0 || !strings.Contains(got, tt.want) {
				t.Errorf("diagnostics %q, want %q", got, tt.want)
			}
		})
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
