//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAppend checks that Append creates a file or appends to a regular
// one, and refuses a directory and a FIFO without blocking.
func TestAppend(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.md")
	for _, part := range []string{"one\n", "two\n"} {
		if err := Append(path, []byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != "one\ntwo\n" {
		t.Errorf("the file holds %q", got)
	}
	if err := Append(dir, []byte("x")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if err := Append(fifo, []byte("x")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
	if err := Append(filepath.Join(dir, "no", "such"), []byte("x")); err == nil || strings.Contains(err.Error(), dir) {
		t.Errorf("a missing directory: %v, want the bare cause", err)
	}
}
