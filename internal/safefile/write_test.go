//go:build !windows

package safefile

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// entries lists the names in dir, to see that no temporary file is left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFile(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")

	// A new file gets 0666 less the umask.
	if err := WriteFile(path, WriteOptions{}, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("new file: %v, %v; want mode 0644", fi.Mode(), err)
	}
	// A file that exists keeps its mode.
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, WriteOptions{}, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("rewritten file: %v, %v; want mode 0600 kept", fi.Mode(), err)
	}
	// Perm sets the mode, the umask ignored.
	if err := WriteFile(path, WriteOptions{Perm: 0o664}, []byte("three")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o664 {
		t.Errorf("with Perm: %v, %v; want mode 0664", fi.Mode(), err)
	}
	if data, err := os.ReadFile(path); string(data) != "three" {
		t.Errorf("content %q, %v", data, err)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("left %q", got)
	}
}

func TestWriteLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	// A link is followed: the file it links to is written, the link kept.
	if err := WriteFile(link, WriteOptions{}, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link is gone: %v, %v", fi, err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("target holds %q, want new", data)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v, want 0640 kept", fi.Mode())
	}
	// With ReplaceLinks, the link itself is replaced and its target left.
	if err := WriteFile(link, WriteOptions{ReplaceLinks: true}, []byte("own")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the link is not replaced: %v, %v", fi, err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("target holds %q, want new: written through the link", data)
	}
	// A dangling link is followed to the file it names.
	dangling := filepath.Join(dir, "dangling.json")
	if err := os.Symlink("made.json", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dangling, WriteOptions{}, []byte("made")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "made.json")); string(data) != "made" {
		t.Errorf("made.json holds %q", data)
	}
}

func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Symlink("fifo", filepath.Join(dir, "to-fifo")); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		opt     WriteOptions
		want    string
		target  bool // a *TargetError
		missing bool // an fs.ErrNotExist
	}{
		{"", WriteOptions{Noun: "baseline"}, "no file name for the baseline", true, false},
		{sub, WriteOptions{}, sub + " is a directory", true, false},
		{sub + "/", WriteOptions{}, sub + "/ is a directory", true, false},
		{filepath.Join(dir, "new") + "/", WriteOptions{}, `ends in '/': it names a directory, not a file`, true, false},
		{fifo, WriteOptions{Noun: "baseline"}, fifo + " is not a regular file (it is a FIFO or pipe); a baseline is written only to a regular file", true, false},
		{filepath.Join(dir, "to-fifo"), WriteOptions{Noun: "index"}, "(it is a FIFO or pipe); an index is written only to a regular file", true, false},
		{loop, WriteOptions{}, "cannot write " + loop + ": more than 40 symbolic links", true, false},
		{filepath.Join(dir, "missing", "x"), WriteOptions{}, "cannot write " + filepath.Join(dir, "missing", "x") + ": the directory " + filepath.Join(dir, "missing") + " does not exist", false, true},
		{filepath.Join(file, "x"), WriteOptions{}, "cannot write " + filepath.Join(file, "x") + ": not a directory", false, false},
	}
	for _, tt := range tests {
		err := WriteFile(tt.path, tt.opt, []byte("x"))
		var te *TargetError
		if err == nil || !strings.Contains(err.Error(), tt.want) || errors.As(err, &te) != tt.target || errors.Is(err, fs.ErrNotExist) != tt.missing {
			t.Errorf("WriteFile(%q) = %v; want %q (TargetError %v, not exist %v)", tt.path, err, tt.want, tt.target, tt.missing)
		}
	}
	if got := entries(t, dir); strings.Join(got, " ") != "fifo file loop sub to-fifo" {
		t.Errorf("the directory holds %q", got)
	}
}

// A failure leaves the old file and no temporary file; the error of the
// system names the path, not the temporary file.
func TestWriteFailures(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	fillErr := errors.New("the encoder failed")
	err := Write(path, WriteOptions{}, func(w *bufio.Writer) error {
		w.WriteString("half")
		return fillErr
	})
	if err != fillErr {
		t.Errorf("fill's error came back as %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("after a failed fill the file holds %q", data)
	}
	if os.Getuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		err := WriteFile(path, WriteOptions{}, []byte("new"))
		os.Chmod(dir, 0o755)
		if err == nil || err.Error() != "cannot write "+path+": permission denied" {
			t.Errorf("in a read-only directory: %v", err)
		}
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("left %q", got)
	}
}
