package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/internal/bounded"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/safefile"
)

// mkfifo makes a FIFO at path, skipping the test where there are none.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
}

// formatted returns the diagnostics one a line, with dir/ left out of
// places.
func formatted(diags hcl.Diagnostics, dir string) string {
	return strings.ReplaceAll(formatAll(diags), dir+string(filepath.Separator), "")
}

// TestLoadRefusesDeepNesting loads files nested n levels deep, each
// refused at the level past MaxNesting: three times the limit every day,
// which a Load that parsed without the bound would read, and a hundred
// thousand levels (a million for the JSON file of bare brackets, as large
// as a configuration file may be) in the long run.
func TestLoadRefusesDeepNesting(t *testing.T) {
	longtest.SkipShort(t)
	n := longtest.Pick(3*MaxNesting, 100000)
	rep := strings.Repeat
	tests := []struct {
		name, file, src, want string
	}{
		{"tuples", "main.tf", "locals {\n x = " + rep("[", n) + rep("]", n) + "\n}\n",
			"main.tf:2:6: Expressions nested deeper than 1000 levels"},
		{"parentheses", "main.tf", "locals {\n x = " + rep("(", n) + rep(")", n) + "\n}\n",
			"main.tf:2:6: Expressions nested deeper than 1000 levels"},
		{"negations", "main.tf", "locals {\n x = " + rep("!", n) + "true\n}\n",
			"main.tf:2:6: Expressions nested deeper than 1000 levels"},
		{"conditionals", "main.tf", "locals {\n x = a" + rep(" ? a : a", n) + "\n}\n",
			"main.tf:2:8: Expressions nested deeper than 1000 levels"},
		{"nested blocks", "main.tf", rep("terraform {\n", n) + rep("}\n", n),
			"main.tf:1001:11: Expressions nested deeper than 1000 levels"},
		{"JSON", "main.tf.json", `{"locals": {"x": ` + rep("[", n) + rep("]", n) + "}}",
			"main.tf.json:1:1016: Expressions nested deeper than 1000 levels"},
		{"JSON, ten times as deep", "main.tf.json", rep("[", 10*n) + rep("]", 10*n),
			"main.tf.json:1:1001: Expressions nested deeper than 1000 levels"},
		{"JSON template", "main.tf.json", `{"module": {"m": {"source": "${` + rep("(", n) + rep(")", n) + `}"}}}`,
			"main.tf.json:1:29: Expressions nested deeper than 1000 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{tt.file: tt.src})
			bounded.Run(t, func() {
				_, diags := Load(dir)
				got := formatted(diags, dir)
				if len(diags) != 1 || !strings.HasPrefix(got, tt.want+";") {
					t.Errorf("diagnostics:\n%s\nwant one: %s", got, tt.want)
				}
			})
		})
	}
}

// TestReadersRefuseDeepNesting reads a lock file and a module manifest
// nested three times deeper than MaxNesting (a hundred thousand levels in
// the long run): each is refused at the level past the limit.
func TestReadersRefuseDeepNesting(t *testing.T) {
	n := longtest.Pick(3*MaxNesting, 100000)
	lock := "provider \"registry.terraform.io/a/b\" {\n  version = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n}\n"
	bounded.Run(t, func() {
		locked, diags := ParseLockFile([]byte(lock), "lock")
		if got := formatAll(diags); locked != nil || len(diags) != 1 || !strings.HasPrefix(got, "lock:2:13: Expressions nested deeper than 1000 levels;") {
			t.Errorf("lock file: %d providers, diagnostics:\n%s", len(locked), got)
		}
	})
	manifest := `{"Modules": ` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}"
	bounded.Run(t, func() {
		m, diags := ParseManifest([]byte(manifest), "modules.json")
		if got := formatAll(diags); len(m) != 0 || len(diags) != 1 || !strings.HasPrefix(got, "modules.json:1:1012: Expressions nested deeper than 1000 levels;") {
			t.Errorf("manifest: %d records, diagnostics:\n%s", len(m), got)
		}
	})
}

