package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/installer/installertest"
)

// TestMain names the releases the rules take as today's, as prerel's
// scripts do, so that no test depends on the terraform or tofu this
// machine runs, nor on the newest release prerel knows.
func TestMain(m *testing.M) {
	os.Setenv(installerEnv, installertest.Env)
	os.Exit(m.Run())
}

// TestInstallers checks where the rules take today's releases from:
// PREREL_INSTALLER, else the programs on PATH and the version files,
// else the newest prerel knows.
func TestInstallers(t *testing.T) {
	tests := []struct {
		name      string
		env       string
		files     map[string]string
		tf, tofu  string
		wantError string
	}{
		{name: "named", env: "terraform@1.15.9,tofu@1.12.6", tf: "terraform@1.15.9", tofu: "tofu@1.12.6"},
		{name: "one named, the other the newest", env: "tofu@1.12.6",
			tf: installer.Newest(installer.Terraform).String(), tofu: "tofu@1.12.6"},
		{name: "newest", env: "newest",
			tf: installer.Newest(installer.Terraform).String(), tofu: installer.Newest(installer.OpenTofu).String()},
		{name: "a version file, nothing on PATH", files: map[string]string{".terraform-version": "1.15.9\n"},
			tf: "terraform@1.15.9", tofu: installer.Newest(installer.OpenTofu).String()},
		{name: "not a release", env: "terraform@one", wantError: installerEnv},
		{name: "two of a product", env: "terraform@1.15.9,terraform@1.16.4", wantError: "given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(installerEnv, tt.env)
			t.Setenv("PATH", "")
			dir := t.TempDir()
			for name, src := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rt := &root{wd: dir, dir: dir, rel: "."}
			tf, tofu, err := rt.installers()
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("installers: %v, %v, error %v; want an error naming %q", tf, tofu, err, tt.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tf.String() != tt.tf || tofu.String() != tt.tofu {
				t.Errorf("installers: %s and %s, want %s and %s", tf, tofu, tt.tf, tt.tofu)
			}
		})
	}
}
