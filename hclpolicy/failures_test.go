package hclpolicy_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
)

// TestFailures checks that the errors of evaluations are kept grouped by
// error, with how many cases gave each and the first case in order, and
// that cases the engine's parser refuses or that refuse refuses are no
// failure.
func TestFailures(t *testing.T) {
	path := writeFile(t, "p.hcl", `policy "p" {
  admit         = version.is_prerelease ? version.prerelease[5] == "x" : version.major < 10 || version.text[0] == "v"
  refuse        = constraint.text == "= 9.9.9" || constraint.text == "= 8.8.8" && constraint.comparators[3].op == "="
  refuse_reason = "no"
}
`)
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	p := ps[0]
	if p.Err() != nil {
		t.Fatalf("before any case: %v", p.Err())
	}
	var wg sync.WaitGroup
	for _, v := range []string{"1.0.0-rc.2", "1.0.0-rc.1", "1.0.0", "10.0.0", "11.0.0", "bad"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			engine.Evaluate(p, ">= 1.0", v)
			engine.Evaluate(p, "= 9.9.9", v)
			engine.Evaluate(p, ">= 1.0,", v)
		}()
	}
	wg.Wait()
	engine.Evaluate(p, "= 8.8.8", "1.0.0")
	groups, more := p.Failures()
	if more != 0 || len(groups) != 3 {
		t.Fatalf("%d groups, %d more: %+v", len(groups), more, groups)
	}
	byPlace := map[string]hclpolicy.Failure{}
	for _, g := range groups {
		place, _, _ := strings.Cut(strings.TrimPrefix(g.Reason, path+":"), ": ")
		byPlace[place] = g
	}
	if g := byPlace["2:61"]; g.Cases != 2 || g.Constraint != ">= 1.0" || g.Version != "1.0.0-rc.1" {
		t.Errorf("the index out of range: %+v", g)
	}
	if g := byPlace["2:108"]; g.Cases != 2 || g.Constraint != ">= 1.0" || g.Version != "10.0.0" {
		t.Errorf("the index into a string: %+v", g)
	}
	if g := byPlace["3:105"]; g.Cases != 1 || g.Constraint != "= 8.8.8" || g.Version != "" {
		t.Errorf("refuse's error: %+v", g)
	}
	var fe *hclpolicy.FailureError
	if err := p.Err(); !errors.As(err, &fe) || fe.Policy != "p" || !strings.HasPrefix(err.Error(), "the policy p failed on 5 cases, each invalid:\n  "+path+":") {
		t.Errorf("Err: %v", err)
	}
}

// TestFailuresIn checks the error a program tells after its last case:
// the failures of the policies in HCL of a registry, in its order.
func TestFailuresIn(t *testing.T) {
	path := writeFile(t, "p.hcl", `policy "fails" {
  admit = version.major < 10 || version.prerelease[3] == "x"
}
policy "fails-too" {
  admit = version.prerelease[2] == "x"
}
policy "fine" {
  admit = true
}
`)
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	reg := engine.NewRegistry()
	for _, p := range []*hclpolicy.Policy{ps[2], ps[1], ps[0]} {
		if err := reg.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := hclpolicy.FailuresIn(reg); err != nil {
		t.Fatalf("before any case: %v", err)
	}
	for _, p := range ps {
		engine.Evaluate(p, ">= 1.0", "11.0.0")
	}
	err := hclpolicy.FailuresIn(reg)
	if err == nil {
		t.Fatal("no error once two policies failed")
	}
	if want := ps[1].Err().Error() + "\n" + ps[0].Err().Error(); err.Error() != want {
		t.Errorf("FailuresIn = %q, want the errors of fails-too, then fails", err)
	}
}
