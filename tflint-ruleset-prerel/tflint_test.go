package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/terraform/installer/installertest"
)

// TflintEnv names the tflint the end-to-end test runs; without it, the
// one on PATH. build-tflint.sh builds v0.64.0 from the Go module proxy.
const TflintEnv = "PREREL_TFLINT"

// findTflint returns the tflint to run, or skips the test.
func findTflint(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(TflintEnv); p != "" {
		return p
	}
	p, err := exec.LookPath("tflint")
	if err != nil {
		t.Skipf("no tflint: set %s (./build-tflint.sh builds v0.64.0) or put tflint on PATH", TflintEnv)
	}
	return p
}

// tflintIssue is one issue of tflint --format json.
type tflintIssue struct {
	Rule struct {
		Name string `json:"name"`
	} `json:"rule"`
	Message string `json:"message"`
	Range   struct {
		Filename string `json:"filename"`
		Start    struct {
			Line int `json:"line"`
		} `json:"start"`
	} `json:"range"`
}

// runTflint runs tflint in dir with the plugin directory and returns its
// issues and exit status.
func runTflint(t *testing.T, tflint, dir, pluginDir string, args ...string) ([]tflintIssue, int) {
	t.Helper()
	cmd := exec.Command(tflint, append([]string{"--format", "json"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+pluginDir, "TFLINT_DISABLE_VERSION_CHECK=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	status := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("tflint %s: %v", strings.Join(args, " "), err)
		}
		status = exit.ExitCode()
	}
	var out struct {
		Issues []tflintIssue `json:"issues"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("tflint %s: exit %d, output not JSON: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), status, err, stdout.String(), stderr.String())
	}
	if len(out.Errors) > 0 {
		t.Fatalf("tflint %s: errors %v\nstderr: %s", strings.Join(args, " "), out.Errors, stderr.String())
	}
	return out.Issues, status
}

// TestTflint builds the plugin, installs it in a plugin directory of its
// own, as tflint finds a plugin without a source (the binary
// tflint-ruleset-prerel), and runs the real tflint and tflint --fix on a
// module call written "= 2.0.0-beta.2".
func TestTflint(t *testing.T) {
	longtest.Skip(t)
	tflint := findTflint(t)
	pluginDir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(pluginDir, "tflint-ruleset-prerel"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	const before = `module "db" {
  source  = "example/db/aws"
  version = "= 2.0.0-beta.2"
}

module "net" {
  source  = "example/net/aws"
  version = "2.0.0-beta.2"
}
`
	after := strings.Replace(before, `"= 2.0.0-beta.2"`, `"2.0.0-beta.2"`, 1)
	files := map[string]string{
		"main.tf": before,
		// The bundled terraform ruleset is off, so that every issue is
		// the plugin's.
		".tflint.hcl": "plugin \"terraform\" {\n  enabled = false\n}\n\nplugin \"prerel\" {\n  enabled = true\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	issues, status := runTflint(t, tflint, dir, pluginDir)
	if status != 2 || len(issues) != 1 {
		t.Fatalf("tflint: exit %d with %d issues %+v, want exit 2 with one issue", status, len(issues), issues)
	}
	got := issues[0]
	if got.Rule.Name != "prerel_module_exact_prerelease" || got.Range.Filename != "main.tf" || got.Range.Start.Line != 3 ||
		!strings.Contains(got.Message, `no spaces allowed after operator "="`) {
		t.Errorf("tflint: issue %+v, want prerel_module_exact_prerelease at main.tf:3 saying the installer allows no space", got)
	}

	if _, status := runTflint(t, tflint, dir, pluginDir, "--fix"); status != 2 {
		t.Errorf("tflint --fix: exit %d, want 2 (the issue fixed is still reported)", status)
	}
	src, err := os.ReadFile(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != after {
		t.Errorf("tflint --fix left main.tf:\n%s\nwant:\n%s", src, after)
	}

	if issues, status := runTflint(t, tflint, dir, pluginDir); status != 0 || len(issues) != 0 {
		t.Errorf("tflint after --fix: exit %d with issues %+v, want none", status, issues)
	}
}

// update rewrites the sample of docs/tflint.md with tflint's output.
var update = flag.Bool("update", false, "rewrite the sample output of docs/tflint.md")

// docsPage is the page whose sample TestDocsSample checks.
const docsPage = "../docs/tflint.md"

// sampleCommand is the command the sample shows; its output is the
// first ```text block after it.
const sampleCommand = "$ cd tflint-ruleset-prerel/testdata/example && tflint\n"

// TestDocsSample runs the real tflint with the plugin, as the page says,
// on testdata/example with the releases the docs' samples take as today's
// (PREREL_INSTALLER), and checks the page shows its output; -update
// rewrites the sample.
func TestDocsSample(t *testing.T) {
	longtest.Skip(t)
	tflint := findTflint(t)
	pluginDir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(pluginDir, "tflint-ruleset-prerel"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(tflint)
	cmd.Dir = filepath.Join("testdata", "example")
	cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+pluginDir, "TFLINT_DISABLE_VERSION_CHECK=1", "PREREL_INSTALLER="+installertest.Env)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("tflint: %v, want exit status 2 (issues found)\nstderr: %s", err, stderr.String())
	}

	page, err := os.ReadFile(docsPage)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(page, []byte(sampleCommand))
	if at < 0 {
		t.Fatalf("%s shows no %q", docsPage, sampleCommand)
	}
	const open, end = "```text\n", "\n```\n"
	from := bytes.Index(page[at:], []byte(open))
	if from < 0 {
		t.Fatalf("%s: no ```text block after %q", docsPage, sampleCommand)
	}
	from += at + len(open)
	to := bytes.Index(page[from:], []byte(end))
	if to < 0 {
		t.Fatalf("%s: the sample after %q does not end", docsPage, sampleCommand)
	}
	to += from
	got := strings.TrimRight(stdout.String(), "\n")
	if want := string(page[from:to]); got != want {
		if *update {
			page = append(append(append([]byte(nil), page[:from]...), got...), page[to:]...)
			if err := os.WriteFile(docsPage, page, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s shows another output than tflint's (go test -run TestDocsSample -update rewrites it):\n--- page\n%s\n--- tflint\n%s", docsPage, want, got)
	}
}
