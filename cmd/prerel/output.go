package main

import (
	"encoding/json"
	"io"
)

// newJSONEncoder returns the encoder of every JSON prerel writes: "<",
// ">" and "&" as they are, so that constraints such as "~> 1.2" and
// ">= 1.0, < 2.0" read the same in JSON as on the command line.
func newJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := newJSONEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// render writes a report as JSON or with its text renderer. An error is a
// failed write: an outside failure.
func render[R any](w io.Writer, format string, report R, text func(io.Writer, R) error) error {
	if format == "json" {
		return failure(writeJSON(w, report))
	}
	return failure(text(w, report))
}
