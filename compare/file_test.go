package compare_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/safefile"
)

func groupsOf(t *testing.T, d compare.Domain) []compare.Group {
	t.Helper()
	var out []compare.Group
	if err := d.Groups(func(g compare.Group) bool {
		out = append(out, g)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFileDomain(t *testing.T) {
	text := "# comment\n" +
		">= 1.0.0\t1.0.0\r\n" +
		">= 1.0.0\t1.1.0-beta\n" +
		"\n" +
		"\t2.0.0\n" +
		" ~> 1.2 \t 1.2.0\n" +
		">= 1.0.0\t3.0.0\n"
	path := filepath.Join(t.TempDir(), "cases.tsv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []compare.Group{
		{Constraint: ">= 1.0.0", Versions: []string{"1.0.0", "1.1.0-beta"}},
		{Constraint: "", Versions: []string{"2.0.0"}},
		{Constraint: " ~> 1.2 ", Versions: []string{" 1.2.0"}},
		{Constraint: ">= 1.0.0", Versions: []string{"3.0.0"}},
	}
	fromPath, err := compare.File(path)
	if err != nil {
		t.Fatal(err)
	}
	fromFS, err := compare.FileFS(fstest.MapFS{"cases.tsv": {Data: []byte(text)}}, "cases.tsv")
	if err != nil {
		t.Fatal(err)
	}
	fromLines, err := compare.Lines("stdin", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []compare.Domain{fromPath, fromFS, fromLines} {
		if got := groupsOf(t, d); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: groups\n  %q\nwant\n  %q", d.Info().Description, got, want)
		}
		if info := d.Info(); info.Cases != 5 || info.Name != "file" {
			t.Errorf("info = %+v, want 5 cases of a file", info)
		}
	}
	if got := fromLines.Info().Description; got != "file stdin: 5 cases" {
		t.Errorf("description %q", got)
	}
}

func TestFileDomainErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"no tab", ">= 1.0.0\t1.0.0\n>= 1.0.0 1.0.0\n", "bad.tsv:2: no tab"},
		{"two tabs", "# header\n\n>= 1.0.0\t1.0.0\textra\n", "bad.tsv:3: more than one tab"},
		{"no version", ">= 1.0.0\t\n", "bad.tsv:1: no version after the tab"},
		{"no cases", "# only a comment\n\n", "bad.tsv: no cases"},
		{"a line too long", "x\t" + strings.Repeat("1", 2<<20) + "\n", "bad.tsv:1: line longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compare.Lines("bad.tsv", []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := compare.File(filepath.Join(t.TempDir(), "missing.tsv")); err == nil {
		t.Error("a missing file is no error")
	}
}

// A file that goes bad after it was checked fails the run with the line.
func TestFileDomainChangedOnDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cases.tsv")
	if err := os.WriteFile(path, []byte(">= 1.0.0\t1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := compare.File(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(">= 1.0.0\t1.0.0\nbroken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = d.Groups(func(compare.Group) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "cases.tsv:2: no tab") {
		t.Errorf("error %v, want cases.tsv:2: no tab", err)
	}
}

// runFile runs strict-like and lexical-like test policies over d.
func runFile(t *testing.T, d compare.Domain) *compare.Report {
	t.Helper()
	r, err := compare.Run(context.Background(), d, []engine.Policy{linear, sameBase}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// withTimeout fails the test when f does not return within five seconds.
func withTimeout(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("blocked for five seconds")
	}
}

// A pipe can be read only once: its cases are read into memory, and every
// run judges all of them.
func TestFileDomainFromAPipe(t *testing.T) {
	const text = ">= 1.0.0\t1.2.0-beta\n>= 1.0.0\t1.2.0\n"
	t.Run("os.Pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		go func() { w.WriteString(text); w.Close() }()
		var d compare.Domain
		withTimeout(t, func() { d, err = compare.File(fmt.Sprintf("/proc/self/fd/%d", r.Fd())) })
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if rep := runFile(t, d); rep.Domain.Cases != 2 || rep.Pairs[0].Diverge != 1 {
				t.Errorf("a run over the pipe: %d cases, %d diverge; want 2 and 1", rep.Domain.Cases, rep.Pairs[0].Diverge)
			}
		}
	})
	t.Run("FIFO", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "cases.fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("mkfifo:", err)
		}
		written := make(chan struct{})
		go func() {
			defer close(written)
			// Opening for writing waits for a reader.
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.WriteString(text)
				f.Close()
			}
		}()
		defer func() {
			// Release the writer if no reader came.
			if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				<-written
				f.Close()
			}
		}()
		time.Sleep(20 * time.Millisecond) // let the writer wait first
		var d compare.Domain
		var err error
		withTimeout(t, func() {
			for range 1000 {
				if d, err = compare.File(fifo); err == nil || !strings.Contains(err.Error(), "no cases") {
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if rep := runFile(t, d); rep.Domain.Cases != 2 {
			t.Errorf("a run over the FIFO: %d cases, want 2", rep.Domain.Cases)
		}
	})
	t.Run("an empty pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		go func() { w.WriteString("# no cases here\n"); w.Close() }()
		withTimeout(t, func() { _, err = compare.File(fmt.Sprintf("/proc/self/fd/%d", r.Fd())) })
		if err == nil || !strings.Contains(err.Error(), "no cases") {
			t.Errorf("a pipe without cases: %v, want no cases", err)
		}
	})
}

