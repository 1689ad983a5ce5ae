package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/internal/bounded"
	"github.com/prerel/prerel/internal/longtest"
)

const (
	composerStability = "../../testdata/designs/composer-stability.hcl"
	hclCargo          = "../../testdata/designs/hcl-cargo.hcl"
)

// writePolicyFile writes text to a file named name in dir and returns its
// path.
func writePolicyFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	writeFile(t, path, text)
	return path
}

// TestPolicyFileInEveryCommand loads policies written in HCL with
// --policy-file and runs them in every command that takes policies, next
// to the native policies they are checked against.
func TestPolicyFileInEveryCommand(t *testing.T) {
	both := []string{"--policy-file", composerStability, "--policy-file", hclCargo}
	args := func(a ...string) []string { return append(append([]string{a[0]}, both...), a[1:]...) }
	tests := []struct {
		name     string
		args     []string
		stdin    string
		stdout   string   // the whole of stdout, when set
		contains []string // texts stdout holds
	}{
		{
			name: "policies lists them after the registered ones, with their rules",
			args: args("policies"),
			contains: []string{
				"\n  go-versions-cargo\n      the cargo rule built in go-versions set algebra",
				"\nyour own:\n  composer-stability\n" +
					"      a prerelease in range when it is at least as stable as the least stable\n" +
					"      prerelease the constraint names: dev < alpha < beta < RC (Composer)\n" +
					"  hcl-cargo\n" +
					"      cargo in HCL: a prerelease only when a comparator other than != names a\n" +
					"      prerelease of the same base\n",
			},
		},
		{
			name: "check gives their verdicts",
			args: args("check", "--policies", "cargo,hcl-cargo,composer-stability", ">= 1.0.0-beta",
				"1.0.0-rc.1", "1.0.0-beta.2", "1.0.0-alpha.1", "1.1.0-beta.1", "1.1.0-alpha.1", "1.0.0", "0.9.0"),
			stdout: `constraint: >= 1.0.0-beta
policies disagree on 1 of 7 versions (marked *)

   VERSION        cargo   hcl-cargo  composer-stability
   1.0.0-rc.1     allow   allow      allow
   1.0.0-beta.2   allow   allow      allow
   1.0.0-alpha.1  reject  reject     reject
*  1.1.0-beta.1   reject  reject     allow
   1.1.0-alpha.1  reject  reject     reject
   1.0.0          allow   allow      allow
   0.9.0          reject  reject     reject

* the policies do not all give this version the same verdict
`,
		},
		{
			name:  "eval gives their verdicts",
			args:  args("eval", "--policies", "cargo,hcl-cargo,composer-stability"),
			stdin: ">= 1.0.0-beta\t1.0.0-rc.1\n>= 1.0.0-beta\t1.0.0-alpha.1\n>= 1.0.0-beta\t1.1.0-beta.1\n~> 1.2\t1.3.0\n=> 1\t1.0.0\n",
			stdout: ">= 1.0.0-beta\t1.0.0-rc.1\tallow\tallow\tallow\n" +
				">= 1.0.0-beta\t1.0.0-alpha.1\treject\treject\treject\n" +
				">= 1.0.0-beta\t1.1.0-beta.1\treject\treject\tallow\n" +
				"~> 1.2\t1.3.0\tallow\tallow\tallow\n" +
				"=> 1\t1.0.0\tinvalid\tinvalid\tinvalid\n",
		},
		{
			name: "select picks the newest version each admits",
			args: args("select", "--policies", "cargo,hcl-cargo,composer-stability", ">= 1.0.0-beta",
				"1.0.0-alpha.1", "1.0.0-beta.2", "0.9.0", "1.0.0-rc.1", "1.1.0-beta.1", "1.1.0-alpha.1"),
			stdout: `constraint: >= 1.0.0-beta
available:  6 versions

POLICY              SELECTS
cargo               1.0.0-rc.1
hcl-cargo           1.0.0-rc.1
composer-stability  1.1.0-beta.1
`,
		},
		{
			name: "explain shows the expression and the values it saw",
			args: args("explain", "--policy", "composer-stability", ">= 0.9.0-beta", "1.0.0-alpha.1"),
			contains: []string{
				"policy:     composer-stability\nrule:       a prerelease in range when it is at least as stable",
				"policy      written in HCL at " + composerStability + ":11:1\n",
				"admit       false: the version is rejected\n            satisfies(constraint, version) && (\n",
				`prerelease_text = "alpha.1"`,
				`regex("^[A-Za-z]*", version.prerelease_text) = "alpha"`,
				"\nverdict:    reject\nreason:     (!version.is_prerelease || lookup({ dev = 0, alpha = 1, a = 1,\n",
				"is false\n            (version.is_prerelease is true, version.prerelease_text is\n",
			},
		},
		{
			name: "compare finds no divergence from the native policy it restates",
			args: args("compare", "--scope", "1", "--policies", "cargo,hcl-cargo", "--reference", "cargo"),
			contains: []string{
				"prerel compare: 2 policies, each compared with cargo, on 31,752 cases.\n",
				"\n    100%       -      -  hcl-cargo (same as cargo)\n",
				"\nnone: every pair agrees on every case\n",
			},
		},
		{
			name: "resolve uses it as the default policy",
			args: args("resolve", "--index", resolveIndex, "--lock-file", "-", "--policy", "hcl-cargo", resolveExample),
			contains: []string{
				"\ndefault policy: hcl-cargo (--policy hcl-cargo)\n",
				"   consul_beta  >= 1.0.0-beta1       2.0.3    2.0.3\n",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tt.stdin, tt.args...)
			if code != exitOK {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
			}
			if stderr != "" {
				t.Errorf("stderr:\n%s", stderr)
			}
			if tt.stdout != "" && stdout != tt.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, tt.stdout)
			}
			mustContain(t, "stdout", stdout, tt.contains)
		})
	}
}

