// Package sariftest reads, in tests, the parts of a SARIF log that tests
// check. Package sarifschema validates a log against the schema of
// SARIF 2.1.0 as well.
package sariftest

import (
	"encoding/json"
	"testing"
)

// Decode fails the test when log is not a SARIF log of one run, and
// returns it decoded otherwise.
func Decode(t testing.TB, log []byte) *Log {
	t.Helper()
	var l Log
	if err := json.Unmarshal(log, &l); err != nil {
		t.Fatalf("not JSON: %v\n%.2000s", err, log)
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
