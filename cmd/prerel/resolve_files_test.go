package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/prerel/prerel/internal/bounded"
	"github.com/prerel/prerel/internal/longtest"
)

// resolveWithin runs prerel resolve on dir with the example index and
// the extra arguments, failing the test when it takes more than a few
// seconds: no input may hang it.
func resolveWithin(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var code int
	var stdout, stderr string
	bounded.Run(t, func() {
		code, stdout, stderr = runCLI(t, "", append(append([]string{"resolve", "--index", resolveIndex}, args...), dir)...)
	})
	return code, stdout, stderr
}

const resolveCall = "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"1.0.0\"\n}\n"

func TestResolveRefusesDeepNesting(t *testing.T) {
	// Ten times the bound every day, a hundred in the long run.
	n := longtest.Pick(10000, 100000)
	tests := []struct{ name, file, src, want string }{
		{"main.tf", "main.tf", "locals {\n x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n}\n",
			"main.tf:2:6: Expressions nested deeper than 1000 levels"},
		{"main.tf.json", "main.tf.json", strings.Repeat("[", 10*n) + strings.Repeat("]", 10*n),
			"main.tf.json:1:1001: Expressions nested deeper than 1000 levels"},
		{"prerel.hcl", "prerel.hcl", "default_policy = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
			"prerel.hcl:1:18: Expressions nested deeper than 1000 levels"},
		{"lock file", ".terraform.lock.hcl", "provider \"registry.terraform.io/a/b\" {\n  version = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n}\n",
			".terraform.lock.hcl:2:13: Expressions nested deeper than 1000 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"calls.tf": resolveCall, tt.file: tt.src})
			code, _, stderr := resolveWithin(t, dir)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, filepath.Join(dir, tt.want)) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and one line with %s", code, stderr, exitUsage, tt.want)
			}
		})
	}
}

func TestResolveSkipsSpecialFilesFoundInTheDirectory(t *testing.T) {
	for _, name := range []string{"main.tf", "prerel.hcl", ".terraform.lock.hcl"} {
		for _, kind := range []string{"FIFO", "/dev/zero"} {
			t.Run(name+" "+kind, func(t *testing.T) {
				dir := t.TempDir()
				writeFiles(t, dir, map[string]string{"calls.tf": resolveCall})
				path := filepath.Join(dir, name)
				special(t, kind, path)
				code, stdout, stderr := resolveWithin(t, dir)
				if out := unwrapText(stdout); code != exitOK || !strings.Contains(out, path+": warning: Skipped ") || !strings.Contains(out, "so it is not read") {
					t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 0 and a warning about %s", code, stdout, stderr, path)
				}
			})
		}
	}
}

func TestResolveRefusesSpecialFilesNamed(t *testing.T) {
	for _, flag := range []string{"--config", "--lock-file", "--modules-dir"} {
		for _, kind := range []string{"FIFO", "/dev/zero"} {
			t.Run(flag+" "+kind, func(t *testing.T) {
				dir := t.TempDir()
				writeFiles(t, dir, map[string]string{"calls.tf": resolveCall})
				path, arg := filepath.Join(dir, "special"), filepath.Join(dir, "special")
				if flag == "--modules-dir" {
					path, arg = filepath.Join(dir, "special", "modules.json"), filepath.Join(dir, "special")
					if err := os.Mkdir(arg, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				special(t, kind, path)
				code, _, stderr := resolveWithin(t, dir, flag, arg)
				if code != exitUsage || !strings.Contains(stderr, path+": Cannot read the ") || !strings.Contains(stderr, "It is not a regular file") {
					t.Errorf("exit %d, stderr:\n%s\nwant exit %d and the file refused", code, stderr, exitUsage)
				}
			})
		}
	}
}

func TestResolveUnreadablePolicyConfigIsAnOutsideFailure(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"calls.tf": resolveCall, "prerel.hcl": "default_policy = \"strict\"\n"})
	path := filepath.Join(dir, "prerel.hcl")
	if os.Geteuid() != 0 {
		if err := os.Chmod(path, 0); err != nil {
			t.Fatal(err)
		}
	} else {
		// Root reads files whatever their mode; a regular file that fails
		// with an I/O error stands in.
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/proc/self/mem", path); err != nil {
			t.Fatal(err)
		}
		if _, err := os.ReadFile(path); err == nil {
			t.Skip("/proc/self/mem reads without an error here")
		}
	}
	for _, args := range [][]string{nil, {"--config", path}} {
		code, _, stderr := resolveWithin(t, dir, args...)
		if code != exitFailure || !strings.Contains(stderr, path+": Cannot read the policy configuration; ") {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant exit %d", args, code, stderr, exitFailure)
		}
	}
}

// special makes path a FIFO, or a symbolic link to the device kind names.
func special(t *testing.T, kind, path string) {
	t.Helper()
	if kind == "FIFO" {
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skip("mkfifo:", err)
		}
		return
	}
	if err := os.Symlink(kind, path); err != nil {
		t.Fatal(err)
	}
}

// writeFiles writes files, by name, in dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
