package compare

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/prerel/prerel/compare/internal/jsonpos"
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
	b.Reference, b.Rank, b.Summary, b.Splits, b.SplitCasesLeftOut, b.PolicyErrors, b.verdicts = "", "", nil, nil, 0, nil, nil
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
type TargetError = safefile.TargetError

// baselineFile is how a baseline is written.
var baselineFile = safefile.WriteOptions{Noun: "baseline"}

// CheckBaselineTarget resolves path as WriteBaseline does and fails,
// with a *TargetError, when a baseline cannot be written there, so that a
// long run can be refused before it starts. It returns the file a write
// would replace or create: path itself, or the target of the symbolic
// links path names.
func CheckBaselineTarget(path string) (string, error) {
	target, _, err := safefile.Target(path, baselineFile)
	return target, err
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
	// Written as it is encoded, a class at a time.
	return safefile.Write(path, baselineFile, func(w *bufio.Writer) error {
		return encodeBaseline(w, r.baseline())
	})
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
		return nil, jsonpos.InFile(path, err)
	}
	return r, nil
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

// notReport is the end of the message for what is not a report.
const notReport = "not a report or baseline written by prerel compare"

func decodeReport(data []byte) (*Report, error) {
	at := func(off int64, format string, args ...any) error {
		line, col := jsonpos.LineCol(data, off)
		return &jsonpos.DecodeError{What: "report", Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &jsonpos.DecodeError{What: "report", Msg: "the file is empty: " + notReport}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, jsonpos.Error(err, dec, data, "report", at)
	}
	if err := jsonpos.Trailing(dec, data, "report", at); err != nil {
		return nil, err
	}
	if r.Schema == 0 {
		return nil, &jsonpos.DecodeError{What: "report", Msg: "no schema: " + notReport}
	}
	if r.Schema != SchemaVersion {
		return nil, &jsonpos.DecodeError{What: "report", Msg: fmt.Sprintf("schema %d, this prerel reads schema %d", r.Schema, SchemaVersion)}
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
		return nil, &jsonpos.DecodeError{What: "report", Msg: fmt.Sprintf("%s: it has %s", notReport, strings.Join(lacks, ", "))}
	}
	return &r, nil
}
