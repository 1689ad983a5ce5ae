package policyconfig_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/prerel/prerel/internal/bounded"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/resolve/policyconfig"
)

func TestParseRefusesDeepNesting(t *testing.T) {
	const n = 100000
	tests := []struct{ name, src, want string }{
		{"tuples", "default_policy = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
			"prerel.hcl:1:18: Expressions nested deeper than 1000 levels;"},
		{"parentheses", "module \"a\" {\n  policy = " + strings.Repeat("(", n) + "\"strict\"" + strings.Repeat(")", n) + "\n}\n",
			"prerel.hcl:2:12: Expressions nested deeper than 1000 levels;"},
		{"templates", "default_policy = \"" + strings.Repeat("${\"", n) + strings.Repeat("\"}", n) + "\"\n",
			"prerel.hcl:1:18: Expressions nested deeper than 1000 levels;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bounded.Run(t, func() {
				cfg, diags := policyconfig.Parse(testRegistry(t), []byte(tt.src), "prerel.hcl")
				got := lines(diags)
				if cfg != nil || len(got) != 1 || !strings.HasPrefix(got[0], tt.want) {
					t.Errorf("diagnostics %q, want one starting %q", got, tt.want)
				}
			})
		})
	}
}

func TestLoadFilesThatAreNotRegular(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		kind  string
	}{
		{"FIFO", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skip("mkfifo:", err)
			}
		}, "a FIFO or pipe"},
		{"symbolic link to /dev/zero", func(t *testing.T, path string) {
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		}, "a character device"},
		{"directory", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, policyconfig.DefaultFile)
			tt.setup(t, path)
			bounded.Run(t, func() {
				// Found in the root module: skipped with a warning.
				cfg, diags := policyconfig.LoadDir(testRegistry(t), dir)
				want := path + ": warning: Skipped the policy configuration; It is not a regular file (it is " + tt.kind + "), so it is not read."
				if cfg == nil || len(diags) != 1 || diag.Format(diags[0]) != want {
					t.Fatalf("LoadDir: config %v, diagnostics %q, want %q", cfg, lines(diags), want)
				}
				if w := cfg.Warnings(); len(w) != 1 || diag.Format(w[0]) != want {
					t.Errorf("Warnings() = %q", lines(w))
				}
				if cfg.Default().Policy.Name() != policyconfig.FallbackPolicy || cfg.File() != "" {
					t.Errorf("default %s from %q", cfg.Default().Policy.Name(), cfg.File())
				}
				// Named: refused.
				cfg, diags = policyconfig.Load(testRegistry(t), path)
				want = path + ": Cannot read the policy configuration; It is not a regular file (it is " + tt.kind + ")."
				if cfg != nil || len(diags) != 1 || diag.Format(diags[0]) != want {
					t.Errorf("Load: config %v, diagnostics %q, want %q", cfg, lines(diags), want)
				}
			})
		})
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	cfg, diags := policyconfig.LoadDir(testRegistry(t), dir)
	if cfg == nil || len(diags) != 0 || cfg.File() != "" {
		t.Fatalf("no file: %v, %q", cfg, lines(diags))
	}
	path := filepath.Join(dir, policyconfig.DefaultFile)
	if err := os.WriteFile(path, []byte("default_policy = \"cargo\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags = policyconfig.LoadDir(testRegistry(t), dir)
	if cfg == nil || len(diags) != 0 || cfg.File() != path || cfg.Default().Policy.Name() != "cargo" {
		t.Fatalf("a file: %v, %q", cfg, lines(diags))
	}
	if err := os.WriteFile(path, []byte("# "+strings.Repeat("x", safefile.ConfigLimit)), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags = policyconfig.LoadDir(testRegistry(t), dir)
	want := path + ": Cannot read the policy configuration; It is larger than 2 MiB, the limit for a configuration file."
	if cfg != nil || len(diags) != 1 || diag.Format(diags[0]) != want {
		t.Errorf("a large file: %v, %q", cfg, lines(diags))
	}
}
