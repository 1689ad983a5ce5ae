// Package sarifschema checks, in tests, that a SARIF log is valid: it
// validates it against the official JSON schema of SARIF 2.1.0 (kept in
// testdata, with its provenance), formats asserted (every URI must be
// one). Package sariftest reads a log without the validator, for a test
// binary that should not start it.
package sarifschema

import (
	"bytes"
	_ "embed"
	"sync"
	"testing"

	"github.com/prerel/prerel/internal/sarif/sariftest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed testdata/sarif-schema-2.1.0.json
var schemaJSON []byte

// schemaURL is the schema's own id.
const schemaURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
})

// Validate returns why log is not a valid SARIF 2.1.0 log, nil when it
// is.
func Validate(log []byte) error {
	sch, err := compiled()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// Check fails the test when log is not a valid SARIF 2.1.0 log, and
// returns it decoded (sariftest.Decode) otherwise.
func Check(t testing.TB, log []byte) *sariftest.Log {
	t.Helper()
	if err := Validate(log); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, log)
	}
	return sariftest.Decode(t, log)
}
