// Package jsonpos places the errors of decoding a JSON document at their
// line and column.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DecodeError is a mistake in a document's content, at a line and column
// (0 when it has none).
type DecodeError struct {
	What      string // what the document is: "report", "partial report"
	Line, Col int
	Msg       string
}

func (e *DecodeError) Error() string {
	if e.Line == 0 {
		return "decode " + e.What + ": " + e.Msg
	}
	return fmt.Sprintf("decode %s: line %d, column %d: %s", e.What, e.Line, e.Col, e.Msg)
}

// InFile names path in err, an error decoding the file's content: a
// DecodeError as path:LINE:COLUMN: message.
func InFile(path string, err error) error {
	var de *DecodeError
	if errors.As(err, &de) {
		if de.Line == 0 {
			return fmt.Errorf("%s: %s", path, de.Msg)
		}
		return fmt.Errorf("%s:%d:%d: %s", path, de.Line, de.Col, de.Msg)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// At makes the error at a byte offset of the document, with a message.
type At func(off int64, format string, args ...any) error

// LineCol converts a byte offset of data into a 1-based line and column.
func LineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// Error describes err, dec's error decoding data as a what ("report",
// "partial report"), at its place in data with at.
func Error(err error, dec *json.Decoder, data []byte, what string, at At) error {
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

// Trailing fails, with at, when data holds more than white space after
// the value dec decoded, a what.
func Trailing(dec *json.Decoder, data []byte, what string, at At) error {
	if off := dec.InputOffset(); len(bytes.TrimSpace(data[off:])) > 0 {
		rest := int64(len(data[off:]) - len(bytes.TrimLeft(data[off:], " \t\r\n")))
		return at(off+rest, "data after the end of the %s", what)
	}
	return nil
}
