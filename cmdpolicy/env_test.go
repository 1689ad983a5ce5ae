//go:build unix

package cmdpolicy

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/bounded"
)

// shellScript writes an executable shell script with body into a
// temporary directory and returns its path.
func shellScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rule.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// envNames is a script that answers every case with the names of the
// variables of its environment, sorted, separated by spaces.
const envNames = `while IFS= read -r line; do
	printf 'allow\t%s\n' "$(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | sort | tr '\n' ' ')"
done
`

func TestCommandGetsASmallEnvironment(t *testing.T) {
	t.Setenv("TF_TOKEN_app_terraform_io", "secret-token")
	t.Setenv("GITHUB_TOKEN", "secret-token")
	t.Setenv("TF_CLI_CONFIG_FILE", "/secret/terraformrc")
	t.Setenv("PRERELTEST_PASSED", "yes")
	t.Setenv("LANG", "C.UTF-8")
	p, err := New("env", []string{"/bin/sh", shellScript(t, envNames)}, Options{Env: []string{"PRERELTEST_PASSED", "PRERELTEST_UNSET"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var r engine.Result
	bounded.Run(t, func() { r = engine.Evaluate(p, ">= 1", "1.0.0") })
	if r.Verdict != engine.Allow {
		t.Fatalf("%+v (%v)", r, p.Err())
	}
	got := strings.Fields(r.Reason)
	for _, secret := range []string{"TF_TOKEN_app_terraform_io", "GITHUB_TOKEN", "TF_CLI_CONFIG_FILE"} {
		if slices.Contains(got, secret) {
			t.Errorf("the command gets %s: %q", secret, got)
		}
	}
	for _, want := range []string{"PATH", "LANG", "PRERELTEST_PASSED"} {
		if !slices.Contains(got, want) {
			t.Errorf("the command lacks %s: %q", want, got)
		}
	}
	if slices.Contains(got, "PRERELTEST_UNSET") {
		t.Errorf("an unset variable is set: %q", got)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestNewRefusesABadVariableName(t *testing.T) {
	for _, name := range []string{"", "A=B", "A\x00"} {
		if _, err := New("env", []string{"/bin/sh"}, Options{Env: []string{name}}); err == nil || !strings.Contains(err.Error(), "cannot name an environment variable") {
			t.Errorf("%q: %v", name, err)
		}
	}
}

// TestStopAllKillsRunningCommands checks that StopAll kills the process
// group of a running command: the command and what it started, and that
// the policy fails.
func TestStopAllKillsRunningCommands(t *testing.T) {
	dir := t.TempDir()
	script := shellScript(t, `sleep 300 &
echo $! > child.pid
while IFS= read -r line; do echo allow; done
`)
	p, err := New("stopped", []string{"/bin/sh", script}, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	bounded.Run(t, func() {
		if r := engine.Evaluate(p, ">= 1", "1.0.0"); r.Verdict != engine.Allow {
			t.Fatalf("%+v", r)
		}
	})
	cmdPid := pid(t, p)
	b, err := os.ReadFile(filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	childPid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	StopAll()
	waitGone(t, cmdPid)
	waitGone(t, childPid)
	var r engine.Result
	bounded.Run(t, func() { r = engine.Evaluate(p, ">= 1", "1.0.0") })
	if !p.NotJudged(r) || p.Err() == nil {
		t.Errorf("after StopAll: %+v, %v", r, p.Err())
	}
}

// TestOnFailureIsCalledOnce checks that OnFailure gets the failure, once,
// as soon as the command fails while judging, and not for a failure that
// Close finds.
func TestOnFailureIsCalledOnce(t *testing.T) {
	var got []error
	p, err := New("fails", []string{"/bin/sh", shellScript(t, "IFS= read -r line\necho allow\nexit 4\n")},
		Options{OnFailure: func(err error) { got = append(got, err) }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	bounded.Run(t, func() {
		m, _ := p.Compile(">= 1")
		results := make([]engine.Result, 3)
		m.(engine.BatchMatcher).MatchAll([]string{"1.0.0", "1.1.0", "1.2.0"}, results)
		if results[0].Verdict != engine.Allow || !p.NotJudged(results[1]) || !p.NotJudged(results[2]) {
			t.Errorf("%+v", results)
		}
		m.Match("1.3.0")
	})
	if len(got) != 1 || got[0] != p.Err() {
		t.Errorf("OnFailure got %v, want once %v", got, p.Err())
	}

	got = nil
	late, err := New("fails-late", []string{"/bin/sh", shellScript(t, "while IFS= read -r line; do echo allow; done\nexit 5\n")},
		Options{OnFailure: func(err error) { got = append(got, err) }})
	if err != nil {
		t.Fatal(err)
	}
	bounded.Run(t, func() { engine.Evaluate(late, ">= 1", "1.0.0") })
	if err := late.Close(); err == nil || len(got) != 0 {
		t.Errorf("Close: %v; OnFailure got %v", err, got)
	}
}