// A device is refused without being read.
func TestFileDomainRefusesDevices(t *testing.T) {
	link := filepath.Join(t.TempDir(), "cases.tsv")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", link, t.TempDir()} {
		var err error
		withTimeout(t, func() { _, err = compare.File(path) })
		if !safefile.IsNotRegular(err) {
			t.Errorf("File(%s) = %v, want a file that is not regular", path, err)
		}
	}
	if _, err := compare.File(""); err == nil {
		t.Error("File(\"\"): no error")
	}
}

// A run fails when the file holds other cases than when the domain was
// made, also when every line is still well formed.
func TestFileDomainChangedBetweenReadings(t *testing.T) {
	tests := []struct {
		name, after, want string
	}{
		{"a case more", ">= 1.0.0\t1.0.0\n>= 1.0.0\t2.0.0\n", "2 cases now"},
		{"a case less", "", "0 cases now"},
		{"another case", ">= 1.0.0\t1.0.1\n", "other cases"},
		{"a line that is no case", ">= 1.0.0 1.0.0\n", "cases.tsv:1: no tab"},
		{"a line too long", ">= 1.0.0\t" + strings.Repeat("1", 2<<20) + "\n", "line longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cases.tsv")
			if err := os.WriteFile(path, []byte(">= 1.0.0\t1.0.0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := compare.File(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tt.after), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = compare.Run(context.Background(), d, []engine.Policy{linear, sameBase}, compare.Options{})
			if err == nil || !strings.Contains(err.Error(), "changed while it was read") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run after the change: %v, want the file changed (%s)", err, tt.want)
			}
		})
	}
}

// Exactly one carriage return is dropped at the end of a line.
func TestFileDomainDropsOneCarriageReturn(t *testing.T) {
	d, err := compare.Lines("crs", []byte(">= 1.0.0\t1.0.0\r\r\n>= 1.0.0\t1.1.0\r\n>= 1.0.0\t1.2.0\r"))
	if err != nil {
		t.Fatal(err)
	}
	want := []compare.Group{{Constraint: ">= 1.0.0", Versions: []string{"1.0.0\r", "1.1.0", "1.2.0"}}}
	if got := groupsOf(t, d); !reflect.DeepEqual(got, want) {
		t.Errorf("groups %q, want %q", got, want)
	}
}

// One case is "1 case"; the digest names the cases, not the file.
func TestFileDomainDescriptionAndDigest(t *testing.T) {
	one, err := compare.Lines("one.tsv", []byte(">= 1.0.0\t1.0.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := one.Info().Description; got != "file one.tsv: 1 case" {
		t.Errorf("description %q", got)
	}
	same, err := compare.Lines("elsewhere/same.tsv", []byte("# the same case\r\n>= 1.0.0\t1.0.0\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := compare.Lines("one.tsv", []byte(">= 1.0.0\t1.0.1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := one.Info(), same.Info(); a.Digest == "" || a.Digest != b.Digest || !compare.SameCases(a, b) {
		t.Errorf("the same cases have digests %q and %q", a.Digest, b.Digest)
	}
	if a, b := one.Info(), other.Info(); a.Digest == b.Digest || compare.SameCases(a, b) {
		t.Errorf("other cases have the same digest %q", a.Digest)
	}
	r, err := compare.Random(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Info().Description; !strings.Contains(got, ": 1 constraint of 1 to 4 comparators with 1 generated version") {
		t.Errorf("random description %q", got)
	}
}
