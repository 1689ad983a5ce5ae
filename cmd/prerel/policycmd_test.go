//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shellScript writes an executable shell script with body into dir and
// returns its path.
func shellScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPolicyCommandEnvironment checks that a policy command, of
// --policy-cmd or of a policy file, gets PATH, HOME, LANG, TMPDIR and
// what --policy-cmd-env names, and none of the credentials in prerel's
// environment.
func TestPolicyCommandEnvironment(t *testing.T) {
	dir := t.TempDir()
	script := shellScript(t, dir, "env.sh", `while IFS= read -r line; do
	printf 'allow\t%s\n' "$(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | sort | tr '\n' ' ')"
done
`)
	file := filepath.Join(dir, "policies.hcl")
	if err := os.WriteFile(file, []byte(`policy "envfile" {
  rule    = "the names of its environment"
  command = ["/bin/sh", "env.sh"]
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_TOKEN_app_terraform_io", "secret-token")
	t.Setenv("GITHUB_TOKEN", "secret-token")
	t.Setenv("TF_CLI_CONFIG_FILE", "/secret/terraformrc")
	t.Setenv("PRERELTEST_PASSED", "yes")
	code, stdout, stderr := runCLI(t, "", "check", "--format", "json",
		"--policy-cmd", "envcmd=/bin/sh "+script, "--policy-file", file,
		"--policy-cmd-env", "PRERELTEST_PASSED", "--policies", "envcmd,envfile", ">= 1", "1.0.0")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, secret := range []string{"TF_TOKEN_app_terraform_io", "GITHUB_TOKEN", "TF_CLI_CONFIG_FILE"} {
		if strings.Contains(stdout, secret) {
			t.Errorf("a policy command gets %s:\n%s", secret, stdout)
		}
	}
	if n := strings.Count(stdout, "PRERELTEST_PASSED"); n != 2 {
		t.Errorf("PRERELTEST_PASSED in %d reasons, want 2:\n%s", n, stdout)
	}
	if n := strings.Count(stdout, "PATH "); n != 2 {
		t.Errorf("PATH in %d reasons, want 2:\n%s", n, stdout)
	}

	code, _, stderr = runCLI(t, "", "check", "--policy-cmd-env", "A=B", ">= 1", "1.0.0")
	if code != exitUsage || !strings.Contains(stderr, `"A=B" cannot name an environment variable`) {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

// TestPoliciesEscapesRules checks that prerel policies writes the rules
// of a policy file and of a command with their terminal escapes escaped.
func TestPoliciesEscapesRules(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "policies.hcl")
	if err := os.WriteFile(file, []byte(`policy "hostile" {
  rule  = "clears\u001b[2J\u001b]0;title\u0007 the screen\u202e"
  admit = true
}
policy "hostile-cmd" {
  rule    = "\u001b[31mred"
  command = ["/bin/sh", "-c", "true"]
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "policies", "--policy-file", file,
		"--policy-cmd", "hostile-line=/bin/echo '\x1b[2J'")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if strings.ContainsAny(stdout, "\x1b\x07\u202e") {
		t.Errorf("raw escapes:\n%q", stdout)
	}
	for _, want := range []string{`clears\x1b[2J\x1b]0;title\a the screen\u202e`, `\x1b[31mred`, `/bin/echo '\x1b[2J'`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %s:\n%s", want, stdout)
		}
	}
}
