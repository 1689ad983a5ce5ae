package installer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/terraform/installer"
)

// TestTodaySettle checks the order of today's sources: the releases
// named, then PREREL_INSTALLER, then those the user runs in the
// directory.
func TestTodaySettle(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".terraform-version"), []byte("1.10.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		named  []string
		env    string
		want   string // Today.String, or the error
		errors bool
	}{
		{name: "both named", named: []string{"terraform@1.11.0", "tofu@1.9.0"}, env: "nonsense", want: "terraform@1.11.0 tofu@1.9.0"},
		{name: "from the environment", named: []string{"tofu@1.9.0"}, env: "terraform@1.12.0,tofu@1.10.0", want: "terraform@1.12.0 tofu@1.9.0"},
		{name: "newest", env: "newest", want: ""},
		{name: "a bad variable", env: "terraform@1.2", want: installer.Env + ": ", errors: true},
		{name: "detected", named: []string{"tofu@1.9.0"}, want: "terraform@1.10.0 tofu@1.9.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var today installer.Today
			for _, n := range tt.named {
				if err := today.Name(n); err != nil {
					t.Fatal(err)
				}
			}
			getenv := func(k string) string {
				if k == installer.Env {
					return tt.env
				}
				return "" // no PATH: nothing on it
			}
			notes, err := today.Settle(context.Background(), dir, getenv)
			got := today.String()
			if err != nil {
				got = err.Error()
			}
			if (err != nil) != tt.errors || !strings.HasPrefix(got, tt.want) || !tt.errors && got != tt.want {
				t.Errorf("%q, notes %q; want %q", got, notes, tt.want)
			}
		})
	}
}
