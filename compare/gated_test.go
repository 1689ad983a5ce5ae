package compare_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/prerel/prerel/catalogue/cataloguetest"
	"github.com/prerel/prerel/compare"
)

func TestGatedPolicies(t *testing.T) {
	base := &compare.Report{Policies: []string{"strict", "cargo", "linear"}}
	registered := []string{"strict", "lexical", "cargo", "linear", "trial"}
	tests := []struct {
		name       string
		registered []string
		chosen     []string
		want       compare.Gated
		err        string
	}{
		{name: "none chosen: the baseline's, the others ungated", registered: registered,
			want: compare.Gated{Policies: []string{"strict", "cargo", "linear"}, Ungated: []string{"lexical", "trial"}}},
		{name: "none chosen, every registered one in the baseline", registered: []string{"linear", "cargo", "strict"},
			want: compare.Gated{Policies: []string{"strict", "cargo", "linear"}}},
		{name: "the baseline's, in another order", registered: registered, chosen: []string{"linear", "strict", "cargo"},
			want: compare.Gated{Policies: []string{"linear", "strict", "cargo"}}},
		{name: "one more chosen", registered: registered, chosen: []string{"strict", "cargo", "linear", "trial"},
			err: "the policies chosen differ from the baseline's: only the policies chosen have trial"},
		{name: "one fewer chosen", registered: registered, chosen: []string{"strict", "linear"},
			err: "the policies chosen differ from the baseline's: only the baseline has cargo"},
		{name: "another chosen", registered: registered, chosen: []string{"strict", "lexical", "linear"},
			err: "the policies chosen differ from the baseline's: only the baseline has cargo; only the policies chosen have lexical"},
		{name: "none chosen, one of the baseline's unregistered", registered: []string{"strict", "linear", "trial"},
			err: "the baseline has policies that are not registered: cargo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := compare.GatedPolicies(base, tt.registered, tt.chosen)
			if tt.err != "" {
				var pe *compare.PolicySetError
				if err == nil || err.Error() != tt.err || !errors.As(err, &pe) {
					t.Fatalf("GatedPolicies = %+v, %v; want a *PolicySetError %q", got, err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("GatedPolicies = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
	if _, err := compare.GatedPolicies(nil, registered, nil); err == nil {
		t.Error("GatedPolicies with no baseline: no error")
	}
}

// TestGateRun checks that a run of more policies than its baseline
// records drifts from it in nothing when the baseline's policies agree,
// with the others named, and that a policy the run lacks is drift.
func TestGateRun(t *testing.T) {
	d, err := compare.Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	run := func(names ...string) *compare.Report {
		t.Helper()
		r, err := compare.Run(context.Background(), d, cataloguetest.Policies(names...), compare.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	path := filepath.Join(t.TempDir(), "b.json")
	if err := compare.WriteBaseline(path, run("strict", "cargo")); err != nil {
		t.Fatal(err)
	}
	base, err := compare.ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		run      []string
		ungated  []string
		policies []string // of the gated report
		matches  bool
	}{
		{"the baseline's policies", []string{"strict", "cargo"}, nil, []string{"strict", "cargo"}, true},
		{"two more", []string{"strict", "cargo", "linear", "lexical"}, []string{"lexical", "linear"}, []string{"strict", "cargo"}, true},
		{"one fewer: drift", []string{"strict", "linear"}, nil, []string{"strict", "linear"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(tt.run...)
			g, ungated := compare.GateRun(base, r)
			if !reflect.DeepEqual(ungated, tt.ungated) || !reflect.DeepEqual(g.Policies, tt.policies) {
				t.Errorf("GateRun: policies %q, ungated %q; want %q and %q", g.Policies, ungated, tt.policies, tt.ungated)
			}
			dr, err := compare.ComputeDrift(context.Background(), d, base, g, nil)
			if err != nil {
				t.Fatal(err)
			}
			if dr.Matches != tt.matches {
				t.Errorf("the drift matches: %v, want %v: %v", dr.Matches, tt.matches, dr.Changes)
			}
			if len(r.Policies) != len(tt.run) {
				t.Errorf("GateRun changed the run: %q", r.Policies)
			}
		})
	}
}
