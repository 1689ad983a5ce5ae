//go:build unix

package cmdpolicy

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestStopOnSignal runs StopOnSignal in a child process of the test
// binary, which sends itself a signal: the child exits with the status
// of a program killed by it and says so on stderr, holding the lock; or,
// once stop is called, the signal kills it as it would any program.
func TestStopOnSignal(t *testing.T) {
	if sig := os.Getenv("CMDPOLICY_SIGNAL_CHILD"); sig != "" {
		var held sync.Mutex
		stop := StopOnSignal(os.Stderr, "child", &held)
		if os.Getenv("CMDPOLICY_SIGNAL_STOPPED") != "" {
			stop()
		}
		s := syscall.SIGINT
		if sig == "TERM" {
			s = syscall.SIGTERM
		}
		syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Minute) // the signal ends the process first
		os.Exit(99)
	}
	tests := []struct {
		name, sig string
		stopped   bool
		code      int // -1: killed by the signal
		stderr    string
	}{
		{"SIGINT", "INT", false, 130, "child: stopped by SIGINT: the policy commands are stopped, and nothing more is written\n"},
		{"SIGTERM", "TERM", false, 143, "child: stopped by SIGTERM: the policy commands are stopped, and nothing more is written\n"},
		{"stopped", "TERM", true, -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestStopOnSignal$")
			cmd.Env = append(os.Environ(), "CMDPOLICY_SIGNAL_CHILD="+tt.sig)
			if tt.stopped {
				cmd.Env = append(cmd.Env, "CMDPOLICY_SIGNAL_STOPPED=1")
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tt.code || !strings.HasSuffix(stderr.String(), tt.stderr) {
				t.Errorf("%v, stderr %q; want exit status %d and %q", err, stderr.String(), tt.code, tt.stderr)
			}
		})
	}
}
