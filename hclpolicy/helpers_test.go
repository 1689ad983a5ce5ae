package hclpolicy_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/policies"
)

// designsDir holds the policies written in HCL.
const designsDir = "../testdata/designs"

// rewrittenNatives pairs each native policy that testdata/designs
// re-expresses in HCL (hcl-<name>.hcl) with the name of its design. A
// design is optional: a native policy without one is left out, and a
// design that names no native policy fails.
func rewrittenNatives(tb testing.TB) []engine.Policy {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(designsDir, "hcl-*.hcl"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no designs of native policies: %v", err)
	}
	var out []engine.Policy
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "hcl-"), ".hcl")
		i := slices.IndexFunc(policies.All(), func(p engine.Policy) bool { return p.Name() == name })
		if i < 0 {
			tb.Fatalf("%s re-expresses %q, which is no native policy", f, name)
		}
		out = append(out, policies.All()[i])
	}
	return out
}

// design loads the policy name from designsDir/name.hcl.
func design(tb testing.TB, name string) *hclpolicy.Policy {
	tb.Helper()
	ps, diags := hclpolicy.Load(filepath.Join(designsDir, name+".hcl"), hclpolicy.Options{})
	for _, d := range diags {
		tb.Log(diag.Format(d))
	}
	if diags.HasErrors() {
		tb.FailNow()
	}
	for _, p := range ps {
		if p.Name() == name {
			return p
		}
	}
	tb.Fatalf("%s.hcl has no policy %q", name, name)
	return nil
}
