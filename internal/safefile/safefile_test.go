package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "main.tf")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	zero := filepath.Join(dir, "zero.tf")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, kind string
	}{
		{"fifo", fifo, "a FIFO or pipe"},
		{"device behind a symlink", zero, "a character device"},
		{"directory", dir, "a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := Read(tt.path, ConfigLimit); done <- err }()
			select {
			case err := <-done:
				var nr *NotRegularError
				if !errors.As(err, &nr) {
					t.Fatalf("Read(%s) = %v, want a NotRegularError", tt.path, err)
				}
				if want := tt.path + " is not a regular file (it is " + tt.kind + ")"; err.Error() != want {
					t.Errorf("error = %q, want %q", err, want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Read blocked")
			}
		})
	}
}

func TestReadLimitsTheSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.tf")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 101)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path, 100); !IsTooLarge(err) || err.Error() != path+" is larger than 100 bytes, the limit for this kind of file" {
		t.Fatalf("Read over the limit: %v", err)
	}
	data, err := Read(path, 101)
	if err != nil || len(data) != 101 {
		t.Fatalf("Read at the limit: %d bytes, %v", len(data), err)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing"), 100); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestReadNamedReadsAPipeOnceAndNeverBlocks(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "cases")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	if !IsPipe(fifo) {
		t.Fatal("IsPipe(fifo) = false")
	}
	if _, err := Read(fifo, 100); !IsNotRegular(err) {
		t.Fatalf("Read(fifo) = %v, want refused", err)
	}
	// Nobody writes: the pipe reads as empty at once.
	done := make(chan []byte, 1)
	go func() { data, _ := ReadNamed(fifo, 100); done <- data }()
	select {
	case data := <-done:
		if len(data) != 0 {
			t.Fatalf("read %q from a pipe nobody writes to", data)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadNamed blocked on a pipe with no writer")
	}
	// A pipe with a writer is read to its end.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { io.WriteString(w, ">= 1.0\t1.0.0\n"); w.Close() }()
	data, err := ReadNamed("/proc/self/fd/"+itoa(int(r.Fd())), 100)
	r.Close()
	if err != nil || string(data) != ">= 1.0\t1.0.0\n" {
		t.Fatalf("ReadNamed(pipe) = %q, %v", data, err)
	}
	if _, err := ReadNamed("/dev/zero", 100); !IsNotRegular(err) {
		t.Fatalf("ReadNamed(/dev/zero) = %v, want refused", err)
	}
}

func TestLimited(t *testing.T) {
	r := Limited(strings.NewReader("abcdef"), "f", 5)
	data, err := io.ReadAll(r)
	if !IsTooLarge(err) || string(data) != "abcde" {
		t.Fatalf("Limited over: %q, %v", data, err)
	}
	data, err = io.ReadAll(Limited(strings.NewReader("abcde"), "f", 5))
	if err != nil || string(data) != "abcde" {
		t.Fatalf("Limited at: %q, %v", data, err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
