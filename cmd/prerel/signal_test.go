//go:build linux

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// leaveBehind is a policy command that writes its process id to the file
// cmd.pid, then starts a process in a session of its own (setsid), which
// writes its process id to the file orphan.pid and sleeps, and once that
// file is there allows every case.
const leaveBehind = `echo $$ > cmd.pid
setsid sh -c 'echo $$ > orphan.pid.tmp && mv orphan.pid.tmp orphan.pid && exec sleep 300' </dev/null >/dev/null 2>&1 &
while [ ! -e orphan.pid ]; do sleep 0.01; done
while IFS= read -r line; do echo allow; done
`

// prerelBinary is the test binary under the name prerel, which runs
// prerel's main (TestMain).
func prerelBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "prerel")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// waitPid waits for the file path to hold a process id, and returns it.
func waitPid(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no process id in %s after 30s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processRuns reports whether process pid runs (a zombie does not).
func processRuns(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// waitProcessGone fails t when a process still runs after a generous while.
func waitProcessGone(t *testing.T, what string, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for processRuns(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("%s (process %d) still runs", what, pid)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSignalStopsPolicyCommands checks that SIGINT and SIGTERM stop
// prerel with the conventional status, and with it its policy command
// and a process the command started in a session of its own.
func TestSignalStopsPolicyCommands(t *testing.T) {
	prerel := prerelBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			script := shellScript(t, dir, "leave.sh", leaveBehind)
			cmd := exec.Command(prerel, "eval", "--policy-cmd", "leave=/bin/sh "+script, "--policies", "leave")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// The command runs once it has answered; eval writes a batch
			// at the end of its input, or when it is full: 4096 lines.
			io.WriteString(stdin, strings.Repeat(">= 1.0\t1.0.0\n", 4096))
			line, err := bufio.NewReader(stdout).ReadString('\n')
			if err != nil || line != ">= 1.0\t1.0.0\tallow\n" {
				t.Fatalf("%q, %v\n%s", line, err, stderr.String())
			}
			commandPid := waitPid(t, filepath.Join(dir, "cmd.pid"))
			orphanPid := waitPid(t, filepath.Join(dir, "orphan.pid"))
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			go io.Copy(io.Discard, stdout)
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("prerel ended with %v, want exit status %d\n%s", err, 128+int(sig), stderr.String())
			}
			if !strings.Contains(stderr.String(), "prerel: stopped by ") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
			waitProcessGone(t, "the policy command", commandPid)
			waitProcessGone(t, "the process it started with setsid", orphanPid)
		})
	}
}

// TestNormalRunLeavesNoProcess checks that a run that ends well stops
// what its policy command started in a session of its own.
func TestNormalRunLeavesNoProcess(t *testing.T) {
	prerel := prerelBinary(t)
	dir := t.TempDir()
	script := shellScript(t, dir, "leave.sh", leaveBehind)
	cmd := exec.Command(prerel, "check", "--policy-cmd", "leave=/bin/sh "+script, "--policies", "leave", ">= 1.0", "1.0.0")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	commandPid := waitPid(t, filepath.Join(dir, "cmd.pid"))
	orphanPid := waitPid(t, filepath.Join(dir, "orphan.pid"))
	waitProcessGone(t, "the policy command", commandPid)
	waitProcessGone(t, "the process it started with setsid", orphanPid)
}

// TestPolicyCommandDiesWithPrerel checks that a policy command that
// never answers dies when prerel is killed by SIGKILL, which prerel
// cannot handle.
func TestPolicyCommandDiesWithPrerel(t *testing.T) {
	prerel := prerelBinary(t)
	dir := t.TempDir()
	script := shellScript(t, dir, "sleep.sh", "echo $$ > cmd.pid\nexec sleep 300\n")
	cmd := exec.Command(prerel, "check", "--policy-cmd", "sleeps=/bin/sh "+script, "--policies", "sleeps", ">= 1.0", "1.0.0")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	commandPid := waitPid(t, filepath.Join(dir, "cmd.pid"))
	cmd.Process.Kill()
	cmd.Wait()
	waitProcessGone(t, "the policy command", commandPid)
}

// TestSignalWritesNothing checks that compare --write-baseline stopped by
// a signal while its policy command works leaves the baseline as it was.
func TestSignalWritesNothing(t *testing.T) {
	prerel := prerelBinary(t)
	dir := t.TempDir()
	script := shellScript(t, dir, "slow.sh", "IFS= read -r line\necho allow\necho $$ > cmd.pid\nexec sleep 300\n")
	baseline := filepath.Join(dir, "baseline.json")
	writeFile(t, baseline, "the good baseline\n")
	cmd := exec.Command(prerel, "compare", "--scope", "1", "--policy-cmd", "slow=/bin/sh "+script, "--policies", "strict,slow", "--write-baseline", baseline)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	commandPid := waitPid(t, filepath.Join(dir, "cmd.pid"))
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Errorf("prerel ended with %v, want exit status 143\n%s", err, stderr.String())
	}
	if got := readFile(t, baseline); got != "the good baseline\n" {
		t.Errorf("the baseline was written:\n%.200s", got)
	}
	waitProcessGone(t, "the policy command", commandPid)
}
