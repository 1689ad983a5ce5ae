package compare

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Baseline returns the stable part of r, the part a baseline keeps: r
// without the policies' reasons, which are words for people and may be
// reworded without any change in behaviour, and without what follows from
// the rest or from the corpus (the reference, summary, splits and
// relevance). r is not modified.
func (r *Report) Baseline() *Report {
	b := *r
	b.Policies = append([]string(nil), r.Policies...)
	b.Pairs = append([]Pair(nil), r.Pairs...)
	b.Classes = append([]Class(nil), r.Classes...)
	for i := range b.Classes {
		b.Classes[i].Witness.AReason = ""
		b.Classes[i].Witness.BReason = ""
		b.Classes[i].Relevance = nil
	}
	b.Reference, b.Rank, b.Summary, b.Splits, b.verdicts = "", "", nil, nil, nil
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
	if r.verdicts != nil {
		b.Verdicts = make(map[string]string, len(r.verdicts))
		for name, v := range r.verdicts {
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

// WriteBaseline writes the stable part of r (Report.Baseline) as JSON to
// path, atomically: to a temporary file in the same directory, synced,
// then renamed over path, so that a reader never sees half a baseline.
// Each pair and each class takes one line, so that a baseline stays
// compact and a rewrite reads as a line diff in version control.
func WriteBaseline(path string, r *Report) (err error) {
	var buf bytes.Buffer
	if err := encodeBaseline(&buf, r.Baseline()); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(buf.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("write baseline: %w", err)
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write baseline: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	if err = os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return nil
}

// encodeBaseline writes r as JSON with one line per policy pair, class and
// selection pair. DecodeReport reads it like any JSON report.
func encodeBaseline(w *bytes.Buffer, r *Report) error {
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

// ReadBaseline reads a baseline (or a JSON report) from path.
func ReadBaseline(path string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := DecodeReport(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// DecodeReport reads a JSON report or baseline. It fails on unknown
// fields and on a schema other than SchemaVersion.
func DecodeReport(rd io.Reader) (*Report, error) {
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("decode report: %w", err)
	}
	if r.Schema != SchemaVersion {
		return nil, fmt.Errorf("decode report: schema %d, this prerel reads schema %d", r.Schema, SchemaVersion)
	}
	return &r, nil
}
