package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/printable"
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
	// Nobody opens it for writing: refused after WriterWait, never a hang.
	defer func(w time.Duration) { WriterWait = w }(WriterWait)
	WriterWait = 50 * time.Millisecond
	done := make(chan error, 1)
	go func() { _, err := ReadNamed(fifo, 100); done <- err }()
	select {
	case err := <-done:
		var nw *NoWriterError
		if runtime.GOOS == "linux" && !errors.As(err, &nw) {
			t.Fatalf("ReadNamed(fifo nobody writes to) = %v, want a *NoWriterError", err)
		}
	case <-time.After(time.Minute):
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

// A FIFO whose writer opens it late is read as cat reads it: ReadNamed
// waits for the writer, and reads what it writes.
func TestReadNamedWaitsForALateWriter(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("waits for a FIFO's writer on Linux only")
	}
	fifo := filepath.Join(t.TempDir(), "versions")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() { data, err := ReadNamed(fifo, 100); done <- result{data, err} }()
	// The writer opens the FIFO late, once the reader is likely waiting;
	// had the reader not opened it yet, the writer's open waits for it.
	wrote := make(chan error, 1)
	go func() {
		time.Sleep(200 * time.Millisecond)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			_, err = io.WriteString(w, "1.0.0\n")
			w.Close()
		}
		wrote <- err
	}()
	defer func() {
		// A reader that gave up leaves the writer's open waiting: release it.
		for {
			select {
			case <-wrote:
				return
			case <-time.After(10 * time.Millisecond):
				if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					r.Close()
				}
			}
		}
	}()
	select {
	case r := <-done:
		if r.err != nil || string(r.data) != "1.0.0\n" {
			t.Fatalf("ReadNamed(fifo with a late writer) = %q, %v", r.data, r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ReadNamed did not return after the writer closed the FIFO")
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	wrote <- nil
	// A writer that opens it and writes nothing: empty, at once.
	go func() { data, err := ReadNamed(fifo, 100); done <- result{data, err} }()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	select {
	case r := <-done:
		if r.err != nil || len(r.data) != 0 {
			t.Fatalf("ReadNamed(fifo with an empty writer) = %q, %v", r.data, r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ReadNamed did not return after the writer closed the FIFO")
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

// A symbolic link to no file is a *DanglingLinkError that names where it
// points, and still an fs.ErrNotExist.
func TestReadNamesADanglingLink(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, target, want string }{
		{"absolute", "/nonexistent/file.tf", "/nonexistent/file.tf"},
		{"relative", "gone.tf", "gone.tf"},
		{"to a dangling link", "absolute", "absolute"},
		{"long, with an escape", "/x/\x1b]0;t\a/" + strings.Repeat("y/", 1000), printable.String(elide.Middle("/x/\x1b]0;t\a/"+strings.Repeat("y/", 1000), 200))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if err := os.Symlink(tt.target, path); err != nil {
				t.Fatal(err)
			}
			_, err := Read(path, ConfigLimit)
			var dl *DanglingLinkError
			if !errors.As(err, &dl) || dl.Target != tt.target || !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("Read = %v, want a DanglingLinkError to %q", err, tt.target)
			}
			if want := path + " is a dangling symbolic link: it points to " + tt.want + ", and no file is there"; err.Error() != want {
				t.Errorf("error = %q, want %q", err, want)
			}
		})
	}
	// A file that does not exist, and no link, is as before.
	if _, err := Read(filepath.Join(dir, "none"), ConfigLimit); !errors.Is(err, fs.ErrNotExist) || errors.As(err, new(*DanglingLinkError)) {
		t.Errorf("Read of nothing = %v", err)
	}
}
