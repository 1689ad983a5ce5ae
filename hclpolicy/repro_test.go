package hclpolicy_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/longtest"
)

// reproductions are the policies of item 8 of issue 35, each built at
// its full size, that took tens of seconds (one call running far past
// the deadline): the place (line 2, this column) and the detail of the
// diagnostic each now gives at once.
var reproductions = []struct {
	name   string
	admit  func() string
	col    int
	detail string
}{
	{
		// An unused 49 KB block of prerel.hcl made prerel resolve take
		// 110 s: loading evaluates it four times, distinct comparing
		// each pair of ten thousand numbers each time.
		name: "distinct",
		admit: func() string {
			nums := make([]string, 10_000)
			for i := range nums {
				nums[i] = strconv.Itoa(i)
			}
			return `length(distinct(split(",", "` + strings.Join(nums, ",") + `"))) > 0`
		},
		col:    27,
		detail: "the argument of distinct: the evaluation takes more than 20000 steps",
	},
	{
		// 164 bytes of policy took 29.5 s and 274 MB: a pattern of
		// 240,000 bytes of Unicode classes, compiled.
		name: "regex",
		admit: func() string {
			return `can(regex(replace(format("%020000d", 0), "0", "[\\pL\\pN\\pS]?"), version.text))`
		},
		col:    21,
		detail: "the argument of regex: the evaluation takes more than 20000 steps",
	},
	{
		// 33.5 s for each case: converting an object of 8,000
		// attributes to a map unifies their types, each with every
		// other. The object alone is now more than the budget; a
		// smaller one fails at tomap (see hostile).
		name: "tomap",
		admit: func() string {
			obj := make(map[string]int, 8000)
			for i := range 8000 {
				obj["k"+strconv.Itoa(i)] = i
			}
			text, _ := json.Marshal(obj)
			quoted, _ := json.Marshal(string(text))
			return `length(tomap(jsondecode(` + string(quoted) + `))) > 0`
		},
		col:    24,
		detail: "jsondecode, decoding its text: the evaluation takes more than 20000 steps",
	},
}

// TestReproductions loads each reproduction as a policy block (a block
// that is never used costs its loading) and judges cases with it: each
// is invalid with the diagnostic of the exceeded budget, at the call
// that would have run long, and the whole takes well under the minute
// (on an idle core, milliseconds; the old code took 30 s to 110 s).
func TestReproductions(t *testing.T) {
	cases := [][2]string{{">= 1.0", "1.2.0"}, {"~> 1.2.0-beta", "1.2.0-rc.1"}, {"< 2", "0.1.0"}}
	if longtest.Enabled() {
		for i := range 50 {
			cases = append(cases, [2]string{fmt.Sprintf(">= 0.%d", i), fmt.Sprintf("1.%d.0-beta.%d", i, i)})
		}
	}
	for _, r := range reproductions {
		t.Run(r.name, func(t *testing.T) {
			path := writeFile(t, "prerel.hcl", fmt.Sprintf("policy \"repro\" {\n  admit = %s\n}\n", r.admit()))
			withinLimit(t, 60*time.Second, 512<<20, func() {
				ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
				if diags.HasErrors() {
					t.Error(diag.Format(diags[0]))
					return
				}
				want := fmt.Sprintf("%s:2:%d: Evaluation budget exceeded; %s", path, r.col, r.detail)
				for _, c := range cases {
					if got := engine.Evaluate(ps[0], c[0], c[1]); got.Verdict != engine.Invalid || !strings.HasPrefix(got.Reason, want) {
						t.Errorf("%q %q: got %v %q, want invalid: %s", c[0], c[1], got.Verdict, got.Reason, want)
						return
					}
				}
			})
		})
	}
}
