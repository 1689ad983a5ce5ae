package compare_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// TestWriteJSONAsEncoder checks that Report.WriteJSON, which writes a report a
// class at a time, writes what json.Encoder writes of the whole report,
// on runs of its policies (jsonPolicies) over exhaustive scope 1, a small
// corpus (with a selection) and a random sample, their baselines, and an
// empty report.
func TestWriteJSONAsEncoder(t *testing.T) {
	exhaustive := mustExhaustive(t, 1)
	corpus, err := compare.Corpus(smallCorpus, compare.PairAll)
	if err != nil {
		t.Fatal(err)
	}
	random, err := compare.Random(1, 2000)
	if err != nil {
		t.Fatal(err)
	}
	reports := map[string]*compare.Report{"empty": {}}
	for name, d := range map[string]compare.Domain{"exhaustive": exhaustive, "corpus": corpus, "random": random} {
		r, err := compare.Run(context.Background(), d, jsonPolicies(t), compare.Options{})
		if err != nil {
			t.Fatal(err)
		}
		reports[name] = r
		reports[name+" baseline"] = r.Baseline()
	}
	for name, r := range reports {
		t.Run(name, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := r.WriteJSON(&got); err != nil {
				t.Fatal(err)
			}
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("WriteJSON wrote %d bytes that differ from json.Encoder's %d", got.Len(), want.Len())
			}
		})
	}
}

// jsonPolicies are the policies of the reports TestRenderJSONAsEncoder
// encodes: a native, a selection-level and two library policies every
// day, which fill every field of a report; every registered policy in the
// long run (longtest).
func jsonPolicies(t *testing.T) []engine.Policy {
	if longtest.Enabled() {
		return catalogue.New().All()
	}
	ps, err := catalogue.New().Resolve([]string{"strict", "cargo", "fallback", "hashicorp", "terraform-module"})
	if err != nil {
		t.Fatal(err)
	}
	return ps
}
