package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"time"
)

// Listing is the versions a registry lists for one module or provider.
type Listing struct {
	// Versions are the version strings exactly as the registry wrote them,
	// in the registry's order. Versions no policy can read stay in the
	// list: each policy reports the ones it cannot read.
	Versions []string
	// Warnings are the registry's own warnings for the address (the
	// providers endpoint may send some), as it wrote them.
	Warnings []string
	// From says where the listing came from: the URL requested, or the
	// index file and key.
	From string
	// Published are the versions' publication dates, in Versions' order,
	// the zero time for a version without one; nil when the source gives
	// none (the registry protocol's versions endpoints do not: an index
	// file's "published_at" does).
	Published []time.Time
}

// moduleVersionsBody is the body of GET <modules.v1>NS/NAME/SYSTEM/versions.
type moduleVersionsBody struct {
	Modules *[]struct {
		Source   string         `json:"source"`
		Versions *[]versionItem `json:"versions"`
	} `json:"modules"`
}

// providerVersionsBody is the body of GET <providers.v1>NS/TYPE/versions.
type providerVersionsBody struct {
	Versions *[]struct {
		versionItem
		Protocols []string `json:"protocols"`
		Platforms []struct {
			OS   string `json:"os"`
			Arch string `json:"arch"`
		} `json:"platforms"`
	} `json:"versions"`
	Warnings []string `json:"warnings"`
}

type versionItem struct {
	Version     *string `json:"version"`
	PublishedAt *string `json:"published_at"`
}

// publishedAt reads the published_at of the i-th version of an index
// file: RFC 3339, or absent for a version without a date.
func publishedAt(items []versionItem, dated bool) ([]time.Time, error) {
	if !dated {
		return nil, nil
	}
	var out []time.Time
	for i, it := range items {
		if it.PublishedAt == nil {
			continue
		}
		t, err := time.Parse(time.RFC3339, *it.PublishedAt)
		if err != nil {
			return nil, fmt.Errorf(`versions[%d]: "published_at" %q is not an RFC 3339 time such as "2026-03-01T12:00:00Z"`, i, clipQuoted(*it.PublishedAt))
		}
		if out == nil {
			out = make([]time.Time, len(items))
		}
		out[i] = t.UTC()
	}
	return out, nil
}

// DecodeModuleVersions reads the body of a module versions response,
// {"modules":[{"versions":[{"version":"1.0.0"},...]}]}, and returns the
// versions of the first module entry, as Terraform's installer does. A
// body that is not JSON of that shape, has no module entry, or has an
// entry without a version is an error.
func DecodeModuleVersions(body []byte) ([]string, error) {
	vs, _, err := decodeModuleVersionsAt(body, 0, int64(len(body)), false)
	return vs, err
}

// decodeModuleVersionsAt decodes a module versions body; dated reads each
// version's "published_at", as an index file may give it.
func decodeModuleVersionsAt(full []byte, start, end int64, dated bool) ([]string, []time.Time, error) {
	var b moduleVersionsBody
	if err := decodeJSONAt(full, start, end, &b); err != nil {
		return nil, nil, err
	}
	switch {
	case b.Modules == nil:
		return nil, nil, errors.New(`no "modules" field in the response`)
	case len(*b.Modules) == 0:
		return nil, nil, errors.New(`the response lists no module ("modules" is empty)`)
	case (*b.Modules)[0].Versions == nil:
		return nil, nil, errors.New(`no "versions" field in the module entry`)
	}
	items := *(*b.Modules)[0].Versions
	out := make([]string, len(items))
	for i, it := range items {
		if it.Version == nil {
			return nil, nil, fmt.Errorf(`versions[%d] has no "version" field`, i)
		}
		out[i] = *it.Version
	}
	dates, err := publishedAt(items, dated)
	if err != nil {
		return nil, nil, err
	}
	return out, dates, nil
}

// DecodeProviderVersions reads the body of a provider versions response,
// {"versions":[{"version":"2.0.0","protocols":["5.0"],"platforms":[...]}],
// "warnings":[...]}, and returns the versions and the warnings. Protocols
// and platforms are read for their shape only: Terraform does not select
// a version by them. A body that is not JSON of that shape, or has an
// entry without a version, is an error.
func DecodeProviderVersions(body []byte) (versions, warnings []string, err error) {
	versions, warnings, _, err = decodeProviderVersionsAt(body, 0, int64(len(body)), false)
	return versions, warnings, err
}

