//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
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

// Policy commands that fail, as shell scripts.
const (
	// failsAfterTwo answers allow twice, then exits with status 4.
	failsAfterTwo = `n=0
while IFS= read -r line; do
	n=$((n+1))
	if [ $n -gt 2 ]; then echo "fails: no more" >&2; exit 4; fi
	echo allow
done
`
	// failsAtOnce reads one case and exits with status 3.
	failsAtOnce = `read -r line
echo "fails: at once" >&2
exit 3
`
	// failsAtEnd allows every case, then exits with status 5.
	failsAtEnd = `while IFS= read -r line; do echo allow; done
echo "fails at the end" >&2
exit 5
`
)

// runCLIEnv is runCLI with an environment for getenv.
func runCLIEnv(t *testing.T, stdin string, environ map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr strings.Builder
	e := &env{
		stdin:    strings.NewReader(stdin),
		stdout:   &stdout,
		stderr:   &stderr,
		registry: catalogue.New(),
		getenv:   testEnv(environ),
	}
	code := run(e, args)
	return code, stdout.String(), stderr.String()
}

// TestEvalStopsAtAFailedPolicyCommand checks that eval writes the answers
// a policy command gave before it failed, then stops, and says from which
// line on nothing was judged.
func TestEvalStopsAtAFailedPolicyCommand(t *testing.T) {
	dir := t.TempDir()
	script := shellScript(t, dir, "fails.sh", failsAfterTwo)
	in := ">= 1.0\t1.0.0\n>= 1.0\t1.1.0\n>= 1.0\t1.2.0\n>= 1.0\t1.3.0\n>= 1.0\t1.4.0\n"
	for _, format := range []string{"tsv", "json"} {
		t.Run(format, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, in, "eval", "--format", format, "--policy-cmd", "fails=/bin/sh "+script, "--policies", "strict,fails")
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if len(lines) != 2 || strings.Contains(stdout, "invalid") || !strings.Contains(lines[0], "1.0.0") || !strings.Contains(lines[1], "1.1.0") {
				t.Errorf("stdout is not the two lines judged:\n%s", stdout)
			}
			if format == "tsv" && lines[1] != ">= 1.0\t1.1.0\tallow\tallow" {
				t.Errorf("line 2: %q", lines[1])
			}
			for _, want := range []string{"prerel eval: not judged: stdin line 3 and the lines after it: policy \"fails\"", "exited with status 4", "fails: no more"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
		})
	}
}

// TestNoReportOfAFailedPolicyCommand checks that every command that
// judges cases with policies prints its error, and no report, when a
// policy command fails, during the run or when it is stopped, and exits
// 2 (doc.go, "A policy that fails"). eval, which writes as it goes, keeps
// the lines answered before (TestEvalStopsAtAFailedPolicyCommand); merge
// is TestMergeWritesNothingAfterAFailedPolicyCommand; policies runs no
// policy.
func TestNoReportOfAFailedPolicyCommand(t *testing.T) {
	dir := t.TempDir()
	module := writeModule(t, map[string]string{"main.tf": `module "consul" {
  source  = "hashicorp/consul-k8s/kubernetes"
  version = ">= 1.0.0-beta1, < 2.0.0"
}
`})
	versions := []string{">= 1.0", "1.0.0", "1.1.0", "1.2.0"}
	tree := []string{"--index", resolveIndex, "--lock-file", "-", module}
	commands := map[string][]string{
		"check":   append([]string{"check", "--policies", "strict,fails"}, versions...),
		"select":  append([]string{"select", "--policies", "strict,fails"}, versions...),
		"explain": {"explain", "--policy", "fails", ">= 1.0", "1.0.0"},
		"select --min-age": {"select", "--policies", "strict,fails", "--min-age", "1d", "--now", "2026-03-01T00:00:00Z",
			">= 1.0", "1.0.0@2026-01-01T00:00:00Z", "1.1.0@2026-02-28T00:00:00Z"},
		"compare --domain ages": {"compare", "--domain", "ages", "--policies", "strict,fails"},
		"compare":               {"compare", "--domain", smallDomain(t), "--policies", "strict,fails"},
		"compare shard":         {"compare", "--domain", smallDomain(t), "--policies", "strict,fails", "--shard", "1/2"},
		"resolve":               append([]string{"resolve", "--policy", "fails"}, tree...),
		"pin --check":           append([]string{"pin", "--check", "--policy", "fails"}, tree...),
		"pin --dry-run":         append([]string{"pin", "--dry-run", "--policy", "fails"}, tree...),
		"impact":                {"impact", "--policy", "fails", "--index", resolveIndex, "--domain", module},
	}
	scripts := map[string]string{"during the run": failsAtOnce, "when stopped": failsAtEnd}
	for name, args := range commands {
		for when, body := range scripts {
			if name == "compare --domain ages" && when == "when stopped" {
				continue // the shell would answer the whole domain first: seconds
			}
			t.Run(name+" "+when, func(t *testing.T) {
				script := shellScript(t, dir, strings.ReplaceAll(when, " ", "-")+".sh", body)
				code, stdout, stderr := runCLI(t, "", append(args, "--policy-cmd", "fails=/bin/sh "+script)...)
				cmd := strings.Fields(name)[0]
				if code != exitUsage || stdout != "" || !strings.Contains(stderr, "\nprerel "+cmd+`: policy "fails": command /bin/sh `) {
					t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitUsage, stdout, stderr)
				}
			})
		}
	}
}

