package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/terraform/address"
)

// Index is an offline source of versions: for each module and provider
// address, the body the registry returns for its versions request. Its
// file is a JSON object with two optional members:
//
//	{
//	  "modules": {
//	    "terraform-aws-modules/vpc/aws": {"modules": [{"versions": [{"version": "5.1.0"}]}]}
//	  },
//	  "providers": {
//	    "hashicorp/aws": {"versions": [{"version": "5.31.0", "protocols": ["5.0"], "platforms": []}]}
//	  }
//	}
//
// A version object may carry "published_at", the time the version was
// published in RFC 3339 ("2026-03-01T12:00:00Z"), next to "version": a
// minimum release age (engine.Cooldown) counts from it. The registry
// protocol defines no such field; an index file is where a history's
// dates can be written by hand or recorded from the registries' other
// APIs (see Client.ModuleDates).
//
// Keys are source addresses as a configuration writes them; a key without
// a host is on registry.terraform.io, and keys are compared as Terraform
// compares addresses (package address reads them). Modules and providers are
// kept apart because HOST/NAMESPACE/TYPE and NAMESPACE/NAME/SYSTEM cannot
// be told apart by their text. Every body is decoded when the index is
// loaded, so a malformed one is reported at once, with its line and column.
type Index struct {
	name      string
	modules   map[tfaddr.ModulePackage]indexEntry
	providers map[tfaddr.Provider]indexEntry
}

type indexEntry struct {
	key      string // as written in the file
	line     int
	versions []string
	warnings []string
	dates    []time.Time
}

var _ Source = (*Index)(nil)

// LoadIndex reads and parses the index file at path: a regular file or a
// pipe of at most safefile.IndexLimit bytes. A device, socket or
// directory is refused with a *safefile.NotRegularError, a longer file
// with a *safefile.TooLargeError; neither is read.
func LoadIndex(path string) (*Index, error) {
	data, err := safefile.ReadNamed(path, safefile.IndexLimit)
	if err != nil {
		return nil, err
	}
	return ParseIndex(data, path)
}

// ParseIndex parses an index; name is the file name used in errors and in
// each Listing's From. Errors name the line and column. A UTF-8 byte order
// mark at the start is skipped. The time taken grows linearly with the
// size of the index.
func ParseIndex(data []byte, name string) (*Index, error) {
	x, err := parseIndex(data, name, &lineCounter{})
	if err != nil {
		return nil, clean(err)
	}
	return x, nil
}

// parseIndex is ParseIndex with the line counter it uses, so that tests
// can see how much of data it scanned for line numbers.
func parseIndex(data []byte, name string, lines *lineCounter) (*Index, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	*lines = lineCounter{data: data}
	x := &Index{name: name, modules: map[tfaddr.ModulePackage]indexEntry{}, providers: map[tfaddr.Provider]indexEntry{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	errAt := func(off int64, format string, args ...any) error {
		line, col := lines.at(off)
		return fmt.Errorf("%s:%d:%d: %s", name, line, col, fmt.Sprintf(format, args...))
	}
	tokenErr := func(err error) error {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return errAt(syn.Offset-1, "malformed JSON: %v", syn)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errAt(int64(len(data)), "malformed JSON: unexpected end of file")
		}
		return errAt(dec.InputOffset(), "malformed JSON: %v", err)
	}
	expectDelim := func(want json.Delim, what string) error {
		off := skipToValue(data, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return tokenErr(err)
		}
		if d, ok := tok.(json.Delim); !ok || d != want {
			return errAt(off, "expected %s", what)
		}
		return nil
	}
	if err := expectDelim('{', "an object with \"modules\" and \"providers\""); err != nil {
		return nil, err
	}
	for dec.More() {
		off := skipToValue(data, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return nil, tokenErr(err)
		}
		section, _ := tok.(string)
		if section != "modules" && section != "providers" {
			return nil, errAt(off, "unknown member %q: expected \"modules\" or \"providers\"", clipQuoted(section))
		}
		if err := expectDelim('{', fmt.Sprintf("%q to be an object keyed by source address", section)); err != nil {
			return nil, err
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, tokenErr(err)
			}
			key, _ := tok.(string)
			keyEnd := dec.InputOffset()
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, tokenErr(err)
			}
			end := dec.InputOffset()
			start := skipToValue(data, keyEnd)
			line, _ := lines.at(keyEnd)
			e := indexEntry{key: key, line: line}
			if section == "modules" {
				pkg, err := address.ParseModulePackage(key)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: modules key: %s", name, line, clipQuoted(err.Error()))
				}
				e.versions, e.dates, err = decodeModuleVersionsAt(data, start, end, true)
				if err != nil {
					return nil, fmt.Errorf("%s: modules[%q]: %s", name, clipQuoted(key), clipQuoted(err.Error()))
				}
				if err := addEntry(x.modules, pkg, e, name, section); err != nil {
					return nil, err
				}
			} else {
				p, err := address.ParseProvider(key)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: providers key: %s", name, line, clipQuoted(err.Error()))
				}
				e.versions, e.warnings, e.dates, err = decodeProviderVersionsAt(data, start, end, true)
				if err != nil {
					return nil, fmt.Errorf("%s: providers[%q]: %s", name, clipQuoted(key), clipQuoted(err.Error()))
				}
				if err := addEntry(x.providers, p, e, name, section); err != nil {
					return nil, err
				}
			}
		}
		if err := expectDelim('}', "the end of the object"); err != nil {
			return nil, err
		}
	}
	if err := expectDelim('}', "the end of the object"); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errAt(dec.InputOffset(), "unexpected data after the index object")
	}
	return x, nil
}

