package hclpolicy

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestDeadline checks that an evaluation that takes longer than its
// timeout fails with the deadline's diagnostic, whatever steps are left:
// with a timeout of a nanosecond, the result of range(1000) takes the
// steps past 256, the clock is read, and the evaluation stops there.
func TestDeadline(t *testing.T) {
	e, diags := hclsyntax.ParseExpression([]byte(`length([for i in range(1000) : i]) > 0`), "p.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	guard(e)
	ev := newEvaluation()
	defer ev.release()
	ev.b.timeout = time.Nanosecond
	_, diags = ev.value(e)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "the evaluation takes longer than 1ns") || diags[0].Subject.Start.Column != 18 {
		t.Fatalf("got %v", diags)
	}
}