// TestNothingWrittenAfterAFailedPolicyCommand checks that compare
// --write-baseline and the GitHub step summary, pin's override files and
// pin --update-lock's lock file are left as they are when a policy command
// fails, and that compare prints no report.
func TestNothingWrittenAfterAFailedPolicyCommand(t *testing.T) {
	dir := t.TempDir()
	fails := shellScript(t, dir, "fails.sh", failsAfterTwo)
	failsLate := shellScript(t, dir, "fails-late.sh", failsAtEnd)
	for _, script := range []string{fails, failsLate} {
		t.Run(filepath.Base(script), func(t *testing.T) {
			out := t.TempDir()
			baseline := filepath.Join(out, "baseline.json")
			summary := filepath.Join(out, "summary.md")
			writeFile(t, baseline, "the good baseline\n")
			writeFile(t, summary, "# before\n")
			code, stdout, stderr := runCLIEnv(t, "", map[string]string{"GITHUB_STEP_SUMMARY": summary},
				"compare", "--domain", smallDomain(t), "--policy-cmd", "fails=/bin/sh "+script, "--policies", "strict,fails", "--write-baseline", baseline)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, `policy "fails"`) {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if got := readFile(t, baseline); got != "the good baseline\n" {
				t.Errorf("the baseline was written:\n%.200s", got)
			}
			if got := readFile(t, summary); got != "# before\n" {
				t.Errorf("the step summary was written:\n%.200s", got)
			}
		})
		t.Run("pin "+filepath.Base(script), func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "main.tf"), `terraform {
  required_providers {
    thing = {
      source  = "corp/thing"
      version = ">= 1.0"
    }
  }
}

module "net" {
  source  = "corp/net/aws"
  version = ">= 1.0.0"
}
`)
			lock := `provider "registry.terraform.io/corp/thing" {
  version     = "1.0.0"
  constraints = ">= 1.0"
  hashes = [
    "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
  ]
}
`
			writeFile(t, filepath.Join(root, ".terraform.lock.hcl"), lock)
			index := filepath.Join(t.TempDir(), "index.json")
			writeFile(t, index, `{
  "modules": {"corp/net/aws": {"modules": [{"versions": [{"version": "1.0.0"}, {"version": "2.0.0-beta.1"}]}]}},
  "providers": {"corp/thing": {"versions": [{"version": "1.0.0"}, {"version": "2.0.0-beta.1"}]}}
}
`)
			code, stdout, stderr := runCLI(t, "", "pin", "--update-lock", "--index", index,
				"--policy-cmd", "fails=/bin/sh "+script, "--policy", "fails", root)
			if code != exitUsage || !strings.Contains(stderr, `policy "fails"`) {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if _, err := os.Stat(filepath.Join(root, "prerel_override.tf")); err == nil {
				t.Errorf("an override file was written:\n%s", readFile(t, filepath.Join(root, "prerel_override.tf")))
			}
			if got := readFile(t, filepath.Join(root, ".terraform.lock.hcl")); got != lock {
				t.Errorf("the lock file was changed:\n%s", got)
			}
		})
	}
}

