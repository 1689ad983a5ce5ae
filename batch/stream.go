package batch

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/lines"
	"github.com/prerel/prerel/report"
)

// StreamOptions are the choices of Stream.
type StreamOptions struct {
	// JSON writes a JSON object per case (JSONLine), with the reasons;
	// otherwise a line of tab-separated fields: the constraint, the
	// version and a verdict per policy.
	JSON bool
	// Workers is how many workers judge a batch (NewEvaluator).
	Workers int
	// Name names the input in errors, as in "stdin line 3".
	Name string
}

// Stream judges the lines of r, each CONSTRAINT<TAB>VERSION of at most
// lines.Max bytes, with every policy of ps, in batches of at most
// MaxLines lines and about MaxBytes of text, and writes one line for each
// to w, in order, the constraint and version echoed byte for byte. A
// line ends at "\n"; one "\r" before it, or at the end of the input, is
// dropped.
//
// A malformed or too long line stops the reading with an *InputError
// naming it, after the lines before it are written; so does a failure to
// read r. When a policy fails (a Failer), the output stops at the first
// line it did not judge, and the error, a *NotJudgedError, says which
// line that is: the lines before it keep their answers, and no line
// after it is written. A failed write to w is returned as it is. A
// policy's panic is raised again as a *PanicError (Evaluator.Judge).
func Stream(r io.Reader, w io.Writer, ps []engine.Policy, opts StreamOptions) error {
	out := newWriter(w, opts.JSON, ps)
	ev := NewEvaluator(ps, opts.JSON, opts.Workers)
	read := 0 // the lines of the batches before
	err := eachBatch(r, opts.Name, func(b *Batch) error {
		ev.Judge(b)
		judged, failed := b.Judged()
		if err := out.write(b, judged); err != nil {
			return err
		}
		if failed != nil {
			return &NotJudgedError{opts.Name, read + judged + 1, failed}
		}
		read += b.Len()
		return nil
	})
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	return err
}

// InputError is the error of Stream for a line it cannot read: malformed,
// too long, or a failure to read it (Err).
type InputError struct {
	Name string // the input's, as in StreamOptions
	Line int
	Err  error
}

func (e *InputError) Error() string { return fmt.Sprintf("%s line %d: %v", e.Name, e.Line, e.Err) }

func (e *InputError) Unwrap() error { return e.Err }

// Malformed reports whether the line itself is wrong (not two fields, or
// too long), as against a failure to read it.
func (e *InputError) Malformed() bool {
	var read *readError
	return !errors.As(e.Err, &read)
}

// readError is a failure to read the input.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// errTooLong is the error of a line longer than lines.Max bytes.
var errTooLong = fmt.Errorf("line longer than %d bytes", lines.Max)

// NotJudgedError is the error of Stream when a policy failed: Line is
// the first line not judged, and Err the policy's failure.
type NotJudgedError struct {
	Name string // the input's, as in StreamOptions
	Line int
	Err  error
}

func (e *NotJudgedError) Error() string {
	return fmt.Sprintf("not judged: %s line %d and the lines after it: %v", e.Name, e.Line, e.Err)
}

func (e *NotJudgedError) Unwrap() error { return e.Err }

// eachBatch reads lines from r, splits them into cases and hands them to f
// in batches of at most MaxLines lines and about MaxBytes of text,
// in order. A line ends at "\n"; one "\r" before it, or at the end of the
// input, is dropped. A malformed or too long line stops the reading with
// an error naming it, after the lines before it have been handed over.
// The batch is f's until f returns; then it is reused.
func eachBatch(r io.Reader, name string, f func(*Batch) error) error {
	sc := bufio.NewScanner(r)
	// Room for the longest line with "\r\n"; longer lines are refused
	// below or by the scanner, with the same message.
	sc.Buffer(make([]byte, 64*1024), lines.Max+2)
	sc.Split(lines.Split)
	b := New()
	size := 0
	line := 0
	for sc.Scan() {
		line++
		text := lines.TrimCR(sc.Bytes())
		if len(text) > lines.Max {
			if err := flushBatch(b, f); err != nil {
				return err
			}
			return &InputError{name, line, errTooLong}
		}
		tab := bytes.IndexByte(text, '\t')
		if tab < 0 || bytes.IndexByte(text[tab+1:], '\t') >= 0 {
			if err := flushBatch(b, f); err != nil {
				return err
			}
			fields := bytes.Count(text, []byte("\t")) + 1
			return &InputError{name, line, fmt.Errorf("expected 2 tab-separated fields (CONSTRAINT<TAB>VERSION), found %d", fields)}
		}
		b.Add(text[:tab], text[tab+1:])
		size += len(text)
		if b.Len() == MaxLines || size >= MaxBytes {
			if err := f(b); err != nil {
				return err
			}
			b.Reset()
			size = 0
		}
	}
	if err := sc.Err(); err != nil {
		if ferr := flushBatch(b, f); ferr != nil {
			return ferr
		}
		if errors.Is(err, bufio.ErrTooLong) {
			err = errTooLong
		} else {
			err = &readError{err}
		}
		return &InputError{name, line + 1, err}
	}
	return flushBatch(b, f)
}

