package lines

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/prerel/prerel/internal/safefile"
)

// LongLineError is the error of ReadList for a line longer than Max.
type LongLineError struct {
	Path string
	Line int // from 1
}

func (e *LongLineError) Error() string {
	return fmt.Sprintf("%s:%d: line longer than %d bytes", e.Path, e.Line, Max)
}

// ReadList reads the file at path as a list, one item a line: blank
// lines and lines starting with # are skipped, the others trimmed of
// surrounding spaces. The file is a regular file or a pipe, read once,
// of at most limit bytes (safefile.ReadNamed, whose error it returns as
// it is); the null device reads as empty, and any other device is
// refused. A line longer than Max is a *LongLineError.
func ReadList(path string, limit int64) ([]string, error) {
	var data []byte
	if !isNullDevice(path) {
		var err error
		if data, err = safefile.ReadNamed(path, limit); err != nil {
			return nil, err
		}
	}
	var out []string
	for n := 1; len(data) > 0; n++ {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		if len(TrimCR(line)) > Max {
			return nil, &LongLineError{path, n}
		}
		text := strings.TrimSpace(string(line))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		out = append(out, text)
	}
	return out, nil
}

// isNullDevice reports whether path names the null device, which reads
// as empty.
func isNullDevice(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().IsRegular() {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(fi, null)
}
