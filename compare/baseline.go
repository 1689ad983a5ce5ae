package compare

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/prerel/prerel/internal/safefile"
)

// baseline returns the stable part of r, the part a baseline keeps: r
// without the policies' reasons, which are words for people and may be
// reworded without any change in behaviour, and without what follows from
// the rest or from the corpus (the reference, summary, splits and
// relevance). r is not modified; a nil r gives nil.
func (r *Report) baseline() *Report {
	if r == nil {
		return nil
	}
	b := *r
	b.Policies = append([]string(nil), r.Policies...)
	b.Pairs = append([]Pair(nil), r.Pairs...)
	b.Classes = append([]Class(nil), r.Classes...)
	for i := range b.Classes {
		b.Classes[i].Witness.AReason = ""
		b.Classes[i].Witness.BReason = ""
		b.Classes[i].Relevance = nil
	}
	b.Reference, b.Rank, b.Summary, b.Splits, b.SplitCasesLeftOut, b.verdicts = "", "", nil, nil, 0, nil
	// A baseline keeps the classes in an order that does not depend on
	// relevance: by pair, then count (largest first), then signature.
	pairAt := make(map[[2]string]int, len(r.Pairs))
	for i, p := range r.Pairs {
		pairAt[[2]string{p.A, p.B}] = i
	}
	slices.SortStableFunc(b.Classes, func(x, y Class) int {
		return cmp.Or(cmp.Compare(pairAt[[2]string{x.A, x.B}], pairAt[[2]string{y.A, y.B}]),
			cmp.Compare(y.Count, x.Count), strings.Compare(x.Signature, y.Signature))
	})
	if vs := r.verdicts.get(); vs != nil {
		b.Verdicts = make(map[string]string, len(vs))
		for name, v := range vs {
			if s, err := encodeVerdicts(v); err == nil {
				b.Verdicts[name] = s
			}
		}
	}
	if r.Selection != nil {
		s := *r.Selection
		s.Pairs = append([]SelectionPair(nil), r.Selection.Pairs...)
		b.Selection = &s
	}
	return &b
}

// TargetError is the error of a path no baseline can be written to,
// whatever the permissions: a directory, a FIFO, device or socket, or a
// symbolic link to one.
type TargetError struct {
	Path string // the path as given
	msg  string
}

// Error says what is wrong with the path, naming it.
func (e *TargetError) Error() string { return e.msg }

// missingDirError is the error of a baseline path in a directory that
// does not exist; it is an fs.ErrNotExist.
type missingDirError struct{ msg string }

func (e *missingDirError) Error() string { return e.msg }

func (e *missingDirError) Unwrap() error { return fs.ErrNotExist }

// maxLinks bounds the symbolic links followed to a baseline's target.
const maxLinks = 40

// CheckBaselineTarget resolves path as WriteBaseline does and fails,
// with a *TargetError, when a baseline cannot be written there, so that a
// long run can be refused before it starts. It returns the file a write
// would replace or create: path itself, or the target of the symbolic
// links path names.
func CheckBaselineTarget(path string) (string, error) {
	target, _, err := baselineTarget(path)
	return target, err
}

// baselineTarget follows the symbolic links of path to the file a baseline
// write replaces, and returns it with its FileInfo (nil when it does not
// exist yet).
func baselineTarget(path string) (string, fs.FileInfo, error) {
	if path == "" {
		return "", nil, &TargetError{Path: path, msg: "no file name for the baseline"}
	}
	if strings.HasSuffix(path, string(filepath.Separator)) {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is a directory", path)}
		}
		return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s ends in %q: it names a directory, not a file", path, filepath.Separator)}
	}
	what := func(target string) string {
		if target == path {
			return path
		}
		return fmt.Sprintf("%s (a link to %s)", path, target)
	}
	// Following every link at once also sees through the links of /proc
	// (/dev/stdout), whose targets are no paths.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is a directory", path)}
		}
		return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is not a regular file (it is %s); a baseline is written only to a regular file",
			path, safefile.Kind(fi.Mode()))}
	}
	target := path
	for links := 0; ; links++ {
		fi, err := os.Lstat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			dir := filepath.Dir(target)
			di, err := os.Stat(dir)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return "", nil, &missingDirError{fmt.Sprintf("cannot write %s: the directory %s does not exist", what(target), dir)}
			case err != nil:
				return "", nil, writeError(what(target), err)
			case !di.IsDir():
				return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("cannot write %s: %s is not a directory", what(target), dir)}
			}
			return target, nil, nil
		case err != nil:
			return "", nil, writeError(what(target), err)
		case fi.Mode()&fs.ModeSymlink != 0:
			if links == maxLinks {
				return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("cannot write %s: more than %d symbolic links", path, maxLinks)}
			}
			link, err := os.Readlink(target)
			if err != nil {
				return "", nil, writeError(what(target), err)
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(filepath.Dir(target), link)
			}
			target = link
		case fi.IsDir():
			return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is a directory", what(target))}
		case !fi.Mode().IsRegular():
			return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is not a regular file (it is %s); a baseline is written only to a regular file",
				what(target), safefile.Kind(fi.Mode()))}
		default:
			return target, fi, nil
		}
	}
}