func TestLoadSkipsFilesThatAreNotRegular(t *testing.T) {
	const call = "module \"m\" {\n  source = \"corp/m/aws\"\n  version = \"1.0.0\"\n}\n"
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string // the diagnostics
		calls int
	}{
		{"FIFO", func(t *testing.T, dir string) { mkfifo(t, filepath.Join(dir, "main.tf")) },
			"main.tf: warning: Skipped a configuration file; It is not a regular file (it is a FIFO or pipe), so it is not read.", 1},
		{"symbolic link to /dev/zero", func(t *testing.T, dir string) { symlink(t, "/dev/zero", filepath.Join(dir, "main.tf")) },
			"main.tf: warning: Skipped a configuration file; It is not a regular file (it is a character device), so it is not read.", 1},
		{"symbolic link to a directory", func(t *testing.T, dir string) { symlink(t, dir, filepath.Join(dir, "loop.tf.json")) },
			"loop.tf.json: warning: Skipped a configuration file; It is not a regular file (it is a directory), so it is not read.", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"calls.tf": call})
			tt.setup(t, dir)
			bounded.Run(t, func() {
				m, diags := Load(dir)
				if got := formatted(diags, dir); got != tt.want || len(m.ModuleCalls) != tt.calls {
					t.Errorf("%d calls, diagnostics:\n%s\nwant %d calls and\n%s", len(m.ModuleCalls), got, tt.calls, tt.want)
				}
				if len(m.Files) != 1 {
					t.Errorf("files read: %q", m.Files)
				}
			})
		})
	}
	t.Run("nothing else", func(t *testing.T) {
		dir := t.TempDir()
		mkfifo(t, filepath.Join(dir, "main.tf"))
		bounded.Run(t, func() {
			_, diags := Load(dir)
			want := "main.tf: warning: Skipped a configuration file; It is not a regular file (it is a FIFO or pipe), so it is not read.\n" +
				"No configuration files; " + dir + " has no .tf, .tf.json, .tofu or .tofu.json files that are regular files"
			if got := formatted(diags, dir); got != want {
				t.Errorf("diagnostics:\n%s\nwant\n%s", got, want)
			}
		})
	})
}

func symlink(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

func TestLoadRefusesLargeFiles(t *testing.T) {
	dir := t.TempDir()
	// A valid file just over the limit: one long comment.
	src := "# " + strings.Repeat("x", safefile.ConfigLimit) + "\n"
	writeTree(t, dir, map[string]string{"main.tf": src, "other.tf": "locals {}\n"})
	bounded.Run(t, func() {
		m, diags := Load(dir)
		want := "main.tf: Cannot read file; It is larger than 2 MiB, the limit for a configuration file."
		if got := formatted(diags, dir); got != want {
			t.Errorf("diagnostics:\n%s\nwant\n%s", got, want)
		}
		if len(m.Files) != 1 {
			t.Errorf("files read: %q", m.Files)
		}
	})
}

func TestLockFileThatIsNotRegular(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		kind  string
	}{
		{"FIFO", func(t *testing.T, path string) { mkfifo(t, path) }, "a FIFO or pipe"},
		{"symbolic link to /dev/zero", func(t *testing.T, path string) { symlink(t, "/dev/zero", path) }, "a character device"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, LockFileName)
			tt.setup(t, path)
			bounded.Run(t, func() {
				// Found in the root module: skipped with a warning.
				found, diags := FindLockFile(dir)
				want := ".terraform.lock.hcl: warning: Skipped the dependency lock file; It is not a regular file (it is " + tt.kind + "), so it is not read."
				if got := formatted(diags, dir); found != "" || got != want {
					t.Errorf("FindLockFile = %q, diagnostics:\n%s\nwant none and\n%s", found, got, want)
				}
				// Named: refused.
				locked, diags := LoadLockFile(path)
				want = ".terraform.lock.hcl: Cannot read the lock file; It is not a regular file (it is " + tt.kind + ")."
				if got := formatted(diags, dir); locked != nil || got != want {
					t.Errorf("LoadLockFile: %d providers, diagnostics:\n%s\nwant\n%s", len(locked), got, want)
				}
			})
		})
	}
	dir := t.TempDir()
	if found, diags := FindLockFile(dir); found != "" || len(diags) != 0 {
		t.Errorf("no lock file: %q, %v", found, diags)
	}
	writeTree(t, dir, map[string]string{LockFileName: "\n"})
	if found, diags := FindLockFile(dir); found != filepath.Join(dir, LockFileName) || len(diags) != 0 {
		t.Errorf("a lock file: %q, %v", found, diags)
	}
}

