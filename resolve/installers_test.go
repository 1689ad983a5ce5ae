package resolve_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/installer/installertest"
	"github.com/prerel/prerel/terraform/registry"
)

// TestInstallersGolden resolves one configuration as three pairs of
// releases read it: the fixtures' (installertest: Terraform 1.15.9
// skips the four-part provider version, OpenTofu 1.12.6 fails the query
// on it and reads app.tofu, versions.tofu and its language block;
// versions.tf's "~> 1.15.9.0" refuses Terraform 1.15.9), Terraform
// 1.15.0 (its locked prerelease bug) with OpenTofu 1.11.0
// (required_version from every file, no language block), and Terraform
// 1.12.2 (fails the provider query; takes a literal module version only)
// with OpenTofu 1.7.0 (no .tofu files).
func TestInstallersGolden(t *testing.T) {
	for _, c := range []struct {
		name, terraform, tofu string
	}{
		{"installers-1.15.9-1.12.6", installertest.Terraform, installertest.OpenTofu},
		{"installers-1.15.0-1.11.0", "terraform@1.15.0", "tofu@1.11.0"},
		{"installers-1.12.2-1.7.0", "terraform@1.12.2", "tofu@1.7.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := installersOptions(t)
			opts.Terraform, opts.OpenTofu = installer.MustParse(c.terraform), installer.MustParse(c.tofu)
			r, err := runResolve(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := resolve.Render(&b, report.Text, r, cliOptions); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", c.name+".txt"), b.Bytes())
			if c.terraform == installertest.Terraform {
				b.Reset()
				if err := resolve.Render(&b, report.JSON, r, cliOptions); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", "golden", c.name+".json"), b.Bytes())
			}
		})
	}
}

// installersOptions resolves testdata/installers, hashicorp the extra
// policy, with no release named.
func installersOptions(t *testing.T) resolve.Options {
	t.Helper()
	dir := filepath.Join("..", "testdata", "installers")
	cfg, diags := policyconfig.LoadDir(testRegistry, dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	return resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: testRegistry, Extra: mustPolicies(t, "hashicorp")}
}

// TestInstallersWrongProduct: a release of the other product is refused.
func TestInstallersWrongProduct(t *testing.T) {
	cfg, _ := policyconfig.LoadDir(testRegistry, exampleDir)
	_, err := runResolve(context.Background(), resolve.Options{Dir: exampleDir, Config: cfg, Versions: exampleIndex(t), Policies: testRegistry,
		Terraform: installer.MustParse("tofu@1.12.6")})
	if err == nil || err.Error() != "resolve: Options.Terraform is tofu@1.12.6, not a Terraform release" {
		t.Errorf("err = %v", err)
	}
}
