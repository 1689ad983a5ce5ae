package age_test

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare/age"
	"github.com/prerel/prerel/internal/golden"
)

var reg = catalogue.New()

// TestFallbackTrap runs the exhaustive dated domain: the fallback trap
// appears for fallback, with the smallest witness, and the policy-first
// order never springs it (engine.SelectCooled), which the class's own
// selections show.
func TestFallbackTrap(t *testing.T) {
	ps, err := reg.Resolve([]string{"terraform-module", "cargo", "linear", "fallback"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := age.Run(age.Exhaustive(), ps, 7*24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	traps := r.Traps()
	if len(traps) != 1 || traps[0].Policy != "fallback" {
		t.Fatalf("traps %+v, want fallback's alone", traps)
	}
	tr := traps[0]
	if got, want := tr.Witness.String(), `"> 1" over 1.1.0 (young), 2.0.0-rc.1`; got != want {
		t.Errorf("witness %s, want %s", got, want)
	}
	if tr.Without != "1.1.0" || tr.AgeFirst != "2.0.0-rc.1" || tr.PolicyFirst != "none" {
		t.Errorf("selections without %s, policy first %s, age first %s", tr.Without, tr.PolicyFirst, tr.AgeFirst)
	}
	for _, c := range r.Classes {
		if c.Policy != "fallback" && c.Kind == age.Trap {
			t.Errorf("%s falls into the trap: %+v", c.Policy, c)
		}
	}
	var b bytes.Buffer
	if err := age.WriteText(&b, r, true); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "exhaustive.txt"), b.Bytes())
}
