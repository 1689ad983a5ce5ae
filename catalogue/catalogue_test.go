package catalogue_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/prerel/prerel/adapters"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
	"github.com/prerel/prerel/readers"
	"github.com/prerel/prerel/updaters"
)

// shipped is the catalogue's order as this test was last written:
// "prerel policies --format json" and the default columns of "prerel
// eval" follow the catalogue's order, which scripts rely on. A new policy
// joins at its package's place (TestNewHoldsPoliciesThenAdapters...);
// none of these may go or move.
var shipped = []string{
	"strict", "lexical", "cargo", "linear", "linear-tight", "ga-bound", "any-pre", "fallback", "core-only",
	"hashicorp", "apparentlymart", "apparentlymart-exact", "masterminds", "masterminds-pre",
	"terraform-module", "opentofu-module", "go-versions-cargo",
	"renovate", "dependabot", "terraform-module-versions",
	"terraform-ls", "tfupdate", "opentofu-engine",
}

func TestNewKeepsTheOrder(t *testing.T) {
	got := catalogue.New().Names()
	i := 0
	for _, name := range got {
		if i < len(shipped) && name == shipped[i] {
			i++
		}
	}
	if i < len(shipped) {
		t.Errorf("catalogue.New().Names() =\n%v\nhas not %q after the policies before it in\n%v", got, shipped[i], shipped)
	}
}

func TestNewHoldsPoliciesThenAdaptersThenUpdatersThenReaders(t *testing.T) {
	want := append(append(append(policies.All(), adapters.All()...), updaters.All()...), readers.All()...)
	got := catalogue.New().All()
	if len(got) != len(want) {
		t.Fatalf("%d policies, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("policy %d = %#v, want %#v", i, got[i], want[i])
		}
	}
}

func TestNewReturnsIndependentRegistries(t *testing.T) {
	a, b := catalogue.New(), catalogue.New()
	if err := a.Register(own{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Lookup("own"); ok {
		t.Error("a policy registered in one registry appears in another")
	}
	if got := a.Names(); got[len(got)-1] != "own" || len(got) != len(b.Names())+1 {
		t.Errorf("own policy is not last: %v", got)
	}
}

func TestRegister(t *testing.T) {
	tests := []struct {
		name    string
		before  []engine.Policy
		wantErr string
		want    []string
	}{
		{"empty registry", nil, "", catalogue.New().Names()},
		{"after one's own", []engine.Policy{own{}}, "", append([]string{"own"}, catalogue.New().Names()...)},
		{"name taken", []engine.Policy{policies.Cargo{}}, `"cargo" is already registered`, []string{"cargo", "strict", "lexical"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := engine.NewRegistry()
			for _, p := range tt.before {
				if err := r.Register(p); err != nil {
					t.Fatal(err)
				}
			}
			err := catalogue.Register(r)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Register: %v, want error %q", err, tt.wantErr)
			}
			if got := r.Names(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("names %v, want %v", got, tt.want)
			}
		})
	}
}

// own is a policy of one's own.
type own struct{}

func (own) Name() string { return "own" }
func (own) Rule() string { return "everything" }
func (own) Compile(string) (engine.Matcher, error) {
	return nil, nil
}
