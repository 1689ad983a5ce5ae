// Package sariftest checks, in tests, that a SARIF log is valid: it
// validates it against the official JSON schema of SARIF 2.1.0 (kept in
// testdata, with its provenance), formats asserted (every URI must be
// one).
package sariftest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"sync"
	"testing"

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
// returns it decoded otherwise.
func Check(t testing.TB, log []byte) *Log {
	t.Helper()
	if err := Validate(log); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, log)
	}
	var l Log
	if err := json.Unmarshal(log, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(l.Runs))
	}
	return &l
}

// Log is the part of a SARIF log tests read.
type Log struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID      string `json:"id"`
					HelpURI string `json:"helpUri"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []Result `json:"results"`
	} `json:"runs"`
}

// Result is a result as tests read it.
type Result struct {
	RuleID  string `json:"ruleId"`
	Level   string `json:"level"`
	Message struct {
		Text string `json:"text"`
	} `json:"message"`
	Locations        []Location `json:"locations"`
	RelatedLocations []Location `json:"relatedLocations"`
}

// Location is a location as tests read it.
type Location struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
	Message struct {
		Text string `json:"text"`
	} `json:"message"`
}

// Results returns the results of the log's one run.
func (l *Log) Results() []Result { return l.Runs[0].Results }
