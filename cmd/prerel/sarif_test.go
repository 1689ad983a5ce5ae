package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/internal/sarif/sariftest"
)

// The tests here hold the SARIF logs prerel writes to golden files
// under testdata/sarif, byte for byte; the repository root's
// TestCLISARIFIsValid validates each of those files against the schema
// of SARIF 2.1.0 (package sarifschema). The validator is not linked into
// this test binary, which runs again as prerel for every command of the
// scripts and would start it each time: the tests read the logs with
// package sariftest.

// The SARIF logs of the commands that write one, as golden files show
// them (valid SARIF 2.1.0: TestCLISARIFIsValid at the root), with the
// exit status the command has in any format. They run from the
// repository's root, as a CI job does.
func TestSARIFOutputs(t *testing.T) {
	t.Chdir("../..")
	const index = "testdata/sarif/index.json"
	tests := []struct {
		name  string
		args  []string
		code  int
		rules []string // the rules of the results, in order
	}{
		{"resolve", []string{"resolve", "--format", "sarif", "--index", index, "testdata/sarif"}, exitFinding,
			[]string{"installer-ignores-version", "stale-pin", "installer-ignores-version", "read-differently", "installer-ignores-version",
				"no-admissible-version", "locked-version-refused", "read-differently"}},
		{"pin-check", []string{"pin", "--check", "--format", "sarif", "--want", "corp/thing=2.0.0-rc.1", "--index", index, "testdata/sarif"}, exitFinding,
			[]string{"installer-ignores-version", "stale-pin", "installer-ignores-version", "read-differently", "installer-ignores-version",
				"no-admissible-version", "locked-version-refused", "read-differently", "override-file-differs", "provider-pin-refused"}},
		{"pin-check-unlisted", []string{"pin", "--check", "--format", "sarif", "--index", "testdata/pin/index.json", "testdata/sarif"}, exitFailure,
			[]string{"versions-not-listed", "versions-not-listed", "versions-not-listed", "versions-not-listed", "versions-not-listed", "versions-not-listed", "locked-version-refused", "read-differently"}},
		{"compare-drift", []string{"compare", "--format", "sarif", "--domain", "testdata/cases.tsv", "--policies", "strict,cargo",
			"--baseline", "testdata/drift/cargo-before.json"}, exitFinding,
			[]string{"baseline-drift", "baseline-drift", "baseline-drift", "baseline-drift", "baseline-drift", "baseline-drift", "baseline-drift", "baseline-drift"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			log := sariftest.Decode(t, []byte(stdout))
			var rules []string
			for _, r := range log.Runs[0].Results {
				rules = append(rules, r.RuleID)
				if len(r.Locations) == 0 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" {
					t.Errorf("%s: %q has no location", r.RuleID, r.Message.Text)
				}
			}
			if strings.Join(rules, " ") != strings.Join(tt.rules, " ") {
				t.Errorf("results of rules\n%v\nwant\n%v", rules, tt.rules)
			}
			// Every rule of the log has help in the docs.
			for _, r := range log.Runs[0].Tool.Driver.Rules {
				if !strings.HasPrefix(r.HelpURI, "https://github.com/prerel/prerel/blob/main/docs/") {
					t.Errorf("rule %s: helpUri %q is not a page of the docs", r.ID, r.HelpURI)
				}
			}
			golden.Check(t, filepath.Join("cmd", "prerel", "testdata", "sarif", tt.name+".sarif"), []byte(stdout))
		})
	}
}

// --format sarif is offered by the commands that locate findings, and
// refused, with a usage error, elsewhere.
func TestSARIFOnlyWhereSupported(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"calls.tf": resolveCall})
	tests := [][]string{
		{"check", "--format", "sarif", ">= 1.0.0", "1.0.0"},
		{"select", "--format", "sarif", ">= 1.0.0", "1.0.0"},
		{"explain", "--format", "sarif", ">= 1.0.0", "1.0.0"},
		{"merge", "--format", "sarif", "x.json"},
		{"impact", "--format", "sarif"},
		{"pin", "--format", "sarif", "--index", resolveIndex, dir},
		{"pin", "--remove", "--format", "sarif", dir},
		{"pin", "--dry-run", "--format", "sarif", "--index", resolveIndex, dir},
		{"compare", "--format", "sarif", "--domain", "../../testdata/cases.tsv", "--policies", "strict,cargo"},
	}
	for _, args := range tests {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "sarif") {
			t.Errorf("prerel %q: exit %d, stdout %q, stderr %q; want exit %d naming sarif", args, code, stdout, stderr, exitUsage)
		}
	}
	for _, cmd := range []string{"resolve", "pin", "compare"} {
		_, stdout, _ := runCLI(t, "", cmd, "-h")
		if !strings.Contains(stdout, "or sarif") {
			t.Errorf("prerel %s -h does not offer sarif:\n%s", cmd, stdout)
		}
	}
}

// A hostile tree still gives a valid log, each result at its file: odd
// directory and file names, a file of thousands of module calls, long
// lines and control characters in names. The log is held to the golden
// file testdata/sarif/hostile.sarif, which TestCLISARIFIsValid at the
// root validates, with the test's temporary directory written
// file:///hostile.
func TestSARIFHostileInput(t *testing.T) {
	const calls = 200
	base := t.TempDir()
	root := filepath.Join(base, "odd dir #1 %41 é:x", "sub\x1b[31m")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// A long comment, then module calls: in the long run a file near the
	// 2 MiB limit, which takes HCL's scanner a quarter of a CPU second
	// (terraform/config proves the limit every day).
	var b strings.Builder
	b.WriteString("# " + strings.Repeat("x", longtest.Pick(64<<10, 1<<20+1<<19)) + "\n")
	for i := range calls {
		b.WriteString("module \"m" + strings.Repeat("x", i%50) + strconv.Itoa(i) + "\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"~> 5.0.0-beta." + strconv.Itoa(i) + "\"\n}\n")
	}
	long := strings.Repeat(" ", 5000)
	writeFiles(t, root, map[string]string{
		"main.tf":         b.String(),
		"odd # name %.tf": "module \"odd\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n" + long + "version = \"~> 1.0.0-rc1\"\n}\n",
		"\u202eevil.tofu": "module \"tofu_only\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"1.0.0\"\n}\n",
		"prerel.hcl":      "default_policy = \"strict\"\n",
		"versions.tf":     "terraform {\n  required_version = \"< 0.1.0\"\n}\n",
	})
	var code int
	var stdout, stderr string
	code, stdout, stderr = resolveWithin(t, root, "--format", "sarif")
	if code != exitOK && code != exitFinding {
		t.Fatalf("exit %d, want %d or %d; stderr:\n%.2000s", code, exitOK, exitFinding, stderr)
	}
	log := sariftest.Decode(t, []byte(stdout))
	if n := len(log.Runs[0].Results); n < calls {
		t.Errorf("%d results, want one per module call at least", n)
	}
	for _, r := range log.Runs[0].Results {
		u := r.Locations[0].PhysicalLocation.ArtifactLocation
		if !strings.HasPrefix(u.URI, "file:///") || strings.ContainsAny(u.URI, " #\x1b\u202e") {
			t.Fatalf("%s: uri %q, want a file URI, escaped", r.RuleID, u.URI)
		}
	}
	prefix := "file://" + filepath.ToSlash(base) + "/"
	golden.Check(t, filepath.Join("testdata", "sarif", "hostile.sarif"), []byte(strings.ReplaceAll(stdout, prefix, "file:///hostile/")))
}