// writeError says that name cannot be written, with the system's reason
// and without the name of any temporary file.
func writeError(name string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return fmt.Errorf("cannot write %s: %w", name, err)
}

// WriteBaseline writes the stable part of r as JSON to
// path, atomically: to a temporary file in the same directory, synced,
// then renamed over path, so that a reader never sees half a baseline.
// Each pair and each class takes one line, so that a baseline stays
// compact and a rewrite reads as a line diff in version control.
//
// When path is a symbolic link, the file it links to is written and the
// link is kept. A file that exists keeps its mode (and its owner, where
// the process may set it); a new file gets mode 0666 less the umask, as
// os.Create gives. A path that is a directory, a FIFO, a device or a
// socket, or a link to one, is refused with a *TargetError before
// anything is written, and so is a file in a directory that does not
// exist, with an error that wraps fs.ErrNotExist; any other failure names
// path, never the temporary file, which is removed.
func WriteBaseline(path string, r *Report) (err error) {
	if r == nil {
		return errors.New("compare: no report to write as a baseline")
	}
	target, old, err := baselineTarget(path)
	if err != nil {
		return err
	}
	name := path
	if target != path {
		name = fmt.Sprintf("%s (a link to %s)", path, target)
	}
	f, tmp, err := createTemp(filepath.Dir(target), filepath.Base(target))
	if err != nil {
		return writeError(name, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	fail := func(e error) error {
		f.Close()
		return writeError(name, e)
	}
	if old != nil {
		if st, ok := old.Sys().(*syscall.Stat_t); ok {
			f.Chown(int(st.Uid), int(st.Gid)) // keep the owner where allowed
		}
		if err := f.Chmod(old.Mode().Perm()); err != nil {
			return fail(err)
		}
	}
	// Written as it is encoded, a class at a time.
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := encodeBaseline(bw, r.baseline()); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return writeError(name, err)
	}
	if err := os.Rename(tmp, target); err != nil {
		return writeError(name, err)
	}
	if d, err := os.Open(filepath.Dir(target)); err == nil {
		d.Sync() // make the rename durable where the system allows
		d.Close()
	}
	return nil
}

// createTemp creates a new file in dir for a baseline named base, with
// mode 0666 less the umask, as os.Create would give the baseline itself.
func createTemp(dir, base string) (*os.File, string, error) {
	for range 100 {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(uint64(rand.Uint32()), 10)+".tmp")
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", &fs.PathError{Op: "create", Path: dir, Err: fs.ErrExist}
}

// baselineWriter is what encodeBaseline writes to: a bytes.Buffer, or a
// bufio.Writer that keeps its first error for Flush.
type baselineWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

// encodeBaseline writes r as JSON with one line per policy pair, class and
// selection pair. DecodeReport reads it like any JSON report.
func encodeBaseline(w baselineWriter, r *Report) error {
	field := func(name string, v any, last bool) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %q: %s", name, b)
		if !last {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
		return nil
	}
	list := func(name string, n int, item func(int) any, last bool) error {
		fmt.Fprintf(w, "  %q: [", name)
		for i := 0; i < n; i++ {
			b, err := json.Marshal(item(i))
			if err != nil {
				return err
			}
			w.WriteString("\n    ")
			w.Write(b)
			if i < n-1 {
				w.WriteByte(',')
			}
		}
		if n > 0 {
			w.WriteString("\n  ")
		}
		w.WriteByte(']')
		if !last {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
		return nil
	}
	w.WriteString("{\n")
	if err := field("schema", r.Schema, false); err != nil {
		return err
	}
	if err := field("domain", r.Domain, false); err != nil {
		return err
	}
	if err := field("policies", r.Policies, false); err != nil {
		return err
	}
	if err := list("pairs", len(r.Pairs), func(i int) any { return r.Pairs[i] }, false); err != nil {
		return err
	}
	if err := list("classes", len(r.Classes), func(i int) any { return r.Classes[i] }, r.Selection == nil && r.Verdicts == nil); err != nil {
		return err
	}
	if r.Selection != nil {
		if err := field("selection", r.Selection, r.Verdicts == nil); err != nil {
			return err
		}
	}
	if r.Verdicts != nil {
		// one line per policy, in the order of Policies
		fmt.Fprintf(w, "  %q: {", "verdicts")
		first := true
		for _, name := range r.Policies {
			v, ok := r.Verdicts[name]
			if !ok {
				continue
			}
			if !first {
				w.WriteByte(',')
			}
			first = false
			fmt.Fprintf(w, "\n    %q: %q", name, v)
		}
		w.WriteString("\n  }\n")
	}
	w.WriteString("}\n")
	return nil
}

// ReadBaseline reads a baseline (or a JSON report) from path, a regular
// file or a pipe of at most safefile.ReportLimit bytes, as DecodeReport
// does; an error in the JSON names the file, line and column
// (path:LINE:COLUMN).
func ReadBaseline(path string) (*Report, error) {
	data, err := safefile.ReadNamed(path, safefile.ReportLimit)
	if err != nil {
		return nil, err
	}
	r, err := decodeReport(data)
	if err != nil {
		return nil, inFile(path, err)
	}
	return r, nil
}

// inFile names path in err, a decoding error of the file's content: a
// mistake in its JSON as path:LINE:COLUMN.
func inFile(path string, err error) error {
	var de *decodeError
	if errors.As(err, &de) {
		if de.line == 0 {
			return fmt.Errorf("%s: %s", path, de.msg)
		}
		return fmt.Errorf("%s:%d:%d: %s", path, de.line, de.col, de.msg)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// DecodeReport reads a JSON report or baseline, of at most
// safefile.ReportLimit bytes. It fails, naming the line and column where
// it can, on malformed JSON, on unknown fields, on anything after the
// report's object, on an empty input, on a schema other than
// SchemaVersion, and on an object that is not a report: one without a
// domain, at least two policies, pairs and classes.
func DecodeReport(rd io.Reader) (*Report, error) {
	if rd == nil {
		return nil, errors.New("decode report: no reader")
	}
	data, err := safefile.ReadAll(rd, "the report", safefile.ReportLimit)
	if err != nil {
		return nil, fmt.Errorf("decode report: %w", err)
	}
	return decodeReport(data)
}

// decodeError is an error in a report's JSON, at a line and column (0
// when it has none).
type decodeError struct {
	line, col int
	msg       string
}

func (e *decodeError) Error() string {
	if e.line == 0 {
		return "decode report: " + e.msg
	}
	return fmt.Sprintf("decode report: line %d, column %d: %s", e.line, e.col, e.msg)
}

// notReport is the end of the message for what is not a report.
const notReport = "not a report or baseline written by prerel compare"

func decodeReport(data []byte) (*Report, error) {
	at := func(off int64, format string, args ...any) error {
		line, col := lineCol(data, off)
		return &decodeError{line: line, col: col, msg: fmt.Sprintf(format, args...)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &decodeError{msg: "the file is empty: " + notReport}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, jsonError(err, dec, data, "report", at)
	}
	if err := trailingData(dec, data, "report", at); err != nil {
		return nil, err
	}
	if r.Schema == 0 {
		return nil, &decodeError{msg: "no schema: " + notReport}
	}
	if r.Schema != SchemaVersion {
		return nil, &decodeError{msg: fmt.Sprintf("schema %d, this prerel reads schema %d", r.Schema, SchemaVersion)}
	}
	var lacks []string
	if r.Domain.Name == "" && r.Domain.Description == "" {
		lacks = append(lacks, "no domain")
	}
	if len(r.Policies) < 2 {
		lacks = append(lacks, fmt.Sprintf("%d policies", len(r.Policies)))
	}
	if r.Pairs == nil {
		lacks = append(lacks, "no pairs")
	}
	if r.Classes == nil {
		lacks = append(lacks, "no classes")
	}
	if len(lacks) > 0 {
		return nil, &decodeError{msg: fmt.Sprintf("%s: it has %s", notReport, strings.Join(lacks, ", "))}
	}
	return &r, nil
}

// lineCol converts a byte offset of data into a 1-based line and column.
func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// jsonError describes err, dec's error decoding data as a what ("report",
// "partial report"), at its place in data with at.
func jsonError(err error, dec *json.Decoder, data []byte, what string, at func(off int64, format string, args ...any) error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return at(syn.Offset-1, "malformed JSON: %v", syn)
	case errors.As(err, &typ):
		field := "the value"
		if typ.Field != "" {
			field = strconv.Quote(typ.Field)
		}
		return at(typ.Offset, "%s is a JSON %s, expected %s", field, typ.Value, typ.Type)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return at(int64(len(data)), "the file ends in the middle of the %s", what)
	}
	return at(dec.InputOffset(), "%s", strings.TrimPrefix(err.Error(), "json: "))
}

// trailingData fails, with at, when data holds more than white space
// after the value dec decoded, a what.
func trailingData(dec *json.Decoder, data []byte, what string, at func(off int64, format string, args ...any) error) error {
	if off := dec.InputOffset(); len(bytes.TrimSpace(data[off:])) > 0 {
		rest := int64(len(data[off:]) - len(bytes.TrimLeft(data[off:], " \t\r\n")))
		return at(off+rest, "data after the end of the %s", what)
	}
	return nil
}
