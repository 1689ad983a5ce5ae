package render_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/policies"
)

// TestPolicyErrorsOf checks the report's section of the policies in HCL
// that failed: only those, in order, each error with its count and its
// first case.
func TestPolicyErrorsOf(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.hcl")
	src := `policy "fails" {
  admit = version.major < 10 || version.prerelease[3] == "x"
}
policy "fine" {
  admit = true
}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	hps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, v := range []string{"10.0.0", "11.0.0", "1.0.0"} {
		engine.Evaluate(hps[0], ">= 1.0", v)
		engine.Evaluate(hps[1], ">= 1.0", v)
	}
	tests := []struct {
		name string
		ps   []engine.Policy
		want []string // "POLICY CASES: CASES CONSTRAINT VERSION" per error
	}{
		{"none", []engine.Policy{policies.Strict{}, hps[1]}, nil},
		{"the failing one", []engine.Policy{policies.Strict{}, hps[1], hps[0]}, []string{"fails 2: 2 >= 1.0 10.0.0"}},
	}
	for _, tt := range tests {
		var got []string
		for _, pe := range render.PolicyErrorsOf(tt.ps) {
			for _, g := range pe.Errors {
				if !strings.Contains(g.Reason, path) || len(g.Reason) > engine.MaxReason {
					t.Errorf("%s: reason %q", tt.name, g.Reason)
				}
				got = append(got, fmt.Sprintf("%s %d: %d %s %s", pe.Policy, pe.Cases, g.Cases, g.Constraint, g.Version))
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