func flushBatch(b *Batch, f func(*Batch) error) error {
	if b.Len() == 0 {
		return nil
	}
	return f(b)
}

// writer writes judged lines, buffered, as TSV or as JSON lines.
type writer struct {
	w        *bufio.Writer
	policies []engine.Policy

	// JSON only. A line is encoded into line by enc. The lines of a
	// batch with the same constraint and version are the same: the
	// first is encoded, and kept in encoded (by the numbers of its
	// constraint and version in the batch) as long as the lines kept add
	// up to at most maxEncodedBytes; the others are copies.
	enc          *json.Encoder // nil for TSV
	line         bytes.Buffer
	results      []engine.Result // the results of one line
	encoded      map[uint64][]byte
	encodedBytes int
}

// maxEncodedBytes bounds the JSON lines that an writer keeps for a
// batch.
const maxEncodedBytes = 4 << 20

func newWriter(w io.Writer, asJSON bool, ps []engine.Policy) *writer {
	out := &writer{w: bufio.NewWriterSize(w, 64*1024), policies: ps}
	if asJSON {
		out.enc = json.NewEncoder(&out.line)
		out.enc.SetEscapeHTML(false)
		out.results = make([]engine.Result, len(ps))
		out.encoded = make(map[uint64][]byte)
	}
	return out
}

// verdictColumns are the TSV columns of the verdicts, tab first.
var verdictColumns = [...]string{
	engine.Reject:  "\treject",
	engine.Allow:   "\tallow",
	engine.Invalid: "\tinvalid",
}

// write writes one line per line of the n first lines of b, in order.
func (out *writer) write(b *Batch, n int) error {
	if out.enc != nil {
		return out.writeJSON(b, n)
	}
	w := out.w
	for i := range n {
		constraint, version := b.Case(i)
		w.WriteString(constraint)
		w.WriteByte('\t')
		w.WriteString(version)
		for j := range out.policies {
			if v := b.Verdict(j, i); int(v) < len(verdictColumns) {
				w.WriteString(verdictColumns[v])
			} else {
				w.WriteByte('\t')
				w.WriteString(v.String())
			}
		}
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes the n first lines of b as JSON lines, in order.
func (out *writer) writeJSON(b *Batch, n int) error {
	clear(out.encoded)
	out.encodedBytes = 0
	for i := range n {
		c, v := b.Numbers(i)
		key := uint64(uint32(c))<<32 | uint64(uint32(v))
		if line, ok := out.encoded[key]; ok {
			if _, err := out.w.Write(line); err != nil {
				return err
			}
			continue
		}
		for j := range out.results {
			out.results[j] = b.Result(j, i)
		}
		out.line.Reset()
		constraint, version := b.Case(i)
		if err := out.enc.Encode(NewJSONLine(out.policies, constraint, version, out.results)); err != nil {
			return err
		}
		if _, err := out.w.Write(out.line.Bytes()); err != nil {
			return err
		}
		if out.encodedBytes+out.line.Len() <= maxEncodedBytes {
			out.encoded[key] = bytes.Clone(out.line.Bytes())
			out.encodedBytes += out.line.Len()
		}
	}
	return nil
}

// JSONLine is one line of Stream's JSON output: report.EvalLine
// and, for a constraint or version that is not valid UTF-8 (which JSON
// strings cannot hold, so that its invalid bytes read as U+FFFD there),
// its exact bytes in standard base64.
type JSONLine struct {
	report.EvalLine
	ConstraintBase64 string `json:"constraint_base64,omitempty"`
	VersionBase64    string `json:"version_base64,omitempty"`
}

// NewJSONLine is the JSON line of a constraint and a version with
// their results, one per policy of ps.
func NewJSONLine(ps []engine.Policy, constraint, version string, results []engine.Result) JSONLine {
	line := JSONLine{EvalLine: report.NewEvalLine(ps, constraint, version, results)}
	if !utf8.ValidString(constraint) {
		line.ConstraintBase64 = base64.StdEncoding.EncodeToString([]byte(constraint))
	}
	if !utf8.ValidString(version) {
		line.VersionBase64 = base64.StdEncoding.EncodeToString([]byte(version))
	}
	return line
}

func (out *writer) flush() error { return out.w.Flush() }