func TestLoadTreeManifestThatIsNotRegular(t *testing.T) {
	const call = "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"~> 6.0\"\n}\n"
	for _, named := range []bool{false, true} {
		name := "found"
		if named {
			name = "named"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"main.tf": call})
			modules := filepath.Join(dir, ".terraform", "modules")
			if err := os.MkdirAll(modules, 0o755); err != nil {
				t.Fatal(err)
			}
			mkfifo(t, filepath.Join(modules, ManifestFileName))
			var opts TreeOptions
			want := ".terraform/modules/modules.json: warning: Skipped the module manifest; It is not a regular file (it is a FIFO or pipe), so it is not read."
			if named {
				opts.ModulesDir = modules
				want = ".terraform/modules/modules.json: Cannot read the module manifest; It is not a regular file (it is a FIFO or pipe)."
			}
			bounded.Run(t, func() {
				tree, diags := LoadTree(dir, opts)
				if got := formatted(diags, dir); got != filepath.FromSlash(want) {
					t.Errorf("diagnostics:\n%s\nwant\n%s", got, want)
				}
				if len(tree.Unread) != 1 || tree.Unread[0].Reason != UnreadNoManifest {
					t.Errorf("unread: %+v", tree.Unread)
				}
			})
		})
	}
}

func TestLoadTreeReadsTheManifestInTFDataDir(t *testing.T) {
	const call = "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"~> 6.0\"\n}\n"
	manifest := `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"vpc","Source":"registry.terraform.io/terraform-aws-modules/vpc/aws","Version":"6.6.0","Dir":"tfdata/modules/vpc"}]}`
	for _, abs := range []bool{false, true} {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{
			"main.tf":                     call,
			"tfdata/modules/modules.json": manifest,
			"tfdata/modules/vpc/main.tf":  "locals {}\n",
		})
		data := "tfdata"
		if abs {
			data = filepath.Join(dir, "tfdata")
		}
		t.Setenv(DataDirEnv, data)
		if got, want := DefaultModulesDir(dir), filepath.Join(dir, "tfdata", "modules"); got != want {
			t.Errorf("DefaultModulesDir = %q, want %q", got, want)
		}
		tree, diags := LoadTree(dir, TreeOptions{})
		if len(diags) != 0 || len(tree.Unread) != 0 || tree.Node("vpc") == nil ||
			tree.ManifestFile != filepath.Join(dir, "tfdata", "modules", ManifestFileName) {
			t.Errorf("TF_DATA_DIR=%s: diagnostics %s, unread %+v, manifest %q", data, formatAll(diags), tree.Unread, tree.ManifestFile)
		}
	}
	t.Setenv(DataDirEnv, "")
	if got, want := DefaultModulesDir("root"), filepath.Join("root", ".terraform", "modules"); got != want {
		t.Errorf("DefaultModulesDir without TF_DATA_DIR = %q, want %q", got, want)
	}
}

