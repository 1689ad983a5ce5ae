package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	Version *string `json:"version"`
}

// DecodeModuleVersions reads the body of a module versions response,
// {"modules":[{"versions":[{"version":"1.0.0"},...]}]}, and returns the
// versions of the first module entry, as Terraform's installer does. A
// body that is not JSON of that shape, has no module entry, or has an
// entry without a version is an error.
func DecodeModuleVersions(body []byte) ([]string, error) {
	return decodeModuleVersionsAt(body, 0, int64(len(body)))
}

func decodeModuleVersionsAt(full []byte, start, end int64) ([]string, error) {
	var b moduleVersionsBody
	if err := decodeJSONAt(full, start, end, &b); err != nil {
		return nil, err
	}
	switch {
	case b.Modules == nil:
		return nil, errors.New(`no "modules" field in the response`)
	case len(*b.Modules) == 0:
		return nil, errors.New(`the response lists no module ("modules" is empty)`)
	case (*b.Modules)[0].Versions == nil:
		return nil, errors.New(`no "versions" field in the module entry`)
	}
	items := *(*b.Modules)[0].Versions
	out := make([]string, len(items))
	for i, it := range items {
		if it.Version == nil {
			return nil, fmt.Errorf(`versions[%d] has no "version" field`, i)
		}
		out[i] = *it.Version
	}
	return out, nil
}

// DecodeProviderVersions reads the body of a provider versions response,
// {"versions":[{"version":"2.0.0","protocols":["5.0"],"platforms":[...]}],
// "warnings":[...]}, and returns the versions and the warnings. Protocols
// and platforms are read for their shape only: Terraform does not select
// a version by them. A body that is not JSON of that shape, or has an
// entry without a version, is an error.
func DecodeProviderVersions(body []byte) (versions, warnings []string, err error) {
	return decodeProviderVersionsAt(body, 0, int64(len(body)))
}

func decodeProviderVersionsAt(full []byte, start, end int64) (versions, warnings []string, err error) {
	var b providerVersionsBody
	if err := decodeJSONAt(full, start, end, &b); err != nil {
		return nil, nil, err
	}
	if b.Versions == nil {
		return nil, nil, errors.New(`no "versions" field in the response`)
	}
	out := make([]string, len(*b.Versions))
	for i, it := range *b.Versions {
		if it.Version == nil {
			return nil, nil, fmt.Errorf(`versions[%d] has no "version" field`, i)
		}
		out[i] = *it.Version
	}
	return out, b.Warnings, nil
}

// decodeJSON decodes one JSON value from data into v; a syntax or type
// error names the line and column where it happened.
func decodeJSON(data []byte, v any) error {
	return decodeJSONAt(data, 0, int64(len(data)), v)
}

// decodeJSONAt decodes the JSON value in full[start:end] into v; the line
// and column of an error are those of full.
func decodeJSONAt(full []byte, start, end int64, v any) error {
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
			return fmt.Errorf("malformed JSON: %s: %s is a JSON %s, expected %s", at(typ.Offset), what, typ.Value, typ.Type)
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

// lineCol converts a byte offset of data into a 1-based line and column.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
