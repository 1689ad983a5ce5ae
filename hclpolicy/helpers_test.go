package hclpolicy_test

import (
	"path/filepath"
	"testing"

	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
)

// designsDir holds the policies written in HCL.
const designsDir = "../testdata/designs"

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