// TestPolicyFileExplainShowsTheValuesOfEachPart checks, in the JSON
// output, the steps of an HCL policy's explanation: the admit expression,
// then the value of each part of it that was evaluated.
func TestPolicyFileExplainShowsTheValuesOfEachPart(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "explain", "--format", "json", "--policy-file", composerStability,
		"--policy", "composer-stability", ">= 0.9.0-beta", "1.0.0-alpha.1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Policy, Verdict, Reason string
		Steps                   []struct{ Subject, Detail string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	// The reason names the operand of admit's && that is false, and the
	// attributes it reads.
	reason := `(!version.is_prerelease || lookup({ dev = 0, alpha = 1, a = 1, bet…), 0) if c.names_prerelease]...)) is false` +
		` (version.is_prerelease is true, version.prerelease_text is "alpha.1", constraint.comparators is [">= 0.9.0-beta"])`
	if rep.Policy != "composer-stability" || rep.Verdict != "reject" || rep.Reason != reason {
		t.Errorf("policy %q, verdict %q, reason %q; want composer-stability, reject, %q", rep.Policy, rep.Verdict, rep.Reason, reason)
	}
	details := map[string][]string{}
	for _, s := range rep.Steps {
		details[s.Subject] = append(details[s.Subject], s.Detail)
	}
	if v := details["version"]; !slices.Contains(v, `  prerelease_text = "alpha.1"`) || !slices.Contains(v, "  is_prerelease = true") {
		t.Errorf("version steps %q, want the fields the expression read", v)
	}
	admit := details["admit"]
	if len(admit) < 3 || admit[0] != "false: the version is rejected" || admit[1] != "satisfies(constraint, version) && (" {
		t.Errorf("admit steps %q, want the answer, then the expression", admit)
	}
	for _, want := range []string{
		"satisfies(constraint, version) = true",
		`regex("^[A-Za-z]*", version.prerelease_text) = "alpha"`,
	} {
		if !slices.Contains(admit, want) {
			t.Errorf("admit steps lack %q: %q", want, admit)
		}
	}
}

// TestPolicyFileImpactMatchesTheNativePolicy runs impact on the corpus
// with hcl-cargo: the same report as cargo's but for the name, and no
// change against cargo itself.
func TestPolicyFileImpactMatchesTheNativePolicy(t *testing.T) {
	longtest.Skip(t) // hclpolicy proves hcl-cargo equal to cargo every day
	code, native, stderr := runCLI(t, "", "impact", "--policy", "cargo")
	if code != exitOK {
		t.Fatalf("impact --policy cargo: exit %d: %s", code, stderr)
	}
	code, written, stderr := runCLI(t, "", "impact", "--policy-file", hclCargo, "--policy", "hcl-cargo")
	if code != exitOK {
		t.Fatalf("impact --policy hcl-cargo: exit %d: %s", code, stderr)
	}
	if !strings.Contains(written, "\nanswer: 0 of the ") {
		t.Errorf("hcl-cargo changes what installs:\n%s", written)
	}
	if got := strings.ReplaceAll(written, "hcl-cargo", "cargo"); got != native {
		t.Errorf("impact of hcl-cargo, renamed:\n%s\nimpact of cargo:\n%s", got, native)
	}
	code, against, stderr := runCLI(t, "", "impact", "--policy-file", hclCargo, "--policy", "hcl-cargo", "--against", "cargo")
	if code != exitOK {
		t.Fatalf("impact --against cargo: exit %d: %s", code, stderr)
	}
	mustContain(t, "stdout", against, []string{"\nagainst: cargo for every call\n", "\nanswer: 0 of the ", " would\n  install differently under hcl-cargo than under cargo\n"})
}

// TestPolicyFileResolveSelectsAsTheNativePolicy resolves the example
// root module with hcl-cargo and with cargo: every item gets the same
// version.
func TestPolicyFileResolveSelectsAsTheNativePolicy(t *testing.T) {
	run := func(args ...string) resolveJSON {
		t.Helper()
		args = append([]string{"resolve", "--format", "json", "--index", resolveIndex, "--lock-file", "-"}, args...)
		code, stdout, stderr := runCLI(t, "", append(args, resolveExample)...)
		if code != exitOK {
			t.Fatalf("prerel %q: exit %d: %s", args, code, stderr)
		}
		var rep resolveJSON
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%v:\n%s", err, stdout)
		}
		return rep
	}
	written := run("--policy-file", hclCargo, "--policy", "hcl-cargo")
	native := run("--policy", "cargo")
	if len(written.Items) != len(native.Items) || len(written.Items) == 0 {
		t.Fatalf("%d items with hcl-cargo, %d with cargo", len(written.Items), len(native.Items))
	}
	defaults := 0
	for i, w := range written.Items {
		n := native.Items[i]
		if w.Name != n.Name || w.Kind != n.Kind {
			t.Fatalf("item %d: %s %s with hcl-cargo, %s %s with cargo", i, w.Kind, w.Name, n.Kind, n.Name)
		}
		if w.Policy == "hcl-cargo" {
			defaults++
			if n.Policy != "cargo" {
				t.Errorf("%s %s: policy %s with --policy cargo, want cargo", n.Kind, n.Name, n.Policy)
			}
		} else if w.Policy != n.Policy {
			t.Errorf("%s %s: policy %s, then %s", w.Kind, w.Name, w.Policy, n.Policy)
		}
		if deref(w.Selected) != deref(n.Selected) {
			t.Errorf("%s %s: hcl-cargo selects %s, cargo %s", w.Kind, w.Name, deref(w.Selected), deref(n.Selected))
		}
	}
	if defaults == 0 {
		t.Error("no item is resolved with hcl-cargo")
	}
}

