package compare_test

import (
	"errors"
	"reflect"
	"testing"

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