func TestLoadReportsOnlyTheSyntaxErrorOfABrokenFile(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unclosed module block", "module \"m\" {\n", "main.tf:1:12: Unclosed configuration block"},
		{"unclosed block with a source", "module \"m\" {\n  source = \"./x\"\n", "main.tf:1:12: Unclosed configuration block"},
		{"broken version", "module \"m\" {\n  source = \"a/b/c\"\n  version = [\n}\n", "main.tf:4:1: Invalid expression"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"main.tf": tt.src})
			_, diags := Load(dir)
			if got := formatted(diags, dir); len(diags) != 1 || !strings.HasPrefix(got, tt.want) {
				t.Errorf("diagnostics:\n%s\nwant one: %s", got, tt.want)
			}
		})
	}
}

func TestReadErrorsCarryTheirCause(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{LockFileName: "\n"})
	path := filepath.Join(dir, LockFileName)
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	_, diags := LoadLockFile(path)
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if err, ok := hcl.DiagnosticExtra[error](diags[0]); !ok || !os.IsPermission(err) {
		t.Errorf("diagnostic %s carries %v", diag.Format(diags[0]), diags[0].Extra)
	}
}

func TestLoadTreeLimitsTheConfigurationRead(t *testing.T) {
	defer func(n int64) { maxConfigBytes = n }(maxConfigBytes)
	maxConfigBytes = 1000
	dir := t.TempDir()
	pad := "# " + strings.Repeat("x", 400) + "\n"
	writeTree(t, dir, map[string]string{
		"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\nmodule \"b\" {\n  source = \"./b\"\n}\n" + pad,
		"a/main.tf": pad,
		"b/main.tf": pad,
		"b/more.tf": pad,
	})
	tree, diags := LoadTree(dir, TreeOptions{})
	want := filepath.FromSlash("b/main.tf") + ": Configuration too large; The configuration files read, this one included, are larger than 1000 bytes in all, the limit; the rest are not read."
	if got := formatted(diags, dir); got != want {
		t.Errorf("diagnostics:\n%s\nwant\n%s", got, want)
	}
	var files int
	for _, n := range tree.Nodes {
		files += len(n.Module.Files)
	}
	if files != 2 {
		t.Errorf("%d files read, want 2", files)
	}
	m, diags := Load(filepath.Join(dir, "b"))
	if len(m.Files) != 2 || len(diags) != 0 {
		t.Errorf("Load read %q: %s", m.Files, formatAll(diags))
	}
}

// A configuration file that is a symbolic link to no file, such as a
// prerel_override.tf left behind, is an error that says so and where the
// link points, clipped and with control characters escaped; not "no such
// file or directory".
func TestLoadNamesADanglingLink(t *testing.T) {
	long := "/gone/\x1b[2J/" + strings.Repeat("d/", 1500) + "main_override.tf"
	for _, tt := range []struct {
		name, file, target, want string
	}{
		{"override file", "prerel_override.tf", "/nonexistent/prerel_override.tf",
			"prerel_override.tf: Cannot read file; It is a dangling symbolic link: it points to /nonexistent/prerel_override.tf, and no file is there."},
		{"relative target", "main.tf", "elsewhere/main.tf",
			"main.tf: Cannot read file; It is a dangling symbolic link: it points to elsewhere/main.tf, and no file is there."},
		{"long target with an escape", "prerel_override.tf", long,
			"prerel_override.tf: Cannot read file; It is a dangling symbolic link: it points to " + printable.String(elide.Middle(long, 200)) + ", and no file is there."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"calls.tf": "terraform {\n}\n"})
			symlink(t, tt.target, filepath.Join(dir, tt.file))
			_, diags := Load(dir)
			if got := formatted(diags, dir); got != tt.want {
				t.Errorf("diagnostics:\n%q\nwant\n%q", got, tt.want)
			}
			if got := formatted(diags, dir); len(got) > 600 || strings.Contains(got, "\x1b") {
				t.Errorf("a diagnostic of %d bytes, or with an escape: %q", len(got), got)
			}
		})
	}
}
