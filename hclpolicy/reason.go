package hclpolicy

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/engine"
)

// Reasons of a policy written as an expression.
//
// An admit expression whose top is a chain of && (or of ||) is judged
// operand by operand, so that the reason names the operand that decided:
// the first false one of an && chain, the first true one of an || chain,
// as "OPERAND is false (ATTRIBUTE is VALUE, ...)", with the attributes
// of version and constraint it reads, as explain shows them. An &&
// chain whose operands are all true, an || chain whose operands are all
// false, and an expression that is no chain are named whole. HCL
// evaluates every operand of && and || anyway, so judging them one by
// one gives the same verdict; when an operand fails or gives something
// other than a bool, the whole expression is evaluated instead, for
// HCL's own diagnostic.

// Bounds of a reason.
const (
	// maxReasonText is how many runes of an operand's text a reason
	// quotes, elided in the middle.
	maxReasonText = 100
	// maxReasonValue is how many runes of an attribute's value it shows.
	maxReasonValue = 60
	// maxReasonAttributes is how many attributes it shows.
	maxReasonAttributes = 4
)

// decision is the top of an admit expression: its operands when it is a
// chain of && or ||, and the text and the attributes read of each and of
// the whole.
type decision struct {
	and      bool // an && chain; || otherwise
	operands []hclsyntax.Expression
	// runOperands are the operands as evaluated (see direct).
	runOperands []hcl.Expression
	texts       []string
	reads       [][]hcl.Traversal
	text        string
	allReads    []hcl.Traversal
}

// newDecision works out the decision of the admit expression expr.
func newDecision(expr hclsyntax.Expression, sources map[string][]byte) *decision {
	d := &decision{text: reasonText(expr, sources), allReads: attributeReads(expr)}
	top, ok := unparen(expr).(*hclsyntax.BinaryOpExpr)
	if !ok || top.Op != hclsyntax.OpLogicalAnd && top.Op != hclsyntax.OpLogicalOr {
		return d
	}
	d.and = top.Op == hclsyntax.OpLogicalAnd
	d.operands = chain(top, top.Op, nil)
	for _, o := range d.operands {
		d.texts = append(d.texts, reasonText(o, sources))
		d.reads = append(d.reads, attributeReads(o))
	}
	return d
}

// chain appends the operands of the chain of op whose top is e.
func chain(e hclsyntax.Expression, op *hclsyntax.Operation, out []hclsyntax.Expression) []hclsyntax.Expression {
	if b, ok := unparen(e).(*hclsyntax.BinaryOpExpr); ok && b.Op == op {
		out = chain(b.LHS, op, out)
		return chain(b.RHS, op, out)
	}
	return append(out, e)
}

// reasonText is the text of e on one line, clipped.
func reasonText(e hclsyntax.Expression, sources map[string][]byte) string {
	text := flatSource(exprSource(e, sources))
	if text == "" {
		return "the expression at " + e.Range().String()
	}
	return clip(text, maxReasonText)
}

// attributeReads are the traversals of e that read an attribute of
// version or constraint (or deeper), each once.
func attributeReads(e hclsyntax.Expression) []hcl.Traversal {
	var out []hcl.Traversal
	seen := map[string]bool{}
	for _, t := range e.Variables() {
		if r := t.RootName(); r != varVersion && r != varConstraint || len(t) < 2 {
			continue
		}
		path := t.RootName() + "." + traversalPath(t[1:])
		if !seen[path] {
			seen[path] = true
			out = append(out, t)
		}
	}
	return out
}

// judgeOperands evaluates the operands in ev, as HCL evaluates an && or
// || chain: every one of them, in order. ok is false when one fails or
// gives something other than a bool: the caller then evaluates the whole
// expression, for HCL's own diagnostic or conversion. An unknown operand
// (a part over its budget, see plan.partValues) leaves the decision to the
// known ones, as HCL does.
func (d *decision) judgeOperands(ev *evaluation, operands []hcl.Expression, reasons bool) (r engine.Result, ok bool) {
	decided := -1
	unknown := false
	for i, o := range operands {
		v, diags := ev.value(o)
		if diags.HasErrors() {
			return r, false
		}
		if !v.IsKnown() && (v.Type() == cty.Bool || v.Type() == cty.DynamicPseudoType) {
			// A part that went over its budget (see plan.partValues):
			// as for HCL, a known operand may still decide.
			unknown = true
			continue
		}
		b, err := boolResult(v, "admit")
		if err != nil {
			return r, false
		}
		if decided < 0 && b != d.and {
			decided = i
		}
	}
	if decided < 0 && unknown {
		return r, false
	}
	if !reasons {
		if (decided < 0) == d.and {
			return engine.Result{Verdict: engine.Allow}, true
		}
		return engine.Result{Verdict: engine.Reject}, true
	}
	vars := ev.ctx.Variables
	switch {
	case decided < 0 && d.and:
		return engine.Allowed(d.reason(d.text, true, d.allReads, vars)), true
	case decided < 0:
		return engine.Rejected(d.reason(d.text, false, d.allReads, vars)), true
	case d.and:
		return engine.Rejected(d.reason(d.texts[decided], false, d.reads[decided], vars)), true
	}
	return engine.Allowed(d.reason(d.texts[decided], true, d.reads[decided], vars)), true
}

// reason is "TEXT is VALUE (ATTRIBUTE is VALUE, ...)", the attributes
// that reads read evaluated with vars.
func (d *decision) reason(text string, value bool, reads []hcl.Traversal, vars map[string]cty.Value) string {
	var b strings.Builder
	b.WriteString(text)
	if value {
		b.WriteString(" is true")
	} else {
		b.WriteString(" is false")
	}
	ctx := hcl.EvalContext{Variables: vars}
	shown := 0
	for _, t := range reads {
		if shown == maxReasonAttributes {
			b.WriteString(", ...")
			break
		}
		v, diags := t.TraverseAbs(&ctx)
		if diags.HasErrors() {
			continue
		}
		if shown == 0 {
			b.WriteString(" (")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(t.RootName())
		b.WriteByte('.')
		b.WriteString(traversalPath(t[1:]))
		b.WriteString(" is ")
		b.WriteString(clip(show(v), maxReasonValue))
		shown++
	}
	if shown > 0 {
		b.WriteByte(')')
	}
	return engine.ClipReason(b.String())
}

// wholeReason is the reason of an admit expression that is no chain, or
// whose operands could not be judged one by one.
func (d *decision) wholeReason(admitted bool, vars map[string]cty.Value) string {
	return d.reason(d.text, admitted, d.allReads, vars)
}
