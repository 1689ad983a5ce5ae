package installer_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/terraform/installer"
)

// TestDetect finds today's releases on PATH, then in version files, then
// falls back to the newest prerel knows, saying where each came from.
func TestDetect(t *testing.T) {
	newestTF, newestTofu := installer.Newest(installer.Terraform), installer.Newest(installer.OpenTofu)
	tests := []struct {
		name     string
		path     map[string]string // program: its version -json output, "!" for a failure
		files    map[string]string // file under the top directory: content
		tf, tofu string            // release, then " from ", where
		note     string
	}{
		{"nothing", nil, nil, newestTF.String() + " from " + installer.FromNewest, newestTofu.String() + " from " + installer.FromNewest, ""},
		{"both on PATH", map[string]string{"terraform": `{"terraform_version": "1.11.4"}`, "tofu": "\nWarning: Unable to open CLI configuration file\n\n{\"terraform_version\": \"1.12.6-dev\"}\n\nThere are some problems with the CLI configuration:\n"}, nil,
			"terraform@1.11.4 from terraform on PATH", "tofu@1.12.6 from tofu on PATH", `reports "1.12.6-dev", a build of tofu@1.12.6`},
		{"PATH before the file", map[string]string{"terraform": `{"terraform_version": "1.11.4"}`}, map[string]string{".terraform-version": "1.10.0\n"},
			"terraform@1.11.4 from terraform on PATH", newestTofu.String() + " from " + installer.FromNewest, ""},
		{"version files above", nil, map[string]string{".terraform-version": "1.10.0\n", ".opentofu-version": "v1.9.1"},
			"terraform@1.10.0 from .terraform-version in TOP", "tofu@1.9.1 from .opentofu-version in TOP", ""},
		{"a file that is not exact", nil, map[string]string{".terraform-version": "latest:^1.5\n"},
			newestTF.String() + " from " + installer.FromNewest, newestTofu.String() + " from " + installer.FromNewest, `names "latest:^1.5", not an exact version`},
		{"newer than prerel knows", map[string]string{"terraform": `{"terraform_version": "9.0.0"}`}, nil,
			newestTF.String() + " from terraform on PATH", newestTofu.String() + " from " + installer.FromNewest, "newer than prerel knows"},
		{"a failing program", map[string]string{"terraform": "!"}, nil,
			newestTF.String() + " from " + installer.FromNewest, newestTofu.String() + " from " + installer.FromNewest, "terraform version -json (/bin/terraform) failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			for name, content := range tt.files {
				if err := os.WriteFile(filepath.Join(top, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			dir := filepath.Join(top, "envs", "prod")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			opts := installer.DetectOptions{
				LookPath: func(name string) (string, error) {
					if _, ok := tt.path[name]; ok {
						return "/bin/" + name, nil
					}
					return "", exec.ErrNotFound
				},
				Version: func(_ context.Context, path string) ([]byte, error) {
					out := tt.path[filepath.Base(path)]
					if out == "!" {
						return nil, errors.New("exit status 1")
					}
					return []byte(out), nil
				},
			}
			tf, tofu, notes := installer.Detect(context.Background(), dir, opts)
			got := func(f installer.Found) string {
				return f.Release.String() + " from " + strings.ReplaceAll(f.From, top, "TOP")
			}
			if got(tf) != tt.tf || got(tofu) != tt.tofu {
				t.Errorf("found %q and %q, want %q and %q", got(tf), got(tofu), tt.tf, tt.tofu)
			}
			if all := strings.Join(notes, "\n"); tt.note != "" && !strings.Contains(all, tt.note) || tt.note == "" && all != "" {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
		})
	}
}

// TestDetectRealPrograms asks the terraform and tofu on PATH, when there
// are any, and finds the release each reports.
func TestDetectRealPrograms(t *testing.T) {
	tf, tofu, notes := installer.Detect(context.Background(), t.TempDir(), installer.DetectOptions{})
	for _, f := range []installer.Found{tf, tofu} {
		name := map[installer.Product]string{installer.Terraform: "terraform", installer.OpenTofu: "tofu"}[f.Release.Product]
		if _, err := exec.LookPath(name); err == nil && f.From != name+" on PATH" {
			t.Errorf("%s is on PATH, but the release came from %q (notes %q)", name, f.From, notes)
		}
	}
}