func deref(s *string) string {
	if s == nil {
		return "none"
	}
	return *s
}

// TestPolicyFileCommandBlock runs a command block of a policy file: its
// command runs in the file's directory.
func TestPolicyFileCommandBlock(t *testing.T) {
	needPython(t)
	script, err := filepath.Abs("../../testdata/policycmd/prerelease_named.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := writePolicyFile(t, dir, "named.hcl", `policy "named" {
  rule    = "a prerelease when the constraint names one"
  command = ["python3", "`+script+`"]
}
`)
	code, stdout, stderr := runCLI(t, "", "policies", "--policy-file", file)
	if code != exitOK || !strings.HasSuffix(stdout, "\nyour own:\n  named\n      a prerelease when the constraint names one\n") {
		t.Errorf("policies: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "", "check", "--policy-file", file, "--policies", "strict,named",
		">= 1.0.0-beta", "1.0.0-rc", "2.0.0-beta", "0.9.0")
	want := `constraint: >= 1.0.0-beta
policies disagree on 2 of 3 versions (marked *)

   VERSION     strict  named
*  1.0.0-rc    reject  allow
*  2.0.0-beta  reject  allow
   0.9.0       reject  reject

* the policies do not all give this version the same verdict
`
	if code != exitOK || stdout != want {
		t.Errorf("check: exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, want, stderr)
	}

	// A script named relative to the file is found in the file's
	// directory, wherever prerel runs: every day the example's rule as a
	// shell script (namedShell), which starts in a fraction of Python's
	// time, and the example itself in the long run.
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	interpreter, rule := "python3", "rule.py"
	if _, err := exec.LookPath("sh"); err == nil && !longtest.Enabled() {
		interpreter, rule, src = "sh", "rule.sh", []byte(namedShell)
	}
	writeFile(t, filepath.Join(dir, rule), string(src))
	file = writePolicyFile(t, dir, "relative.hcl", `policy "named" {
  command = ["`+interpreter+`", "`+rule+`"]
}
`)
	code, stdout, stderr = runCLI(t, ">= 1.0\t1.1.0-beta\n>= 1.0-beta\t1.1.0-beta\n", "eval", "--policy-file", file, "--policies", "named")
	if want := ">= 1.0\t1.1.0-beta\treject\n>= 1.0-beta\t1.1.0-beta\tallow\n"; code != exitOK || stdout != want {
		t.Errorf("eval: exit %d\nstdout:\n%q\nwant:\n%q\nstderr:\n%s", code, stdout, want, stderr)
	}
}

// policyTakers are the commands that take policies, each with arguments
// it runs with once its policies are loaded.
var policyTakers = []struct {
	command string
	args    []string
}{
	{"policies", nil},
	{"check", []string{">= 1", "1.0.0"}},
	{"eval", nil},
	{"select", []string{">= 1", "1.0.0"}},
	{"explain", []string{"--policy", "cargo", ">= 1", "1.0.0"}},
	{"compare", []string{"--scope", "1", "--policies", "strict,cargo"}},
	{"impact", []string{"--policy", "cargo"}},
	{"resolve", []string{"--index", resolveIndex, "--lock-file", "-", resolveExample}},
}

// TestPolicyFileMistakes gives every command that takes policies a policy
// file it cannot use: each refuses it with exit status 2, before any
// output, and names the file, and the line and column of a mistake in it.
func TestPolicyFileMistakes(t *testing.T) {
	tests := []struct {
		name string
		// file writes the policy file in dir and returns its name; the
		// policy flags default to --policy-file with that name.
		file  func(t *testing.T, dir string) string
		flags func(t *testing.T, file string) []string
		// stderr is what follows "prerel COMMAND: ", FILE standing for
		// the file's name and DIR for its directory.
		stderr string
	}{
		{
			name:   "a syntax error",
			file:   policyText("policy \"broken\" {\n  admit = satisfies(constraint, version) &&\n}\n"),
			stderr: "FILE:2:44: Invalid expression; Expected the start of an expression, but found an invalid expression token.\n",
		},
		{
			name:   "an unknown variable",
			file:   policyText("policy \"typo\" {\n  admit = versio.is_prerelease\n}\n"),
			stderr: `FILE:2:11: Unknown variable; There is no variable named "versio"; admit sees version and constraint. Did you mean "version"?` + "\n",
		},
		{
			name:   "an unknown function",
			file:   policyText("policy \"nope\" {\n  admit = nope(version)\n}\n"),
			stderr: `FILE:2:11: Call to unknown function; There is no function named "nope".` + "\n",
		},
		{
			name:   "an admit that is not a bool",
			file:   policyText("policy \"major\" {\n  admit = version.major\n}\n"),
			stderr: "FILE:2:11: admit must be a bool; The admit expression gives a number; it must give true or false.\n",
		},
		{
			name:   "the name of a registered policy",
			file:   policyText("policy \"cargo\" {\n  admit = true\n}\n"),
			stderr: `FILE:1:8: Policy name already registered; "cargo" is the name of a registered policy (`,
		},
		{
			name: "a policy another policy file declares",
			file: policyText("policy \"mine\" {\n  admit = true\n}\n"),
			flags: func(t *testing.T, file string) []string {
				other := writePolicyFile(t, filepath.Dir(file), "other.hcl", "policy \"yours\" {\n  admit = false\n}\n\npolicy \"mine\" {\n  admit = false\n}\n")
				return []string{"--policy-file", file, "--policy-file", other}
			},
			stderr: `DIR/other.hcl:5:8: Policy name already registered; "mine" is the name of a policy declared at DIR/policy.hcl:1:8; give this policy another name`,
		},
		{
			name: "the same file under two names",
			file: policyText("policy \"mine\" {\n  admit = true\n}\n"),
			flags: func(t *testing.T, file string) []string {
				return []string{"--policy-file", file, "--policy-file", filepath.Dir(file) + "/./" + filepath.Base(file)}
			},
			stderr: `--policy-file DIR/./policy.hcl: the file DIR/policy.hcl is already given` + "\n",
		},
		{
			name: "the same file twice",
			file: policyText("policy \"mine\" {\n  admit = true\n}\n"),
			flags: func(t *testing.T, file string) []string {
				return []string{"--policy-file", file, "--policy-file", file}
			},
			stderr: `invalid argument "FILE" for "--policy-file" flag: "FILE" given twice` + "\n",
		},
		{
			name:   "a missing file",
			file:   func(t *testing.T, dir string) string { return filepath.Join(dir, "missing.hcl") },
			stderr: "FILE: Cannot read the policy file; ",
		},
		{
			name: "a FIFO",
			file: func(t *testing.T, dir string) string {
				fifo := filepath.Join(dir, "policy.hcl")
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
				return fifo
			},
			stderr: "FILE: Cannot read the policy file; It is not a regular file (it is a FIFO or pipe).\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file(t, t.TempDir())
			flags := []string{"--policy-file", file}
			if tt.flags != nil {
				flags = tt.flags(t, file)
			}
			want := strings.NewReplacer("FILE", file, "DIR", filepath.Dir(file)).Replace(tt.stderr)
			for _, c := range policyTakers {
				args := append(append([]string{c.command}, flags...), c.args...)
				// A FIFO with no writer blocks whoever opens it to read.
				bounded.Run(t, func() {
					code, stdout, stderr := runCLI(t, "", args...)
					if code != exitUsage || stdout != "" || !strings.Contains(stderr, "prerel "+c.command+": "+want) {
						t.Errorf("prerel %q: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d, no output and %q", args, code, stdout, stderr, exitUsage, "prerel "+c.command+": "+want)
					}
				})
			}
		})
	}
}

// policyText returns a file function of TestPolicyFileMistakes that
// writes text as policy.hcl.
func policyText(text string) func(*testing.T, string) string {
	return func(t *testing.T, dir string) string { return writePolicyFile(t, dir, "policy.hcl", text) }
}

// sixthTag is a policy whose admit fails on every prerelease with fewer
// than six identifiers.
const sixthTag = `policy "sixth-tag" {
  admit = version.is_prerelease ? version.prerelease[5] == "x" : satisfies(constraint, version)
}
`

// sixthTagError is the reason of sixthTag's invalid verdicts, after the
// file's name.
const sixthTagError = ":2:53: Invalid index; The given key does not identify an element in this collection value."

// sixthTagFailure is what a command that judged the cases of
// TestPolicyFileErrorOnOneCase says on stderr after its output, FILE
// standing for the file: the error, once, with how many cases gave it.
const sixthTagFailure = `the policy sixth-tag failed on 1 case, each invalid:
  FILE` + sixthTagError + `
    (1 case; first: ">= 1.0.0-beta" with "1.0.0-rc.1")
`

// TestPolicyFileErrorOnOneCase checks that an admit that fails on a case
// makes that case invalid, with the diagnostic as the reason, and leaves
// the other cases to the policy; the command's output is complete, and
// it then reports the error once on stderr and exits 2.
func TestPolicyFileErrorOnOneCase(t *testing.T) {
	file := writePolicyFile(t, t.TempDir(), "sixth.hcl", sixthTag)
	reason := file + sixthTagError

	code, stdout, stderr := runCLI(t, "", "check", "--policy-file", file, "--policies", "strict,sixth-tag",
		">= 1.0.0-beta", "1.0.0-rc.1", "1.0.0", "1.0.0-a.b.c.d.e.x", "0.9.0")
	failed := func(cmd string) string {
		return "prerel " + cmd + ": " + strings.ReplaceAll(sixthTagFailure, "FILE", file)
	}
	want := `constraint: >= 1.0.0-beta
policies disagree on 2 of 4 versions (marked *): allow vs reject on 1

   VERSION            strict  sixth-tag
*  1.0.0-rc.1         reject  invalid
   1.0.0              allow   allow
*  1.0.0-a.b.c.d.e.x  reject  allow
   0.9.0              reject  reject

* the policies do not all give this version the same verdict
`
	if code != exitUsage || stdout != want || stderr != failed("check") {
		t.Errorf("check: exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", code, stdout, want, stderr, failed("check"))
	}

	code, stdout, stderr = runCLI(t, "", "check", "--format", "json", "--policy-file", file, "--policies", "sixth-tag",
		">= 1.0.0-beta", "1.0.0-rc.1", "1.0.0")
	if code != exitUsage || stderr != failed("check") {
		t.Fatalf("check --format json: exit %d: %s", code, stderr)
	}
	var rep struct {
		Versions []struct {
			Version string
			Results []struct{ Policy, Verdict, Reason string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	type result struct{ version, verdict, reason string }
	var got []result
	for _, v := range rep.Versions {
		for _, r := range v.Results {
			got = append(got, result{v.Version, r.Verdict, r.Reason})
		}
	}
	if wantResults := []result{{"1.0.0-rc.1", "invalid", reason}, {"1.0.0", "allow", `version.is_prerelease ? version.prerelease[5] == "x" : satisfies(constraint, version) is true (version.is_prerelease is false)`}}; !slices.Equal(got, wantResults) {
		t.Errorf("check --format json: %q\nwant %q", got, wantResults)
	}

	code, stdout, stderr = runCLI(t, ">= 1.0.0-beta\t1.0.0-rc.1\n>= 1.0.0\t1.0.0\n", "eval", "--policy-file", file, "--policies", "sixth-tag")
	if want := ">= 1.0.0-beta\t1.0.0-rc.1\tinvalid\n>= 1.0.0\t1.0.0\tallow\n"; code != exitUsage || stdout != want || stderr != failed("eval") {
		t.Errorf("eval: exit %d\nstdout:\n%q\nwant:\n%q\nstderr:\n%s", code, stdout, want, stderr)
	}

	code, stdout, stderr = runCLI(t, "", "select", "--policy-file", file, "--policies", "sixth-tag", ">= 1.0.0-beta", "1.0.0-rc.1", "1.0.0")
	want = `constraint: >= 1.0.0-beta
available:  2 versions

POLICY     SELECTS
sixth-tag  1.0.0

note: sixth-tag cannot read "1.0.0-rc.1": ` + reason + "\n"
	if code != exitUsage || stdout != want || stderr != failed("select") {
		t.Errorf("select: exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, want, stderr)
	}

	code, stdout, stderr = runCLI(t, "", "explain", "--policy-file", file, "--policy", "sixth-tag", ">= 1.0.0-beta", "1.0.0-rc.1")
	if want := "verdict: invalid reason: " + reason; code != exitUsage || !strings.HasSuffix(strings.Join(strings.Fields(stdout), " "), want) || stderr != failed("explain") {
		t.Errorf("explain: exit %d\nstdout:\n%s\nwant it to end with:\n%s\nstderr:\n%s", code, stdout, want, stderr)
	}
}

// TestPolicyFileErrorOnSomeCasesInCompare compares a policy whose admit
// fails on some cases: the run completes, and those cases are the
// policy's invalid verdicts, with the diagnostic as the reason; the
// error is then reported once on stderr, with how many cases gave it,
// and the exit status is 2.
func TestPolicyFileErrorOnSomeCasesInCompare(t *testing.T) {
	file := writePolicyFile(t, t.TempDir(), "sixth.hcl", sixthTag)
	// Four constraints with six versions each, three of them prereleases
	// the policy fails on.
	var cases strings.Builder
	for _, c := range []string{"!= 1", ">= 1.0.0-beta", "~> 1.0", ">= 2.0.0"} {
		for _, v := range []string{"0.0.0-alpha", "1.0.0-beta", "1.0.0-rc.1", "1.0.0", "1.2.0", "2.0.0"} {
			cases.WriteString(c + "\t" + v + "\n")
		}
	}
	domain := writePolicyFile(t, t.TempDir(), "cases.tsv", cases.String())
	code, stdout, stderr := runCLI(t, "", "compare", "--format", "json", "--domain", domain, "--policy-file", file, "--policies", "strict,sixth-tag")
	wantStderr := "prerel compare: the policy sixth-tag failed on 12 cases, each invalid:\n  " + file + sixthTagError +
		"\n    (12 cases; first: \"!= 1\" with \"0.0.0-alpha\")\n"
	if code != exitUsage || stderr != wantStderr {
		t.Fatalf("exit %d: %s\nwant exit 2 and\n%s", code, stderr, wantStderr)
	}
	var rep struct {
		Domain  struct{ Cases int }
		Summary []struct {
			Policies                []string
			Agree, Diverge, Refuses int
		}
		Classes []struct {
			A, B    string
			Count   int
			Witness struct {
				Constraint, Version string
				AVerdict            string `json:"a_verdict"`
				BVerdict            string `json:"b_verdict"`
				BReason             string `json:"b_reason"`
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if len(rep.Summary) != 1 || !slices.Equal(rep.Summary[0].Policies, []string{"sixth-tag"}) {
		t.Fatalf("summary: %+v", rep.Summary)
	}
	s := rep.Summary[0]
	if s.Refuses == 0 || s.Agree == 0 || s.Agree+s.Diverge != rep.Domain.Cases {
		t.Errorf("sixth-tag: %d cases agree, %d diverge, %d refused, of %d; want some refused, some agreeing", s.Agree, s.Diverge, s.Refuses, rep.Domain.Cases)
	}
	invalid := 0
	for _, c := range rep.Classes {
		if c.Witness.BVerdict != "invalid" {
			continue
		}
		invalid += c.Count
		if c.Witness.BReason != file+sixthTagError {
			t.Errorf("the invalid verdict on %q, %s has the reason %q, want %q", c.Witness.Constraint, c.Witness.Version, c.Witness.BReason, file+sixthTagError)
		}
	}
	if invalid == 0 {
		t.Errorf("no class of invalid verdicts:\n%s", stdout)
	}

	// The report names the policy that failed, with its error, the
	// number of cases and the first, in every format; the exit status
	// stays 2.
	var errs struct {
		PolicyErrors []compare.PolicyError `json:"policy_errors"`
	}
	if err := json.Unmarshal([]byte(stdout), &errs); err != nil {
		t.Fatal(err)
	}
	want := []compare.PolicyError{{Policy: "sixth-tag", Cases: 12, Errors: []compare.PolicyErrorGroup{
		{Reason: file + sixthTagError, Cases: 12, Constraint: "!= 1", Version: "0.0.0-alpha"}}}}
	if !reflect.DeepEqual(errs.PolicyErrors, want) {
		t.Errorf("policy_errors = %+v, want %+v", errs.PolicyErrors, want)
	}
	for format, parts := range map[string][]string{
		"text":     {"Policies that failed on some cases.", "sixth-tag failed on 12 cases:", `(12 cases; first: "!= 1" with "0.0.0-alpha")`},
		"markdown": {"### Policies that failed on some cases", "- `sixth-tag` failed on 12 cases:", "(12 cases; first: `!= 1` with `0.0.0-alpha`)"},
		"html":     {`<section id="policy-errors">`, "<code>sixth-tag</code> failed on 12 cases:", "Invalid index;", "first: <code>!= 1</code> with <code>0.0.0-alpha</code>"},
	} {
		code, stdout, stderr := runCLI(t, "", "compare", "--format", format, "--domain", domain, "--policy-file", file, "--policies", "strict,sixth-tag")
		if code != exitUsage || stderr != wantStderr {
			t.Errorf("%s: exit %d: %s\nwant exit 2 and\n%s", format, code, stderr, wantStderr)
		}
		for _, p := range parts {
			if !strings.Contains(stdout, p) {
				t.Errorf("%s: the report has no %q", format, p)
			}
		}
	}
}

// TestPolicyBlockInPrerelHCL declares a policy in a root module's
// prerel.hcl and makes it the default policy.
func TestPolicyBlockInPrerelHCL(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `module "consul" {
  source  = "hashicorp/consul-k8s/kubernetes"
  version = ">= 1.0.0-beta1, < 2.0.0"
}
`,
		"prerel.hcl": `default_policy = "in-range"

policy "in-range" {
  rule  = "every version in range by precedence, prereleases included"
  admit = satisfies(constraint, version)
}
`,
	})
	code, stdout, stderr := runCLI(t, "", "resolve", "--index", resolveIndex, "--lock-file", "-", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mustContain(t, "stdout", stdout, []string{
		"\ndefault policy: in-range (" + filepath.Join(dir, "prerel.hcl") + ":1:18)\n",
		"\n   MODULE  CONSTRAINT               TODAY   SELECTS\n" +
			"*  consul  >= 1.0.0-beta1, < 2.0.0  1.9.11  2.0.0-rc2\n",
	})
}

// TestPrerelHCLNamesAPolicyFilesPolicy names a policy of a --policy-file
// as prerel.hcl's default policy.
func TestPrerelHCLNamesAPolicyFilesPolicy(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `module "consul" {
  source  = "hashicorp/consul-k8s/kubernetes"
  version = ">= 1.0.0-beta1, < 2.0.0"
}
`,
		"prerel.hcl": `default_policy = "composer-stability"` + "\n",
	})
	code, stdout, stderr := runCLI(t, "", "resolve", "--policy-file", composerStability, "--index", resolveIndex, "--lock-file", "-", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mustContain(t, "stdout", stdout, []string{
		"\ndefault policy: composer-stability (" + filepath.Join(dir, "prerel.hcl") + ":1:18)\n",
		"\n*  consul  >= 1.0.0-beta1, < 2.0.0  1.9.11  2.0.0-rc2\n",
	})
}

// TestPolicyBlockInPrerelHCLRunsNoCommand refuses a command block in
// prerel.hcl, without running its command.
func TestPolicyBlockInPrerelHCLRunsNoCommand(t *testing.T) {
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	writeFiles(t, dir, map[string]string{
		"main.tf": `module "consul" {
  source  = "hashicorp/consul-k8s/kubernetes"
  version = ">= 1.0.0"
}
`,
		"prerel.hcl": `policy "named" {
  command = ["sh", "-c", "touch ` + ran + `"]
}
`,
	})
	code, stdout, stderr := runCLI(t, "", "resolve", "--index", resolveIndex, "--lock-file", "-", dir)
	want := "prerel resolve: " + filepath.Join(dir, "prerel.hcl") + `:2:13: Command policy not allowed here; The policy "named" runs a command; `
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d, no output and %q", code, stdout, stderr, exitUsage, want)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the command ran")
	}
}

// TestPolicyBlockInPrerelHCLFails declares in prerel.hcl a policy whose
// admit fails on the module's versions: resolve prints its report, then
// the error once, and exits 2; pin writes nothing.
func TestPolicyBlockInPrerelHCLFails(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `module "consul" {
  source  = "hashicorp/consul-k8s/kubernetes"
  version = ">= 1.0.0-beta1, < 2.0.0"
}
`,
		"prerel.hcl": `default_policy = "sixth-tag"

policy "sixth-tag" {
  admit = version.is_prerelease ? version.prerelease[5] == "x" : satisfies(constraint, version)
}
`,
	})
	code, stdout, stderr := runCLI(t, "", "resolve", "--index", resolveIndex, "--lock-file", "-", dir)
	want := "prerel resolve: the policy sixth-tag failed on "
	if code != exitUsage || !strings.Contains(stdout, "sixth-tag") || !strings.HasPrefix(stderr, want) ||
		!strings.Contains(stderr, filepath.Join(dir, "prerel.hcl")+":4:53: Invalid index;") || strings.Count(stderr, "Invalid index") != 1 {
		t.Fatalf("resolve: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, _, stderr = runCLI(t, "", "pin", "--index", resolveIndex, "--lock-file", "-", dir)
	if code != exitUsage || !strings.HasPrefix(stderr, "prerel pin: the policy sixth-tag failed on ") {
		t.Fatalf("pin: exit %d\nstderr:\n%s", code, stderr)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*override*")); len(matches) > 0 {
		t.Fatalf("pin wrote %v", matches)
	}
}
