package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Baseline returns the stable part of r, the part a baseline keeps: r
// without the policies' reasons, which are words for people and may be
// reworded without any change in behaviour. r is not modified.
func (r *Report) Baseline() *Report {
	b := *r
	b.Policies = append([]string(nil), r.Policies...)
	b.Pairs = append([]Pair(nil), r.Pairs...)
	b.Classes = append([]Class(nil), r.Classes...)
	for i := range b.Classes {
		b.Classes[i].Witness.AReason = ""
		b.Classes[i].Witness.BReason = ""
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
func WriteBaseline(path string, r *Report) (err error) {
	var buf bytes.Buffer
	if err := RenderJSON(&buf, r.Baseline()); err != nil {
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
