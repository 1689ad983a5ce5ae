package installer_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/prerel/prerel/terraform/installer"
)

// TestTodayName names at most one release of each product, and a
// release Parse refuses with its reason alone.
func TestTodayName(t *testing.T) {
	tests := []struct {
		names   []string
		want    string // Today.String, or the error of the last name
		wantErr bool
	}{
		{[]string{"terraform@1.10.0"}, "terraform@1.10.0", false},
		{[]string{"tofu@1.9.0", "terraform@1.10.0"}, "terraform@1.10.0 tofu@1.9.0", false},
		{[]string{"terraform@1.10.0", "terraform@1.11.0"}, "Terraform given twice: terraform@1.10.0 and terraform@1.11.0", true},
		{[]string{"tofu@1.2"}, "the version is not a release version MAJOR.MINOR.PATCH", true},
	}
	for _, tt := range tests {
		var today installer.Today
		var err error
		for _, n := range tt.names {
			if err = today.Name(n); err != nil {
				break
			}
		}
		got := today.String()
		if tt.wantErr {
			if err == nil {
				t.Fatalf("%q: no error", tt.names)
			}
			got = err.Error()
		} else if err != nil {
			t.Fatalf("%q: %v", tt.names, err)
		}
		if got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.names, got, tt.want)
		}
	}
}

// TestTodayFill fills only the products not named, reports whether the
// list is set, and defaults to the newest releases.
func TestTodayFill(t *testing.T) {
	newest := installer.Newest(installer.Terraform).Display() + " and " + installer.Newest(installer.OpenTofu).Display()
	tests := []struct {
		named, list string
		set         bool
		names       string
		err         string
	}{
		{"", "", false, newest, ""},
		{"", " newest ", true, newest, ""},
		{"", "terraform@1.10.0,tofu@1.9.0", true, "Terraform 1.10.0 and OpenTofu 1.9.0", ""},
		{"terraform@1.11.0", "terraform@1.10.0,tofu@1.9.0", true, "Terraform 1.11.0 and OpenTofu 1.9.0", ""},
		{"", "terraform@1.10.0,terraform@1.11.0", true, "", "Terraform given twice: terraform@1.10.0 and terraform@1.11.0"},
	}
	for _, tt := range tests {
		var today installer.Today
		if tt.named != "" {
			if err := today.Name(tt.named); err != nil {
				t.Fatal(err)
			}
		}
		set, err := today.Fill(tt.list)
		if set != tt.set {
			t.Errorf("%q: set %v, want %v", tt.list, set, tt.set)
		}
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: error %v, want %q", tt.list, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.list, err)
		}
		if got := today.Names(); got != tt.names {
			t.Errorf("%q: got %q, want %q", tt.list, got, tt.names)
		}
	}
}

// TestTodayDetect keeps a named release, takes a found one with where it
// came from, and leaves a product found nowhere unnamed.
func TestTodayDetect(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".opentofu-version"), []byte("1.9.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	today := installer.Today{Terraform: installer.MustParse("terraform@1.11.0")}
	none := func(string) (string, error) { return "", exec.ErrNotFound }
	today.Detect(context.Background(), dir, installer.DetectOptions{LookPath: none})
	if got, want := today.String(), "terraform@1.11.0 tofu@1.9.0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if today.TerraformFrom != "" || today.OpenTofuFrom == "" {
		t.Errorf("from: %q, %q", today.TerraformFrom, today.OpenTofuFrom)
	}
	var nothing installer.Today
	nothing.Detect(context.Background(), t.TempDir(), installer.DetectOptions{LookPath: none})
	if !nothing.Terraform.IsZero() || !nothing.OpenTofu.IsZero() {
		t.Errorf("found nowhere, yet named: %q", nothing.String())
	}
}

// TestLookPathIn finds only executable regular files, in the
// directories of the PATH value given.
func TestLookPathIn(t *testing.T) {
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{"tofu": 0o755, "terraform": 0o644} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "tflint"), 0o755); err != nil {
		t.Fatal(err)
	}
	look := installer.LookPathIn(string(filepath.ListSeparator) + dir)
	if p, err := look("tofu"); err != nil || p != filepath.Join(dir, "tofu") {
		t.Errorf("tofu: %q, %v", p, err)
	}
	for _, name := range []string{"terraform", "tflint", "missing"} {
		if _, err := look(name); !errors.Is(err, exec.ErrNotFound) {
			t.Errorf("%s: %v, want not found", name, err)
		}
	}
	if _, err := installer.LookPathIn("")("tofu"); !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("empty PATH: %v", err)
	}
}
