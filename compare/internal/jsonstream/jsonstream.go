// Package jsonstream writes a value as JSON as a json.Encoder would,
// without holding the whole text in memory: compare's reports and
// baselines, and compare/shard's partial reports, hold up to hundreds of
// thousands of classes.
package jsonstream

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Write writes v to w exactly as a json.Encoder with HTML escaping
// off (and, when indent is set, SetIndent("", "  ")) would, final newline
// included, without holding the whole text in memory: a struct is written
// field by field when it holds a slice, and a slice element by element,
// so that what is held at a time is one small value: a struct without
// slices, a string, a map, a type with its own JSON form. A report of
// hundreds of thousands of classes is written in the memory of one class.
//
// A struct whose fields encoding/json would read in ways this does not
// follow (an embedded field, a tag option other than omitempty) is
// encoded whole, as is anything with its own MarshalJSON or MarshalText.
func Write(w io.Writer, v any, indent bool) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	s := &jsonStreamer{w: bw, indent: indent, plans: map[reflect.Type]bool{}}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	if err := s.value(reflect.ValueOf(v), 0); err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// jsonStreamer is the state of Write: the output, and an encoder
// into buf for the values written whole.
type jsonStreamer struct {
	w      *bufio.Writer
	indent bool
	enc    *json.Encoder
	buf    bytes.Buffer
	plans  map[reflect.Type]bool // whether a value of the type is written piece by piece
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// value writes v, whose first line starts at depth levels of indentation.
func (s *jsonStreamer) value(v reflect.Value, depth int) error {
	if v.IsValid() && s.inPieces(v.Type()) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				return s.value(v.Elem(), depth)
			}
		case reflect.Struct:
			return s.object(v, depth)
		case reflect.Slice:
			if !v.IsNil() && v.Len() > 0 {
				return s.array(v, depth)
			}
		}
	}
	return s.whole(v, depth)
}

// inPieces reports whether a value of type t may be written piece by
// piece: a pointer to a struct, a struct that holds slices and whose
// fields object writes as encoding/json does, or a slice other than
// bytes, none with its own JSON form. It is worked out once per type.
func (s *jsonStreamer) inPieces(t reflect.Type) bool {
	plan, ok := s.plans[t]
	if !ok {
		switch {
		case ownJSON(t):
		case t.Kind() == reflect.Pointer:
			plan = t.Elem().Kind() == reflect.Struct
		case t.Kind() == reflect.Struct:
			plan = streamable(t) && holdsSlice(t, 2)
		case t.Kind() == reflect.Slice:
			plan = t.Elem().Kind() != reflect.Uint8
		}
		s.plans[t] = plan
	}
	return plan
}

// ownJSON reports whether t writes its own JSON form, by value or
// through a pointer encoding/json would take.
func ownJSON(t reflect.Type) bool {
	return t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)
}

// streamable reports whether every field of struct type t is one that
// object writes as encoding/json does.
func streamable(t reflect.Type) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return false
		}
		if !f.IsExported() {
			continue
		}
		if _, opts, _ := strings.Cut(f.Tag.Get("json"), ","); opts != "" && opts != "omitempty" {
			return false
		}
	}
	return true
}

// holdsSlice reports whether struct type t has a slice field, or a
// struct field (or pointer to one) that has, levels deep at most: a struct
// without one is small, and encoded whole.
func holdsSlice(t reflect.Type, levels int) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8:
			return true
		case ft.Kind() == reflect.Struct && levels > 0 && holdsSlice(ft, levels-1):
			return true
		}
	}
	return false
}

// WriteFields writes the fields of struct v compact, as Write
// would write them, without the braces of their object and without a
// final newline: the fields of an object another writer opens and closes.
func WriteFields(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	s := &jsonStreamer{w: bw, plans: map[reflect.Type]bool{}}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	rv := reflect.Indirect(reflect.ValueOf(v))
	if rv.Kind() != reflect.Struct {
		return fmt.Errorf("WriteFields: %s is not a struct", rv.Type())
	}
	if _, err := s.fields(rv, 0); err != nil {
		return err
	}
	return bw.Flush()
}

// object writes struct v field by field.
func (s *jsonStreamer) object(v reflect.Value, depth int) error {
	s.w.WriteByte('{')
	n, err := s.fields(v, depth)
	if err != nil {
		return err
	}
	if n > 0 {
		s.newline(depth)
	}
	s.w.WriteByte('}')
	return nil
}

// fields writes the fields of struct v, separated by commas, and returns
// how many it wrote.
func (s *jsonStreamer) fields(v reflect.Value, depth int) (int, error) {
	t := v.Type()
	n := 0
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		fv := v.Field(i)
		if opts == "omitempty" && emptyJSON(fv) {
			continue
		}
		if n > 0 {
			s.w.WriteByte(',')
		}
		n++
		s.newline(depth + 1)
		if err := s.whole(reflect.ValueOf(name), depth+1); err != nil {
			return n, err
		}
		s.w.WriteByte(':')
		if s.indent {
			s.w.WriteByte(' ')
		}
		if err := s.value(fv, depth+1); err != nil {
			return n, err
		}
	}
	return n, nil
}

// array writes slice v element by element.
func (s *jsonStreamer) array(v reflect.Value, depth int) error {
	s.w.WriteByte('[')
	for i := range v.Len() {
		if i > 0 {
			s.w.WriteByte(',')
		}
		s.newline(depth + 1)
		if err := s.value(v.Index(i), depth+1); err != nil {
			return err
		}
	}
	s.newline(depth)
	s.w.WriteByte(']')
	return nil
}

// newline starts a line at depth levels of indentation, when indenting.
func (s *jsonStreamer) newline(depth int) {
	if !s.indent {
		return
	}
	s.w.WriteByte('\n')
	for range depth {
		s.w.WriteString("  ")
	}
}

// whole writes v with the encoder, its lines after the first indented by
// depth levels.
func (s *jsonStreamer) whole(v reflect.Value, depth int) error {
	if s.indent {
		s.enc.SetIndent(strings.Repeat("  ", depth), "  ")
	}
	s.buf.Reset()
	var x any
	if v.IsValid() {
		x = v.Interface()
	}
	if err := s.enc.Encode(x); err != nil {
		return err
	}
	_, err := s.w.Write(bytes.TrimSuffix(s.buf.Bytes(), []byte("\n")))
	return err
}

// emptyJSON is encoding/json's test for omitempty.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
