package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
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
// Keys are source addresses as a configuration writes them; a key without
// a host is on DefaultHost, and keys are compared as Terraform compares
// addresses (ModuleAddr.Key, ProviderAddr.Key). Modules and providers are
// kept apart because HOST/NAMESPACE/TYPE and NAMESPACE/NAME/SYSTEM cannot
// be told apart by their text. Every body is decoded when the index is
// loaded, so a malformed one is reported at once, with its line and column.
type Index struct {
	name      string
	modules   map[string]indexEntry
	providers map[string]indexEntry
}

type indexEntry struct {
	key      string // as written in the file
	line     int
	versions []string
	warnings []string
}

var _ Source = (*Index)(nil)

// LoadIndex reads and parses the index file at path.
func LoadIndex(path string) (*Index, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseIndex(data, path)
}

// ParseIndex parses an index; name is the file name used in errors and in
// each Listing's From. Errors name the line and column.
func ParseIndex(data []byte, name string) (*Index, error) {
	x := &Index{name: name, modules: map[string]indexEntry{}, providers: map[string]indexEntry{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	errAt := func(off int64, format string, args ...any) error {
		line, col := lineCol(data, off)
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
			return nil, errAt(off, "unknown member %q: expected \"modules\" or \"providers\"", section)
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
			line, _ := lineCol(data, keyEnd)
			e := indexEntry{key: key, line: line}
			var canon string
			if section == "modules" {
				addr, err := ParseModuleSource(key)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: modules key: %v", name, line, err)
				}
				if addr.Subdir != "" {
					return nil, fmt.Errorf("%s:%d: modules key %q: a module package address has no //subdirectory", name, line, key)
				}
				canon = addr.Key()
				e.versions, err = decodeModuleVersionsAt(data, start, end)
				if err != nil {
					return nil, fmt.Errorf("%s: modules[%q]: %v", name, key, err)
				}
			} else {
				addr, err := ParseProviderSource(key)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: providers key: %v", name, line, err)
				}
				canon = addr.Key()
				e.versions, e.warnings, err = decodeProviderVersionsAt(data, start, end)
				if err != nil {
					return nil, fmt.Errorf("%s: providers[%q]: %v", name, key, err)
				}
			}
			m := x.modules
			if section == "providers" {
				m = x.providers
			}
			if prev, dup := m[canon]; dup {
				return nil, fmt.Errorf("%s:%d: %s key %q is the same address as %q on line %d", name, line, section, key, prev.key, prev.line)
			}
			m[canon] = e
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

// String returns "index FILE".
func (x *Index) String() string { return "index " + x.name }

// Modules returns the module addresses in the index, sorted.
func (x *Index) Modules() []string { return sortedKeys(x.modules) }

// Providers returns the provider addresses in the index, sorted.
func (x *Index) Providers() []string { return sortedKeys(x.providers) }

func sortedKeys(m map[string]indexEntry) []string {
	out := make([]string, 0, len(m))
	for _, e := range m {
		out = append(out, e.key)
	}
	sort.Strings(out)
	return out
}

// ModuleVersions returns the versions the index holds for addr. An address
// the index does not hold is an error wrapping ErrNotFound.
func (x *Index) ModuleVersions(_ context.Context, addr ModuleAddr) (*Listing, error) {
	e, ok := x.modules[addr.Key()]
	if !ok {
		return nil, fmt.Errorf("module %s: %w in %s", addr, ErrNotFound, x.name)
	}
	return &Listing{Versions: e.versions, From: fmt.Sprintf("%s:%d", x.name, e.line)}, nil
}

// ProviderVersions returns the versions the index holds for addr. An
// address the index does not hold is an error wrapping ErrNotFound.
func (x *Index) ProviderVersions(_ context.Context, addr ProviderAddr) (*Listing, error) {
	e, ok := x.providers[addr.Key()]
	if !ok {
		return nil, fmt.Errorf("provider %s: %w in %s", addr, ErrNotFound, x.name)
	}
	return &Listing{Versions: e.versions, Warnings: e.warnings, From: fmt.Sprintf("%s:%d", x.name, e.line)}, nil
}
