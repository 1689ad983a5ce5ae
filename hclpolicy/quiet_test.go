package hclpolicy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
)

// TestQuietKeepsNoFailures checks that the quiet form of a policy judges
// every case as the policy does and that the cases it judges are not
// counted in the policy's failures, which count each case of the policy's
// own judging.
func TestQuietKeepsNoFailures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.hcl")
	if err := os.WriteFile(path, []byte(`policy "sixth-tag" {
  admit  = version.is_prerelease ? version.prerelease[5] == "x" : satisfies(constraint, version)
  refuse = [false][constraint.text == "= 9" ? 1 : 0]
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	p := ps[0]
	q := engine.Quiet(p)
	if q.Name() != p.Name() || q.Rule() != p.Rule() {
		t.Fatalf("quiet: %q, %q; want %q, %q", q.Name(), q.Rule(), p.Name(), p.Rule())
	}
	cases := [][2]string{{">= 1.0.0", "1.0.0-beta"}, {">= 1.0.0", "1.2.0"}, {"~> 1.0", "1.0.0-rc.1"}, {"= 9", "9.0.0"}}
	for _, c := range cases {
		got, want := engine.Evaluate(q, c[0], c[1]), engine.Evaluate(p, c[0], c[1])
		if got != want {
			t.Errorf("%q with %s: quiet %+v, the policy %+v", c[0], c[1], got, want)
		}
	}
	// Judged once by the policy, and again quietly (compiled and not).
	for _, c := range cases {
		engine.Evaluate(q, c[0], c[1])
	}
	engine.Evaluate(q, "~> 2.0", "2.0.0-alpha")
	groups, more := p.Failures()
	n := more
	for _, g := range groups {
		n += g.Cases
	}
	if n != 3 {
		t.Errorf("the policy failed on %d cases (%+v), want 3: two prereleases and one refuse", n, groups)
	}
}
