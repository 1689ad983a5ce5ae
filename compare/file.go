package compare

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/lines"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/safefile"
)

// maxLine is the longest line a case file may have.
const maxLine = lines.Max

// maxFileGroup bounds the versions of one group, so that a long run of
// lines with the same constraint does not make memory grow.
const maxFileGroup = 4096

// fileDomain is a file of CONSTRAINT<TAB>VERSION lines. It is read once to
// check, count and digest it, and again, line by line, by every Groups
// call, which fails when the cases it reads differ from the first reading.
type fileDomain struct {
	name   string // the file's name as errors and the report print it
	open   func() (io.ReadCloser, error)
	cases  int64
	digest string
}

// File returns the domain of the file at path: one case per line,
// CONSTRAINT<TAB>VERSION, as the eval command reads them. The constraint
// may be empty (any version); the version may not. Empty lines and lines
// that start with "#" are skipped; one final "\r" is dropped from each
// line; everything else is kept byte for byte, spaces included. Any other
// line (no tab, more than one tab, no version) is an error naming the file
// and the line number, returned here, before any case runs, and so is a
// file without cases. Consecutive lines with the same constraint form one
// group, so sorting a file by constraint makes it faster to run.
//
// A regular file is read again by every run, and a run fails when its
// cases changed in between. A pipe (a FIFO, /dev/stdin, a shell's process
// substitution) can be read only once: it is read into memory here. The
// file may be at most safefile.ListLimit bytes; a directory, device or
// socket is refused.
func File(path string) (Domain, error) {
	if path == "" {
		return nil, errors.New("file domain: no file name")
	}
	if safefile.IsPipe(path) {
		data, err := safefile.ReadNamed(path, safefile.ListLimit)
		if err != nil {
			return nil, err
		}
		return Lines(path, data)
	}
	return newFileDomain(path, func() (io.ReadCloser, error) {
		f, err := safefile.Open(path, false)
		if err != nil {
			return nil, err
		}
		return limitedFile{safefile.Limited(f, path, safefile.ListLimit), f}, nil
	})
}

// fileFS is File for a file of fsys, which must be a regular file.
func fileFS(fsys fs.FS, name string) (Domain, error) {
	if fsys == nil {
		return nil, errors.New("file domain: no file system")
	}
	return newFileDomain(name, func() (io.ReadCloser, error) {
		f, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			f.Close()
			return nil, &safefile.NotRegularError{Path: name, Mode: fi.Mode()}
		}
		return limitedFile{safefile.Limited(f, name, safefile.ListLimit), f}, nil
	})
}

// Lines is File for text already in memory, such as standard input; name
// is what errors and the report call it.
func Lines(name string, data []byte) (Domain, error) {
	return newFileDomain(name, func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	})
}

// limitedFile reads a file through a size limit and closes the file.
type limitedFile struct {
	io.Reader
	io.Closer
}

func newFileDomain(name string, open func() (io.ReadCloser, error)) (Domain, error) {
	d := &fileDomain{name: printable.String(name), open: open}
	cases, digest, err := d.scan(func(string, string) bool { return true })
	if err != nil {
		return nil, err
	}
	if cases == 0 {
		return nil, fmt.Errorf("%s: no cases (expected lines CONSTRAINT<TAB>VERSION)", d.name)
	}
	d.cases, d.digest = cases, digest
	return d, nil
}

// scan reads the file and calls each for every case, in order, until each
// returns false. It returns the cases read and, when it read the whole
// file, their digest.
func (d *fileDomain) scan(each func(constraint, version string) bool) (cases int64, digest string, err error) {
	f, err := d.open()
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	sum := sha256.New()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	sc.Split(lines.Split)
	line := 0
	for sc.Scan() {
		line++
		text := string(lines.TrimCR(sc.Bytes()))
		if text == "" || text[0] == '#' {
			continue
		}
		c, v, err := splitCase(text)
		if err != nil {
			return cases, "", &contentError{fmt.Errorf("%s:%d: %v", d.name, line, err)}
		}
		cases++
		sum.Write([]byte(text))
		sum.Write([]byte{'\n'})
		if !each(c, v) {
			return cases, "", nil
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return cases, "", &contentError{fmt.Errorf("%s:%d: line longer than %d bytes", d.name, line+1, maxLine)}
		}
		if safefile.IsTooLarge(err) {
			return cases, "", &contentError{err}
		}
		return cases, "", fmt.Errorf("%s: %w", d.name, err)
	}
	return cases, "sha256:" + hex.EncodeToString(sum.Sum(nil)), nil
}

// contentError is an error in what a case file holds (a bad line, a
// line or file too long), as opposed to one reading it.
type contentError struct{ err error }

func (e *contentError) Error() string { return e.err.Error() }
func (e *contentError) Unwrap() error { return e.err }

// splitCase splits CONSTRAINT<TAB>VERSION.
func splitCase(line string) (constraint, version string, err error) {
	c, v, ok := strings.Cut(line, "\t")
	switch {
	case !ok:
		return "", "", fmt.Errorf("no tab: expected CONSTRAINT<TAB>VERSION, found %q", clip(line))
	case strings.Contains(v, "\t"):
		return "", "", fmt.Errorf("more than one tab: expected CONSTRAINT<TAB>VERSION, found %q", clip(line))
	case v == "":
		return "", "", fmt.Errorf("no version after the tab")
	}
	return c, v, nil
}

// clip shortens s for an error message.
func clip(s string) string { return elide.Head(s, 60) }

// Info describes the domain.
func (d *fileDomain) Info() DomainInfo {
	return DomainInfo{
		Name:        "file",
		Description: fmt.Sprintf("file %s: %s", d.name, plural.Of(d.cases, "case", "cases")),
		Cases:       d.cases,
		Digest:      d.digest,
	}
}

// Groups reads the file again, grouping consecutive lines with the same
// constraint (at most maxFileGroup to a group). It fails when the file no
// longer holds the cases it held when the domain was made.
func (d *fileDomain) Groups(yield func(Group) bool) error {
	var cur Group
	have, stopped := false, false
	cases, digest, err := d.scan(func(c, v string) bool {
		if have && c == cur.Constraint && len(cur.Versions) < maxFileGroup {
			cur.Versions = append(cur.Versions, v)
			return true
		}
		if have && !yield(cur) {
			stopped = true
			return false
		}
		cur, have = Group{Constraint: c, Versions: []string{v}}, true
		return true
	})
	var bad *contentError
	if errors.As(err, &bad) {
		// The file held only good lines when the domain was made.
		return fmt.Errorf("%s changed while it was read: %w", d.name, bad.err)
	}
	if err != nil || stopped {
		return err
	}
	switch {
	case cases != d.cases:
		return fmt.Errorf("%s changed while it was read: %s the first time, %s now", d.name,
			plural.Of(d.cases, "case", "cases"), plural.Of(cases, "case", "cases"))
	case digest != d.digest:
		return fmt.Errorf("%s changed while it was read: it holds other cases than the first time", d.name)
	}
	if have {
		yield(cur)
	}
	return nil
}