// maxQuoted bounds what an error quotes of an index: a key or a message
// that repeats it, however long, is clipped to its start and end.
const maxQuoted = 1024

// clipQuoted clips s for an error message.
func clipQuoted(s string) string { return elide.Middle(s, maxQuoted) }

// addEntry adds e under key, refusing a second key for the same address.
func addEntry[K comparable](m map[K]indexEntry, key K, e indexEntry, name, section string) error {
	if prev, dup := m[key]; dup {
		return fmt.Errorf("%s:%d: %s key %q is the same address as %q on line %d", name, e.line, section, clipQuoted(e.key), clipQuoted(prev.key), prev.line)
	}
	m[key] = e
	return nil
}

// skipToValue returns the offset of the first byte of the token that
// follows off: past white space, a colon or a comma.
func skipToValue(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// ErrNilIndex is the error of the methods of a nil *Index.
var ErrNilIndex = errors.New("no version index (a nil *registry.Index)")

// String returns "index FILE", or "index (none)" for a nil Index.
func (x *Index) String() string {
	if x == nil {
		return "index (none)"
	}
	return "index " + printable.String(x.name)
}

// Modules returns the module addresses in the index, sorted; none for a
// nil Index.
func (x *Index) Modules() []string {
	if x == nil {
		return nil
	}
	return sortedKeys(x.modules)
}

// Providers returns the provider addresses in the index, sorted; none for
// a nil Index.
func (x *Index) Providers() []string {
	if x == nil {
		return nil
	}
	return sortedKeys(x.providers)
}

func sortedKeys[K comparable](m map[K]indexEntry) []string {
	out := make([]string, 0, len(m))
	for _, e := range m {
		out = append(out, e.key)
	}
	slices.Sort(out)
	return out
}

// ModuleVersions returns the versions the index holds for addr. An address
// the index does not hold is an error wrapping ErrNotFound.
func (x *Index) ModuleVersions(_ context.Context, pkg tfaddr.ModulePackage) (*Listing, error) {
	if x == nil {
		return nil, ErrNilIndex
	}
	e, ok := x.modules[address.ModuleKey(pkg)]
	if !ok {
		return nil, clean(fmt.Errorf("module %s: %w in %s", pkg.ForDisplay(), ErrNotFound, x.name))
	}
	return &Listing{Versions: e.versions, Published: e.dates, From: fmt.Sprintf("%s:%d", x.name, e.line)}, nil
}

// ProviderVersions returns the versions the index holds for addr. An
// address the index does not hold is an error wrapping ErrNotFound.
func (x *Index) ProviderVersions(_ context.Context, p tfaddr.Provider) (*Listing, error) {
	if x == nil {
		return nil, ErrNilIndex
	}
	e, ok := x.providers[p]
	if !ok {
		return nil, clean(fmt.Errorf("provider %s: %w in %s", p.ForDisplay(), ErrNotFound, x.name))
	}
	return &Listing{Versions: e.versions, Warnings: e.warnings, Published: e.dates, From: fmt.Sprintf("%s:%d", x.name, e.line)}, nil
}
