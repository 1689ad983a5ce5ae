package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/internal/longtest"
)

// TestAggregateJSONAsEncoder checks the JSON fields of an aggregate,
// written a pair and a class at a time, against json.Encoder, and that
// reading them back gives the same fields.
func TestAggregateJSONAsEncoder(t *testing.T) {
	longtest.SkipShort(t)
	d, err := compare.Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	// Every day seven policies of every kind (natives, a selection-level
	// one, adapters, an updater), whose pairs and classes hold every field;
	// every policy in the long run.
	policies := catalogue.New().All()
	if !longtest.Enabled() {
		policies, err = catalogue.New().Resolve([]string{"strict", "lexical", "cargo", "fallback", "apparentlymart", "masterminds", "renovate"})
		if err != nil {
			t.Fatal(err)
		}
	}
	a, err := compare.RunGroups(context.Background(), d, policies, compare.Options{}, func(int64) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	j, err := aggregateToJSON(a)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	got.WriteByte('{')
	if err := writeAggregateFields(&got, a); err != nil {
		t.Fatal(err)
	}
	got.WriteString("}\n")
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("writeAggregateFields wrote %d bytes that differ from json.Encoder's %d", got.Len(), want.Len())
	}
	var back aggregateJSON
	if err := json.Unmarshal(got.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(policies))
	for i, p := range policies {
		names[i] = p.Name()
	}
	b, err := aggregateOf(&back, names, d.Info().Cases)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	again.WriteByte('{')
	if err := writeAggregateFields(&again, b); err != nil {
		t.Fatal(err)
	}
	again.WriteString("}\n")
	if again.String() != got.String() {
		t.Fatal("the aggregate read back writes other fields")
	}
}

// A field of the aggregate's JSON form of the wrong type is named as
// the file spells it, without the struct that embeds it.
func TestAggregateFieldNamedFlat(t *testing.T) {
	var j partialJSON
	err := json.Unmarshal([]byte(`{"policies":["a","b"],"cases":"many"}`), &j)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		t.Fatalf("got %v, want a type error", err)
	}
	if got := flatField(te.Field); got != "cases" {
		t.Errorf("field %q named %q, want %q", te.Field, got, "cases")
	}
}
