package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/longtest"
)

// needPython skips a test that runs a policy command written in Python
// when the machine has no python3.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the policy command scripts under testdata/policycmd need it")
	}
}

// namedShell is the rule of testdata/policycmd/prerelease_named.py
// without its comparators, which the cases it is given here all hold: a
// prerelease is admitted when the constraint names one.
const namedShell = `while IFS='	' read -r constraint version; do
	case $version in
	*-*)
		case $constraint in
		*-*) echo 'allow	a prerelease, named' ;;
		*) echo 'reject	a prerelease, and no comparator names one' ;;
		esac ;;
	*) echo 'allow	a release' ;;
	esac
done
`

// TestPolicyCommands runs a policy command in the commands that take
// policies, and its failures. check runs the Python example every day;
// select, eval, explain and compare run it in the long run, and every
// day its rule as a shell script (namedShell), which starts in a
// fraction of Python's time; so do the commands that hang and that
// answer garbage.
func TestPolicyCommands(t *testing.T) {
	needPython(t)
	const named = "named=python3 ../../testdata/policycmd/prerelease_named.py"
	wired, garbage, hang := named, "python3 ../../testdata/policycmd/garbage.py", "python3 ../../testdata/policycmd/hang.py"
	if sh, err := exec.LookPath("sh"); err == nil && !longtest.Enabled() {
		dir := t.TempDir()
		for name, body := range map[string]string{
			"named.sh": namedShell,
			// garbage.py's loop.
			"garbage.sh": "while IFS= read -r line; do printf 'maybe\\tnot sure\\n'; done\n",
			// hang.py: a child that shares its output, and no answer.
			"hang.sh": "sleep 300 &\nwhile IFS= read -r line; do sleep 300; done\n",
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		wired = "named=" + sh + " " + filepath.Join(dir, "named.sh")
		garbage = sh + " " + filepath.Join(dir, "garbage.sh")
		hang = sh + " " + filepath.Join(dir, "hang.sh")
	}
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "policies lists it", args: []string{"policies", "--policy-cmd", named}, code: exitOK,
			stdout: []string{"your own:\n  named\n      the verdicts of the command python3\n      ../../testdata/policycmd/prerelease_named.py\n"}},
		{name: "check", args: []string{"check", "--policy-cmd", named, "--policies", "strict,named", ">= 1.0.0-beta", "1.0.0-rc", "2.0.0-beta"},
			code: exitOK, stdout: []string{"1.0.0-rc    reject  allow", "2.0.0-beta  reject  allow"}},
		{name: "select", args: []string{"select", "--policy-cmd", wired, "--policies", "named", ">= 1.0.0-beta", "1.0.0-rc", "2.0.0-beta", "1.5.0"},
			code: exitOK, stdout: []string{"named", "2.0.0-beta"}},
		{name: "eval", args: []string{"eval", "--policy-cmd", wired, "--policies", "named"}, stdin: ">= 1.0\t1.1.0-beta\n>= 1.0-beta\t1.1.0-beta\n",
			code: exitOK, stdout: []string{">= 1.0\t1.1.0-beta\treject", ">= 1.0-beta\t1.1.0-beta\tallow"}},
		{name: "explain", args: []string{"explain", "--policy-cmd", wired, "--policy", "named", ">= 1.0.0-beta", "1.0.0-rc"},
			code: exitOK, stdout: []string{"allow"}},
		{name: "compare", args: []string{"compare", "--domain", smallDomain(t), "--policy-cmd", wired, "--policies", "linear,named"},
			code: exitOK, stdout: []string{"named"}},
		{name: "a command that hangs", args: []string{"check", "--policy-cmd", "hang=" + hang, "--policy-timeout", "300ms", "--policies", "hang", ">= 1", "1.0.0"},
			code: exitUsage, stderr: []string{`prerel check: policy "hang": command ` + hang + `: gave no answer within 300ms`}},
		{name: "a command that answers garbage", args: []string{"compare", "--scope", "1", "--policy-cmd", "garbage=" + garbage, "--policies", "strict,garbage"},
			code: exitUsage, stderr: []string{`policy "garbage": command ` + garbage + `: answered`, "an answer is allow, reject or invalid"}},
		{name: "a command that is not there", args: []string{"check", "--policy-cmd", "gone=no-such-program-here", ">= 1", "1.0.0"},
			code: exitUsage, stderr: []string{"--policy-cmd gone:", "program not found"}},
		{name: "a name already registered", args: []string{"check", "--policy-cmd", "cargo=python3 x.py", ">= 1", "1.0.0"},
			code: exitUsage, stderr: []string{`--policy-cmd cargo: a policy named "cargo" is already registered`}},
		{name: "a name given twice", args: []string{"check", "--policy-cmd", named, "--policy-cmd", named, ">= 1", "1.0.0"},
			code: exitUsage, stderr: []string{`policy "named" given twice`}},
		{name: "not NAME=COMMAND", args: []string{"check", "--policy-cmd", "python3 x.py", ">= 1", "1.0.0"},
			code: exitUsage, stderr: []string{`expected NAME=COMMAND, got "python3 x.py"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, want := range tt.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			for _, want := range tt.stderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
		})
	}
}
