package render_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/internal/sarif"
	"github.com/prerel/prerel/internal/sarif/sarifschema"
)

// A baseline as prerel writes it: one line per pair, class and policy's
// verdicts.
const driftBaseline = `{
  "schema": 1,
  "domain": {"name":"exhaustive","cases":3},
  "policies": ["strict","cargo"],
  "pairs": [
    {"a":"strict","b":"cargo","agree":2,"diverge":1}
  ],
  "classes": [
    {"a":"strict","b":"cargo","signature":"\u003e= V-pre; a reject, b allow","count":1}
  ],
  "selection": {"groups":1},
  "verdicts": {
    "strict": "x",
    "cargo": "y"
  }
}
`

// Each change of a drift stands at the line of its entry in the
// baseline: a pair in either order, a class (its signature written as
// the baseline escapes it), the domain, the policies, a policy's
// verdicts; an entry the baseline lacks at its list's line; anything at
// the file when the baseline cannot be read again.
func TestDriftSARIFLines(t *testing.T) {
	d := &compare.Drift{
		Policies: []compare.PolicyDrift{{Policy: "cargo", Changed: 1, Moves: []compare.Move{{Count: 1}}}},
		Changes: []compare.Change{
			{Kind: compare.Changed, Subject: "pair", A: "strict", B: "cargo", Text: "pair"},
			{Kind: compare.Changed, Subject: "pair", A: "cargo", B: "strict", Text: "pair swapped"},
			{Kind: compare.Disappeared, Subject: "class", A: "strict", B: "cargo", Signature: ">= V-pre; a reject, b allow", Text: "class"},
			{Kind: compare.Appeared, Subject: "class", A: "strict", B: "cargo", Signature: "new", Text: "new class"},
			{Kind: compare.Changed, Subject: "domain", Text: "domain"},
			{Kind: compare.Appeared, Subject: "policy", Text: "policy"},
			{Kind: compare.Changed, Subject: "selection pair", A: "strict", B: "cargo", Text: "selection"},
		},
		ChangesLeft: 3,
	}
	want := []int{14, 6, 6, 9, 8, 3, 4, 11, 0}
	for _, baseline := range [][]byte{[]byte(driftBaseline), nil} {
		results := render.DriftSARIF(d, "base line.json", baseline)
		var got []int
		for _, r := range results {
			if r.Location.File != "base line.json" {
				t.Errorf("%q at %q, want the baseline", r.Message, r.Location.File)
			}
			got = append(got, r.Location.Line)
		}
		w := want
		if baseline == nil {
			w = make([]int, len(want))
		}
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("lines %v, want %v", got, w)
		}
		var b bytes.Buffer
		if err := sarif.Write(&b, sarif.Log{Rules: render.SARIFRules, Results: results}); err != nil {
			t.Fatal(err)
		}
		sarifschema.Check(t, b.Bytes())
	}
	if r := render.DriftSARIF(&compare.Drift{Matches: true}, "b.json", nil); r != nil {
		t.Errorf("a matching run has results %v", r)
	}
}