// TestWritesAfterAGoodPolicyCommand checks that the same runs write their
// files when the policy command does not fail.
func TestWritesAfterAGoodPolicyCommand(t *testing.T) {
	dir := t.TempDir()
	good := shellScript(t, dir, "good.sh", "while IFS= read -r line; do echo allow; done\n")
	baseline := filepath.Join(dir, "baseline.json")
	summary := filepath.Join(dir, "summary.md")
	code, stdout, stderr := runCLIEnv(t, "", map[string]string{"GITHUB_STEP_SUMMARY": summary},
		"compare", "--domain", smallDomain(t), "--policy-cmd", "good=/bin/sh "+good, "--policies", "strict,good", "--write-baseline", baseline)
	if code != exitOK || stdout == "" {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(readFile(t, baseline), `"good"`) || !strings.Contains(readFile(t, summary), "good") {
		t.Errorf("the baseline or the summary was not written")
	}
}

// smallDomain writes a domain file of a few dozen cases, prereleases and
// ranges among them, for the tests whose policy command is a shell loop:
// what they check does not need more.
func smallDomain(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, c := range []string{">= 1.0", "~> 1.0", ">= 1.0.0-beta", "= 2.0.0-rc.1", "!= 1.1.0", "< 2.0.0"} {
		for _, v := range []string{"0.9.0", "1.0.0", "1.1.0", "1.2.0-beta", "2.0.0-rc.1", "2.0.0"} {
			b.WriteString(c + "\t" + v + "\n")
		}
	}
	path := filepath.Join(t.TempDir(), "cases.tsv")
	writeFile(t, path, b.String())
	return path
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMergeWritesNothingAfterAFailedPolicyCommand checks that merge
// --write-baseline leaves the baseline, and the step summary, as they
// were, and prints no report, when the policy command it is given fails.
func TestMergeWritesNothingAfterAFailedPolicyCommand(t *testing.T) {
	dir := t.TempDir()
	good := shellScript(t, dir, "good.sh", "while IFS= read -r line; do echo allow; done\n")
	fails := shellScript(t, dir, "fails.sh", failsAfterTwo)
	domain := smallDomain(t)
	var parts []string
	for _, shard := range []string{"1/1"} { // one shard: each probes the command with two thousand cases
		code, stdout, stderr := runCLI(t, "", "compare", "--domain", domain, "--shard", shard, "--format", "json",
			"--policy-cmd", "x=/bin/sh "+good, "--policies", "strict,x")
		if code != exitOK {
			t.Fatalf("shard %s: exit %d\n%s", shard, code, stderr)
		}
		part := filepath.Join(dir, "part"+shard[:1]+".json")
		writeFile(t, part, stdout)
		parts = append(parts, part)
	}
	baseline := filepath.Join(dir, "baseline.json")
	summary := filepath.Join(dir, "summary.md")
	writeFile(t, baseline, "the good baseline\n")
	writeFile(t, summary, "# before\n")
	args := append([]string{"merge", "--policy-cmd", "x=/bin/sh " + fails, "--write-baseline", baseline, "--domain", domain}, parts...)
	code, stdout, stderr := runCLIEnv(t, "", map[string]string{"GITHUB_STEP_SUMMARY": summary}, args...)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, `policy "x"`) {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if got := readFile(t, baseline); got != "the good baseline\n" {
		t.Errorf("the baseline was written:\n%.200s", got)
	}
	if got := readFile(t, summary); got != "# before\n" {
		t.Errorf("the step summary was written:\n%.200s", got)
	}
}

// TestPolicyCmdEnvRefusesCredentialsAndPatterns checks that
// --policy-cmd-env refuses the name of a credential unless
// --policy-cmd-allow-credentials is given, and a pattern always, with
// exit status 2 and a message that names the variable and not its value;
// and that with --policy-cmd-allow-credentials the command gets it.
func TestPolicyCmdEnvRefusesCredentialsAndPatterns(t *testing.T) {
	dir := t.TempDir()
	script := shellScript(t, dir, "env.sh", `while IFS= read -r line; do
	printf 'allow\t%s\n' "$(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | sort | tr '\n' ' ')"
done
`)
	const value = "the-secret-value"
	for _, name := range []string{"TF_TOKEN_app_terraform_io", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "TF_CLI_CONFIG_FILE"} {
		t.Setenv(name, value)
	}
	t.Setenv("PRERELTEST_PASSED", "yes")
	cmd := []string{"check", "--format", "json", "--policy-cmd", "envcmd=/bin/sh " + script, "--policies", "envcmd"}
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string // what it holds; stdout, when the exit status is 0
	}{
		{[]string{"--policy-cmd-env", "TF_TOKEN_app_terraform_io"}, exitUsage,
			"prerel check: --policy-cmd-env TF_TOKEN_app_terraform_io: the variable holds a credential"},
		{[]string{"--policy-cmd-env", "PRERELTEST_PASSED", "--policy-cmd-env", "GITHUB_TOKEN"}, exitUsage,
			"--policy-cmd-env GITHUB_TOKEN: the variable holds a credential (its name says so), which policy commands do not get; " +
				"a rule needs none, but give --policy-cmd-allow-credentials as well to pass it"},
		{[]string{"--policy-cmd-env", "aws_secret_access_key"}, exitUsage, "--policy-cmd-env aws_secret_access_key: the variable holds a credential"},
		{[]string{"--policy-cmd-env", "DB_PASSWORD"}, exitUsage, "--policy-cmd-env DB_PASSWORD: the variable holds a credential"},
		{[]string{"--policy-cmd-env", "TF_CLI_CONFIG_FILE"}, exitUsage, "--policy-cmd-env TF_CLI_CONFIG_FILE: the variable holds a credential"},
		{[]string{"--policy-cmd-env", "TF_TOKEN_*"}, exitUsage,
			`invalid argument "TF_TOKEN_*" for "--policy-cmd-env" flag: "TF_TOKEN_*" is a pattern, and --policy-cmd-env takes the name of one variable`},
		{[]string{"--policy-cmd-allow-credentials", "--policy-cmd-env", "TF_TOKEN_?"}, exitUsage, `"TF_TOKEN_?" is a pattern`},
		{[]string{"--policy-cmd-env", "PRERELTEST_[A-Z]*"}, exitUsage, `"PRERELTEST_[A-Z]*" is a pattern`},
		// The flag that allows credentials may come after the name.
		{[]string{"--policy-cmd-env", "TF_TOKEN_app_terraform_io", "--policy-cmd-allow-credentials"}, exitOK, "TF_TOKEN_app_terraform_io"},
		{[]string{"--policy-cmd-allow-credentials", "--policy-cmd-env", "GITHUB_TOKEN"}, exitOK, "GITHUB_TOKEN"},
		{[]string{"--policy-cmd-env", "PRERELTEST_PASSED"}, exitOK, "PRERELTEST_PASSED"},
	} {
		code, stdout, stderr := runCLI(t, "", append(append(slices.Clone(cmd), tt.args...), ">= 1", "1.0.0")...)
		out := stderr
		if tt.code == exitOK {
			out = stdout
		}
		if code != tt.code || !strings.Contains(out, tt.stderr) || strings.Contains(stdout+stderr, value) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.args, code, stdout, stderr, tt.code, tt.stderr)
		}
	}
}
