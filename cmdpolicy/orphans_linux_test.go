package cmdpolicy

import (
	"os/exec"
	"testing"
)

// TestHasChildren checks that hasChildren sees a child while it runs and
// once it has exited, until it is reaped, and none after: killAdopted
// skips its scan of /proc only when there is no child at all.
func TestHasChildren(t *testing.T) {
	if hasChildren() {
		t.Fatal("hasChildren before any child was started")
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !hasChildren() {
		t.Error("hasChildren is false while a child runs")
	}
	cmd.Process.Kill()
	if !hasChildren() {
		t.Error("hasChildren is false for a child killed and not yet reaped")
	}
	cmd.Wait() // reaped: hasChildren did not take its status
	if cmd.ProcessState == nil || cmd.ProcessState.Success() {
		t.Errorf("the child's status after Wait: %v", cmd.ProcessState)
	}
	if hasChildren() {
		t.Error("hasChildren after the child was reaped")
	}
}
