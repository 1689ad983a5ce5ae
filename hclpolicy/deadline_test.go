package hclpolicy

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestDeadline checks that an evaluation that takes longer than its
// timeout fails with the deadline's diagnostic, whatever steps are left,
// at the place of the charge that read the clock: with a timeout of a
// nanosecond, the clock starts at its first reading, once 256 steps have
// passed (the result of range(1000)), and fails at the next, 256 steps
// later or at a single charge of 256 steps or more, before the work it
// pays for starts (the for expression over that range, decoding a long
// text).
func TestDeadline(t *testing.T) {
	long := `"[` + strings.Repeat(`1,`, 4000) + `1]"`
	for _, c := range []struct {
		expr   string
		col    int
		detail string
	}{
		{`length([for i in range(1000) : i]) > 0`, 8, "the for expression: the evaluation takes longer than 1ns"},
		{`length(jsondecode(` + long + `)) > 0`, 8, "jsondecode, decoding its text: the evaluation takes longer than 1ns"},
		{`length([for i in range(60) : true]) > 0 && length(distinct(split(",", join(",", range(20))))) > 0`, 51, "distinct, comparing each pair of its 20 elements: the evaluation takes longer than 1ns"},
	} {
		e, diags := hclsyntax.ParseExpression([]byte(c.expr), "p.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		guard(e)
		ev := newEvaluation()
		ev.b.timeout = time.Nanosecond
		_, diags = ev.value(e)
		ev.release()
		if len(diags) != 1 || !strings.HasPrefix(diags[0].Detail, c.detail) || diags[0].Subject.Start.Column != c.col {
			t.Errorf("%.60s: got %v, want at column %d: %s", c.expr, diags, c.col, c.detail)
		}
	}
}
