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
// library function, charged for its size (see guardArgs); and so is each
// value that HCL converts or compares, charged for that (see
// convertCall): the operands of the operators but && and ||, the results
// of a conditional, the keys of an object or a for expression, an index.
// (A template's for directive joins the values of a template, whose parts
// are charged.) The calls have the ranges
// of what they wrap, so every diagnostic keeps its place. Guarding an
// expression twice changes nothing.
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
			if n.KeyExpr != nil {
				n.KeyExpr = convertCall(n.KeyExpr, "the key of the for expression", toString)
			}
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
		case *hclsyntax.BinaryOpExpr:
			if c, ok := operandConversions[n.Op]; ok {
				what := "the operand of " + c.symbol
				n.LHS = convertCall(n.LHS, what, c.conv)
				n.RHS = convertCall(n.RHS, what, c.conv)
			}
		case *hclsyntax.UnaryOpExpr:
			if n.Op == hclsyntax.OpNegate {
				n.Val = convertCall(n.Val, "the operand of -", toNumber)
			}
		case *hclsyntax.ConditionalExpr:
			n.TrueResult = convertCall(n.TrueResult, "the result of the conditional", toUnify)
			n.FalseResult = convertCall(n.FalseResult, "the result of the conditional", toUnify)
		case *hclsyntax.IndexExpr:
			n.Key = convertCall(n.Key, "the index", toIndex)
		case *hclsyntax.ObjectConsExpr:
			for _, item := range n.Items {
				k, ok := item.KeyExpr.(*hclsyntax.ObjectConsKeyExpr)
				if ok && (k.ForceNonLiteral || hcl.ExprAsKeyword(k.Wrapped) == "") {
					k.Wrapped = convertCall(k.Wrapped, "the key of the object", toString)
				}
			}
		}
		return nil
	})
}

// operandConversions are the operators whose operands guard wraps, with
// their symbols and what they do with an operand: && and || take bools,
// which cost nothing to convert.
var operandConversions = map[*hclsyntax.Operation]struct {
	symbol string
	conv   conversion
}{
	hclsyntax.OpEqual:              {"==", toCompare},
	hclsyntax.OpNotEqual:           {"!=", toCompare},
	hclsyntax.OpGreaterThan:        {">", toNumber},
	hclsyntax.OpGreaterThanOrEqual: {">=", toNumber},
	hclsyntax.OpLessThan:           {"<", toNumber},
	hclsyntax.OpLessThanOrEqual:    {"<=", toNumber},
	hclsyntax.OpAdd:                {"+", toNumber},
	hclsyntax.OpSubtract:           {"-", toNumber},
	hclsyntax.OpMultiply:           {"*", toNumber},
	hclsyntax.OpDivide:             {"/", toNumber},
	hclsyntax.OpModulo:             {"%", toNumber},
}

// convertCall wraps e, which HCL converts as c says, in a call of
// chargeFunc that charges that conversion (see conversionCost), unless it
// costs nothing whatever it gives: a literal whose conversion costs no
// step, an expression that always gives a bool, or, converted to a
// number, one that always gives a number.
func convertCall(e hclsyntax.Expression, what string, c conversion) hclsyntax.Expression {
	if lit, ok := e.(*hclsyntax.LiteralValueExpr); ok && conversionSteps(lit.Val, c, MaxSteps+1) == 0 {
		return e
	}
	if isBool(e) || c == toNumber && isNumber(e) {
		return e
	}
	return chargeCall(e, site{what: what, rng: e.Range(), conv: c})
}

// numberFunctions are the functions whose result is always a number (or,
// when the call fails, a value of no type).
var numberFunctions = map[string]bool{
	"compare": true, "length": true, "strlen": true, "abs": true, "ceil": true, "floor": true,
	"max": true, "min": true, "pow": true, "signum": true, "log": true, "parseint": true, "tonumber": true,
}

// isNumber reports whether e always gives a number, or fails.
func isNumber(e hclsyntax.Expression) bool {
	switch n := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return n.Val.Type() == cty.Number
	case *hclsyntax.BinaryOpExpr:
		return n.Op.Type == cty.Number
	case *hclsyntax.UnaryOpExpr:
		return n.Op == hclsyntax.OpNegate
	case *hclsyntax.ParenthesesExpr:
		return isNumber(n.Expression)
	case *hclsyntax.FunctionCallExpr:
		if n.Name == chargeFunc && len(n.Args) == 2 {
			return isNumber(n.Args[0])
		}
		return numberFunctions[n.Name]
	case *hclsyntax.ScopeTraversalExpr:
		return versionAttribute(n) == cty.Number
	}
	return false
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

// chargeSite returns the site of call when it is a call of chargeFunc
// that guard wrote, and nil otherwise.
func chargeSite(call *hclsyntax.FunctionCallExpr) *site {
	if call.Name != chargeFunc || len(call.Args) != 2 {
		return nil
	}
	lit, ok := call.Args[1].(*hclsyntax.LiteralValueExpr)
	if !ok || !lit.Val.Type().Equals(siteType) || lit.Val.IsNull() {
		return nil
	}
	return lit.Val.EncapsulatedValue().(*site)
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
