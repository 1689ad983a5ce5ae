package compare

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// maxLine is the longest line a case file may have.
const maxLine = 1 << 20

// maxFileGroup bounds the versions of one group, so that a long run of
// lines with the same constraint does not make memory grow.
const maxFileGroup = 4096

// fileDomain is a file of CONSTRAINT<TAB>VERSION lines. It is read once to
// check and count it, and again, line by line, by every Groups call.
type fileDomain struct {
	name  string
	open  func() (io.ReadCloser, error)
	cases int64
}

// File returns the domain of the file at path: one case per line,
// CONSTRAINT<TAB>VERSION, as the eval command reads them. The constraint
// may be empty (any version); the version may not. Empty lines and lines
// that start with "#" are skipped; a final "\r" is dropped from each line;
// everything else is kept byte for byte, spaces included. Any other line
// (no tab, more than one tab, no version) is an error naming the file and
// the line number, returned here, before any case runs. Consecutive lines
// with the same constraint form one group, so sorting a file by constraint
// makes it faster to run.
func File(path string) (Domain, error) {
	return newFileDomain(path, func() (io.ReadCloser, error) { return os.Open(path) })
}

// FileFS is File for a file of fsys.
func FileFS(fsys fs.FS, name string) (Domain, error) {
	return newFileDomain(name, func() (io.ReadCloser, error) { return fsys.Open(name) })
}

// Lines is File for text already in memory, such as standard input; name
// is what errors and the report call it.
func Lines(name string, data []byte) (Domain, error) {
	return newFileDomain(name, func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	})
}

func newFileDomain(name string, open func() (io.ReadCloser, error)) (Domain, error) {
	d := &fileDomain{name: name, open: open}
	err := d.scan(func(string, string) bool {
		d.cases++
		return true
	})
	if err != nil {
		return nil, err
	}
	if d.cases == 0 {
		return nil, fmt.Errorf("%s: no cases (expected lines CONSTRAINT<TAB>VERSION)", name)
	}
	return d, nil
}

// scan reads the file and calls each for every case, in order.
func (d *fileDomain) scan(each func(constraint, version string) bool) error {
	f, err := d.open()
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if text == "" || text[0] == '#' {
			continue
		}
		c, v, err := splitCase(text)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", d.name, line, err)
		}
		if !each(c, v) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return fmt.Errorf("%s:%d: line longer than %d bytes", d.name, line+1, maxLine)
		}
		return fmt.Errorf("%s: %v", d.name, err)
	}
	return nil
}

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
func clip(s string) string {
	const n = 60
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// Info describes the domain.
func (d *fileDomain) Info() DomainInfo {
	return DomainInfo{
		Name:        "file",
		Description: fmt.Sprintf("file %s: %d cases", d.name, d.cases),
		Cases:       d.cases,
	}
}

// Groups reads the file again, grouping consecutive lines with the same
// constraint (at most maxFileGroup to a group).
func (d *fileDomain) Groups(yield func(Group) bool) error {
	var cur Group
	have, stopped := false, false
	err := d.scan(func(c, v string) bool {
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
	if err != nil || stopped || !have {
		return err
	}
	yield(cur)
	return nil
}
