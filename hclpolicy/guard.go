package hclpolicy

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// guard rewrites an expression in HCL's native syntax, in place, so that
// evaluating it charges the evaluation's budget for what HCL itself
// iterates over: the collection of each for expression and the source of
// each splat are wrapped in a call of chargeFunc, which charges their
// length times one more than the nodes of the body evaluated for each
// element and hands the value on unchanged; so is each part of a string
// template, charged for its length, and each argument of a standard
// library function, charged for its size (see guardArgs). The calls have the ranges of what
// they wrap, so every diagnostic keeps its place. Guarding an expression
// twice changes nothing.
func guard(expr hcl.Expression) {
	syn, ok := expr.(hclsyntax.Expression)
	if !ok {
		return
	}
	hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
		switch n := n.(type) {
		case *hclsyntax.ForExpr:
			nodes := countNodes(n.KeyExpr) + countNodes(n.ValExpr) + countNodes(n.CondExpr)
			n.CollExpr = chargeCall(n.CollExpr, site{what: "the for expression", rng: n.SrcRange, nodes: nodes})
		case *hclsyntax.SplatExpr:
			n.Source = chargeCall(n.Source, site{what: "the splat", rng: n.SrcRange, nodes: countNodes(n.Each)})
		case *hclsyntax.FunctionCallExpr:
			guardArgs(n)
		case *hclsyntax.TemplateExpr:
			for i, part := range n.Parts {
				if _, lit := part.(*hclsyntax.LiteralValueExpr); !lit {
					n.Parts[i] = chargeCall(part, site{what: "the string template", rng: n.SrcRange})
				}
			}
		}
		return nil
	})
}

// guardArgs wraps each argument of a call of a standard library function
// in a call of chargeFunc that charges its size (see argCost), before
// HCL converts it to its parameter's type and go-cty walks it: however
// often a large value is passed, each call pays for it. This package's
// own functions, try and can are not wrapped: their arguments are
// expressions they evaluate themselves.
func guardArgs(n *hclsyntax.FunctionCallExpr) {
	f, ok := functions[n.Name]
	if _, own := ownFunctions[n.Name]; !ok || own || n.Name == "try" || n.Name == "can" {
		return
	}
	params, varParam := f.Params(), f.VarParam()
	for i, a := range n.Args {
		var param cty.Type
		switch {
		case n.ExpandFinal && i == len(n.Args)-1:
			// Its elements are the arguments: a tuple is unified.
			param = cty.List(cty.DynamicPseudoType)
		case i < len(params):
			param = params[i].Type
		case varParam != nil:
			param = varParam.Type
		default:
			continue // HCL refuses the call before it evaluates an argument
		}
		n.Args[i] = chargeCall(a, site{what: "the argument of " + n.Name, rng: a.Range(), arg: true, param: param})
	}
}

// chargeCall wraps e in a call of chargeFunc for s, unless it is one.
func chargeCall(e hclsyntax.Expression, s site) hclsyntax.Expression {
	if call, ok := e.(*hclsyntax.FunctionCallExpr); ok && call.Name == chargeFunc {
		return e
	}
	rng := e.Range()
	start := hcl.Range{Filename: rng.Filename, Start: rng.Start, End: rng.Start}
	end := hcl.Range{Filename: rng.Filename, Start: rng.End, End: rng.End}
	return &hclsyntax.FunctionCallExpr{
		Name:            chargeFunc,
		Args:            []hclsyntax.Expression{e, &hclsyntax.LiteralValueExpr{Val: cty.CapsuleVal(siteType, &s), SrcRange: end}},
		NameRange:       start,
		OpenParenRange:  start,
		CloseParenRange: end,
	}
}

// isArgCharge reports whether call is the call of chargeFunc that guard
// wraps an argument of a standard library function in.
func isArgCharge(call *hclsyntax.FunctionCallExpr) bool {
	if call.Name != chargeFunc || len(call.Args) != 2 {
		return false
	}
	lit, ok := call.Args[1].(*hclsyntax.LiteralValueExpr)
	if !ok || !lit.Val.Type().Equals(siteType) || lit.Val.IsNull() {
		return false
	}
	return lit.Val.EncapsulatedValue().(*site).arg
}

// hidden reports whether n is a call that guard or the specializer wrote.
func hidden(n hclsyntax.Node) bool {
	call, ok := n.(*hclsyntax.FunctionCallExpr)
	return ok && (call.Name == chargeFunc || call.Name == failFunc)
}

// countNodes counts the nodes of e, 0 for nil.
func countNodes(e hclsyntax.Expression) int {
	if e == nil {
		return 0
	}
	n := 0
	hclsyntax.VisitAll(e, func(hclsyntax.Node) hcl.Diagnostics {
		n++
		return nil
	})
	return n
}

// failCall stands for a part of an expression that went over its budget
// when it was evaluated once for a constraint: it fails at once with the
// same diagnostic, d.
func failCall(e hclsyntax.Expression, d *hcl.Diagnostic) hclsyntax.Expression {
	rng := e.Range()
	if d.Subject != nil {
		rng = *d.Subject
	}
	err := &budgetError{msg: trimDot(d.Detail), rng: rng, hasRng: true}
	r := e.Range()
	start := hcl.Range{Filename: r.Filename, Start: r.Start, End: r.Start}
	end := hcl.Range{Filename: r.Filename, Start: r.End, End: r.End}
	return &hclsyntax.FunctionCallExpr{
		Name:            failFunc,
		Args:            []hclsyntax.Expression{&hclsyntax.LiteralValueExpr{Val: cty.CapsuleVal(failureType, err), SrcRange: end}},
		NameRange:       start,
		OpenParenRange:  start,
		CloseParenRange: end,
	}
}

// trimDot drops the full stop budgetDiagnostic ends a detail with.
func trimDot(s string) string {
	if len(s) > 0 && s[len(s)-1] == '.' {
		return s[:len(s)-1]
	}
	return s
}