// decodeProviderVersionsAt decodes a provider versions body; dated reads
// each version's "published_at", as an index file may give it.
func decodeProviderVersionsAt(full []byte, start, end int64, dated bool) (versions, warnings []string, dates []time.Time, err error) {
	var b providerVersionsBody
	if err := decodeJSONAt(full, start, end, &b); err != nil {
		return nil, nil, nil, err
	}
	if b.Versions == nil {
		return nil, nil, nil, errors.New(`no "versions" field in the response`)
	}
	out := make([]string, len(*b.Versions))
	items := make([]versionItem, len(*b.Versions))
	for i, it := range *b.Versions {
		if it.Version == nil {
			return nil, nil, nil, fmt.Errorf(`versions[%d] has no "version" field`, i)
		}
		out[i], items[i] = *it.Version, it.versionItem
	}
	dates, err = publishedAt(items, dated)
	if err != nil {
		return nil, nil, nil, err
	}
	return out, b.Warnings, dates, nil
}

// decodeJSON decodes one JSON value from data into v; a syntax or type
// error names the line and column where it happened. A leading UTF-8 byte
// order mark is skipped.
func decodeJSON(data []byte, v any) error {
	return decodeJSONAt(data, 0, int64(len(data)), v)
}

// utf8BOM is the byte order mark some editors write at the start of a
// UTF-8 file.
var utf8BOM = []byte("\xef\xbb\xbf")

// decodeJSONAt decodes the JSON value in full[start:end] into v; the line
// and column of an error are those of full. A UTF-8 byte order mark at the
// start of full is skipped.
func decodeJSONAt(full []byte, start, end int64, v any) error {
	if start == 0 && bytes.HasPrefix(full[:end], utf8BOM) {
		start = int64(len(utf8BOM))
	}
	data := full[start:end]
	dec := json.NewDecoder(bytes.NewReader(data))
	at := func(off int64) string {
		line, col := lineCol(full, start+off)
		return fmt.Sprintf("line %d, column %d", line, col)
	}
	if err := dec.Decode(v); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return fmt.Errorf("malformed JSON: %s: %v", at(syn.Offset-1), syn)
		case errors.As(err, &typ):
			what := "the value"
			if typ.Field != "" {
				what = fmt.Sprintf("%q", typ.Field)
			}
			return fmt.Errorf("malformed JSON: %s: %s is a JSON %s, expected %s", at(typ.Offset), what, typ.Value, describeType(typ.Type))
		case errors.Is(err, io.EOF):
			return errors.New("malformed JSON: the body is empty")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return errors.New("malformed JSON: the body ends in the middle of a value")
		default:
			return fmt.Errorf("malformed JSON: %v", err)
		}
	}
	if dec.More() {
		return fmt.Errorf("malformed JSON: %s: unexpected data after the value", at(dec.InputOffset()))
	}
	return nil
}

// describeType names the JSON a Go type is decoded from, for errors: "an
// object", "an array of objects", "a string".
func describeType(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		elem := t.Elem()
		for elem.Kind() == reflect.Pointer {
			elem = elem.Elem()
		}
		switch elem.Kind() {
		case reflect.Struct, reflect.Map:
			return "an array of objects"
		case reflect.String:
			return "an array of strings"
		}
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another kind of value"
}

// lineCol converts a byte offset of data into a 1-based line and column.
// It scans data up to off; to convert many offsets, use a lineCounter.
func lineCol(data []byte, off int64) (line, col int) {
	lc := lineCounter{data: data}
	return lc.at(off)
}

// lineCounter converts byte offsets of data into 1-based lines and
// columns. Asked in increasing order, it scans each byte of data once in
// all; an offset before the last one asked starts the count again.
type lineCounter struct {
	data      []byte
	off       int64 // the bytes before off are counted
	line      int   // the line off is on, 1-based; 0 before the first call
	lineStart int64 // the offset where that line starts
	scanned   int64 // bytes scanned in all, for tests
}

func (l *lineCounter) at(off int64) (line, col int) {
	off = min(max(off, 0), int64(len(l.data)))
	if l.line == 0 || off < l.off {
		l.off, l.line, l.lineStart = 0, 1, 0
	}
	for l.off < off {
		chunk := l.data[l.off:off]
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			l.scanned += int64(len(chunk))
			l.off = off
			break
		}
		l.scanned += int64(i + 1)
		l.off += int64(i + 1)
		l.line++
		l.lineStart = l.off
	}
	return l.line, int(off-l.lineStart) + 1
}
