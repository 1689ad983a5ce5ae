package resolve_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/registry"
)

// TestWant selects the version a module call wants whatever its policy
// selects, as the registry lists it; a version the registry does not list
// leaves none, with the closest listed one.
func TestWant(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf": `module "db" {
  source  = "corp/db/aws"
  version = "~> 2.0"
}
`,
		"index.json": `{"modules": {"corp/db/aws": ` + moduleBody("1.0.0", "1.5.0", "v2.0.0-beta.1", "2.0.0-beta.3") + `}}`,
	})
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		want, selected, problem string
	}{
		{"2.0.0-beta.3", "2.0.0-beta.3", ""},
		{"2.0.0-beta.1", "v2.0.0-beta.1", ""},
		{"1.0.0", "1.0.0", ""},
		{"2.0.0-beta3", "", `the version wanted (--want db=2.0.0-beta3), 2.0.0-beta3, is not among the 4 versions the registry lists for module corp/db/aws; did you mean 2.0.0-beta.3?`},
	} {
		t.Run(tt.want, func(t *testing.T) {
			cfg, err := policyconfig.New(testRegistry)
			if err != nil {
				t.Fatal(err)
			}
			cfg.SetModule("db", "cargo", policyconfig.FlagOrigin("--module-policy db=cargo"))
			if diags := cfg.SetModuleWant("db", tt.want, policyconfig.FlagOrigin("--want db="+tt.want)); diags.HasErrors() {
				t.Fatal(diags)
			}
			r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: testRegistry})
			if err != nil {
				t.Fatal(err)
			}
			it := r.Items[0]
			if it.Wanted == nil || it.Wanted.Version != tt.want || cell(it.Selected) != cell(ptr(tt.selected)) || it.Problem != tt.problem {
				t.Errorf("wanted %+v, selected %s, problem %q; want %s, problem %q", it.Wanted, cell(it.Selected), it.Problem, tt.selected, tt.problem)
			}
			if tt.selected != "" && !it.Changed() {
				t.Errorf("a wanted %s is not a change from today's none", tt.selected)
			}
			var b strings.Builder
			if err := resolve.Render(&b, report.Text, r, cliOptions); err != nil {
				t.Fatal(err)
			}
			if want := "(wanted)"; !strings.Contains(b.String(), want) {
				t.Errorf("the text report does not say the version is wanted:\n%s", b.String())
			}
		})
	}
}

func ptr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
