package hclpolicy

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// Evaluating without go-cty's Function.Call.
//
// go-cty's Function.Call walks every argument through and through,
// looking for marks, before it looks whether the parameter accepts them,
// and HCL copies a function's parameter list on every call. For the
// calls an admit expression makes most (this package's own functions,
// alltrue, anytrue, and the chargeFunc calls guard writes), direct
// rewrites an expression into one whose calls are directCall nodes: a
// directCall evaluates its arguments as HCL does, checks what Call would
// check, and calls the function's type and implementation itself. Any
// case off the common path (an argument that is null, unknown or of no
// type, a function that fails, a name that stands for another function)
// is handed to HCL's own call with the arguments' values, so that its
// value and diagnostics are HCL's. direct also replaces the lists and
// strings written out of constants (such as ["=", "!="]) by their value,
// computed once by HCL, and evaluates &&, ||, ==, != and ! on plain
// bools (and strings, for == and !=), and conditionals whose results are
// plain values of one type, without go-cty's function calls and type
// unification, leaving every other case to HCL's operators with the
// operands' values.
//
// The rewritten expression is only evaluated: the expression as written
// (or as specialized) stays what the rest of the package inspects.

// directKind is how a directCall calls its function.
type directKind uint8

const (
	// directOwn calls one of this package's functions of two arguments
	// of valueType.
	directOwn directKind = iota
	// directBools calls alltrue or anytrue, its list as it is (HCL hands
	// it over in a capsule, see listArg).
	directBools
	// directCharge calls chargeFunc.
	directCharge
	// directStd calls a function of go-cty's standard library that
	// charges the budget (see budgeted), without the wrapper's own
	// Function.Call.
	directStd
)

// directCall is a call evaluated without Function.Call. The embedded
// call is the call as written, with its arguments rewritten by direct.
type directCall struct {
	*hclsyntax.FunctionCallExpr
	kind directKind
	// For directOwn and directBools: the function's specification, and
	// what charging a call of it needs.
	spec *function.Spec
	own  *ownCall

	// For directStd: the standard library's function, its parameters,
	// its variadic parameter (or nil) and the size check of its result.
	std      function.Function
	params   []function.Parameter
	varParam *function.Parameter
	check    func([]cty.Value) string
}

// ownCall returns the evaluation whose context ctx is, or is a child of,
// when the function the call's name stands for in ctx is the one of that
// evaluation's own table, whose functions charge its budget; nil
// otherwise. It walks ctx and its parents once.
func (d *directCall) ownCall(ctx *hcl.EvalContext) *evaluation {
	var found *hcl.EvalContext
	for c := ctx; c != nil; c = c.Parent() {
		if found == nil && c.Functions != nil {
			if _, ok := c.Functions[d.Name]; ok {
				found = c
			}
		}
		if v, ok := c.Variables[evaluationVar]; ok {
			if found == nil || !v.Type().Equals(evaluationType) || !v.IsKnown() || v.IsNull() || v.IsMarked() {
				return nil
			}
			if ev := v.EncapsulatedValue().(*evaluation); found == &ev.ctx {
				return ev
			}
			return nil
		}
	}
	return nil
}

// Value evaluates the call as HCL's FunctionCallExpr.Value does.
func (d *directCall) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	ev := d.ownCall(ctx)
	if ev == nil {
		return d.FunctionCallExpr.Value(ctx)
	}
	args := make([]cty.Value, len(d.Args))
	var diags hcl.Diagnostics
	for i, a := range d.Args {
		var v cty.Value
		var more hcl.Diagnostics
		if d.kind == directOwn {
			// The parameter's type has a custom decoder.
			if v, more = decodeArg(a, ctx); v == cty.NilVal {
				v = cty.UnknownVal(valueType)
			}
		} else if d.kind == directStd {
			v, more = a.Value(ctx)
			diags = append(diags, more...)
			more = nil
			p := d.varParam
			if i < len(d.params) {
				p = &d.params[i]
			}
			var err error
			if v, err = convert.Convert(v, p.Type); err != nil {
				more = hcl.Diagnostics{{
					Severity:    hcl.DiagError,
					Summary:     "Invalid function argument",
					Detail:      fmt.Sprintf("Invalid value for %q parameter: %s.", p.Name, err),
					Subject:     a.StartRange().Ptr(),
					Context:     d.Range().Ptr(),
					Expression:  a,
					EvalContext: ctx,
				}}
			}
		} else {
			// Converting to the parameter's type (any type, or a
			// site) changes nothing, or fails in call.
			v, more = a.Value(ctx)
		}
		diags = append(diags, more...)
		args[i] = v
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	snapshot := ev.b
	if d.kind == directStd {
		std := d.std
		if m, ok := ev.metered[d.Name]; ok {
			std = m
		}
		if v, ok := d.callStd(&ev.b, std, args); ok {
			return v, diags
		}
	} else if v, ok := d.call(ev, args); ok {
		return v, diags
	}
	// HCL's call charges the budget again, from where it was.
	ev.b = snapshot
	// Off the common path: HCL calls the function with the same values.
	v, more := d.withValues(args).Value(ctx)
	return v, append(diags, more...)
}

// withValues is the call with its arguments replaced by their values,
// each at the start of the argument, where HCL places an argument's
// errors.
func (d *directCall) withValues(args []cty.Value) *hclsyntax.FunctionCallExpr {
	cp := *d.FunctionCallExpr
	cp.Args = make([]hclsyntax.Expression, len(args))
	for i, v := range args {
		cp.Args[i] = &hclsyntax.LiteralValueExpr{Val: v, SrcRange: d.Args[i].StartRange()}
	}
	return &cp
}

// call returns what Function.Call returns for args when it succeeds on
// the common path, and false otherwise.
func (d *directCall) call(ev *evaluation, args []cty.Value) (v cty.Value, ok bool) {
	switch d.kind {
	case directCharge:
		s := args[1]
		if !s.Type().Equals(siteType) || s.IsNull() || !s.IsKnown() || s.IsMarked() {
			return cty.NilVal, false
		}
		if ev.b.chargeValue(args[0], s.EncapsulatedValue().(*site)) != nil {
			return cty.NilVal, false
		}
		return args[0], true
	case directOwn:
		for _, a := range args {
			if !a.Type().Equals(valueType) || a.IsNull() || !a.IsKnown() {
				return cty.NilVal, false
			}
		}
	case directBools:
		// Its argument is handed over as it is, without a capsule: only
		// go-cty's Function.Call would walk it.
		if a := args[0]; a.IsNull() || a.Type() == cty.DynamicPseudoType || !a.IsKnown() {
			return cty.NilVal, false
		}
	}
	// As the evaluation's own function does before its type.
	if ev.b.chargeOwn(d.own, args) != nil {
		return cty.NilVal, false
	}
	defer func() {
		if recover() != nil {
			v, ok = cty.NilVal, false
		}
	}()
	ty, err := d.spec.Type(args)
	if err != nil {
		return cty.NilVal, false
	}
	v, err = d.spec.Impl(args, ty)
	if err != nil || v == cty.NilVal || v.Type().TestConformance(ty) != nil {
		return cty.NilVal, false
	}
	return v, true
}

// callStd returns what the budgeted wrapper's Function.Call returns for
// args when it succeeds and args are known, not null, of their
// parameters' types and without marks, charging b as the wrapper does
// and calling std, the function the wrapper calls, and false otherwise.
func (d *directCall) callStd(b *budget, std function.Function, args []cty.Value) (v cty.Value, ok bool) {
	if len(args) < len(d.params) || d.varParam == nil && len(args) > len(d.params) {
		return cty.NilVal, false
	}
	for i, a := range args {
		p := d.varParam
		if i < len(d.params) {
			p = &d.params[i]
		}
		t := a.Type()
		if !a.IsKnown() || a.IsNull() || t == cty.DynamicPseudoType || t.TestConformance(p.Type) != nil || a.ContainsMarked() {
			return cty.NilVal, false
		}
	}
	defer func() {
		if recover() != nil {
			v, ok = cty.NilVal, false
		}
	}()
	if b.chargeWork(d.Name, args) != nil || b.charge(callSteps, "calling "+d.Name, nil) != nil {
		return cty.NilVal, false
	}
	if d.check != nil && allKnown(args) && d.check(args) != "" {
		return cty.NilVal, false
	}
	v, err := std.Call(args)
	if err != nil || b.charge(b.cost(v), "the result of "+d.Name, nil) != nil {
		return cty.NilVal, false
	}
	return v, true
}

// direct returns e rewritten for evaluation (see above), sharing what it
// does not change.
func direct(e hclsyntax.Expression) hclsyntax.Expression {
	return (&directRewriter{}).expr(e)
}

// directRewriter rewrites expressions for evaluation; when rewritten is
// not nil, it records there every node it rewrites and what it became.
type directRewriter struct {
	rewritten map[hclsyntax.Node]hclsyntax.Expression
}

func (r *directRewriter) expr(e hclsyntax.Expression) hclsyntax.Expression {
	out := r.rewrite(e)
	if r.rewritten != nil && e != nil {
		r.rewritten[e] = out
	}
	return out
}

func (r *directRewriter) rewrite(e hclsyntax.Expression) hclsyntax.Expression {
	switch n := e.(type) {
	case *hclsyntax.FunctionCallExpr:
		args, changed := r.all(n.Args)
		cp := n
		if changed {
			c := *n
			c.Args = args
			cp = &c
		}
		if dc := directCallOf(cp); dc != nil {
			return dc
		}
		return cp
	case *hclsyntax.BinaryOpExpr:
		cp := *n
		cp.LHS, cp.RHS = r.expr(n.LHS), r.expr(n.RHS)
		switch n.Op {
		case hclsyntax.OpLogicalAnd, hclsyntax.OpLogicalOr, hclsyntax.OpEqual, hclsyntax.OpNotEqual:
			return &directBinary{&cp}
		}
		if cp.LHS == n.LHS && cp.RHS == n.RHS {
			return n
		}
		return &cp
	case *hclsyntax.UnaryOpExpr:
		cp := *n
		cp.Val = r.expr(n.Val)
		if n.Op == hclsyntax.OpLogicalNot {
			return &directNot{&cp}
		}
		if cp.Val == n.Val {
			return n
		}
		return &cp
	case *hclsyntax.ParenthesesExpr:
		if x := r.expr(n.Expression); x != n.Expression {
			cp := *n
			cp.Expression = x
			return &cp
		}
		return n
	case *hclsyntax.ConditionalExpr:
		cp := *n
		cp.Condition, cp.TrueResult, cp.FalseResult = r.expr(n.Condition), r.expr(n.TrueResult), r.expr(n.FalseResult)
		return &directConditional{&cp}
	case *hclsyntax.TupleConsExpr:
		exprs, changed := r.all(n.Exprs)
		cp := n
		if changed {
			c := *n
			c.Exprs = exprs
			cp = &c
		}
		return constantOf(cp, exprs)
	case *hclsyntax.TemplateExpr:
		parts, changed := r.all(n.Parts)
		cp := n
		if changed {
			c := *n
			c.Parts = parts
			cp = &c
		}
		return constantOf(cp, parts)
	case *hclsyntax.ForExpr:
		coll, k, v, c := r.expr(n.CollExpr), r.orNil(n.KeyExpr), r.expr(n.ValExpr), r.orNil(n.CondExpr)
		if coll == n.CollExpr && k == n.KeyExpr && v == n.ValExpr && c == n.CondExpr {
			return n
		}
		cp := *n
		cp.CollExpr, cp.KeyExpr, cp.ValExpr, cp.CondExpr = coll, k, v, c
		return &cp
	case *hclsyntax.SplatExpr:
		src, each := r.expr(n.Source), r.expr(n.Each)
		if src == n.Source && each == n.Each {
			return n
		}
		cp := *n
		cp.Source, cp.Each = src, each
		return &cp
	case *hclsyntax.IndexExpr:
		coll, key := r.expr(n.Collection), r.expr(n.Key)
		if coll == n.Collection && key == n.Key {
			return n
		}
		cp := *n
		cp.Collection, cp.Key = coll, key
		return &cp
	case *hclsyntax.RelativeTraversalExpr:
		if src := r.expr(n.Source); src != n.Source {
			cp := *n
			cp.Source = src
			return &cp
		}
		return n
	}
	return e
}

// orNil is expr, nil for nil.
func (r *directRewriter) orNil(e hclsyntax.Expression) hclsyntax.Expression {
	if e == nil {
		return nil
	}
	return r.expr(e)
}

// all rewrites each expression of es, and says whether one changed.
func (r *directRewriter) all(es []hclsyntax.Expression) ([]hclsyntax.Expression, bool) {
	out := make([]hclsyntax.Expression, len(es))
	changed := false
	for i, e := range es {
		out[i] = r.expr(e)
		changed = changed || out[i] != e
	}
	return out, changed
}

// directCallOf returns n as a directCall, or nil when n is not a call
// that can be made direct.
func directCallOf(n *hclsyntax.FunctionCallExpr) *directCall {
	if n.ExpandFinal {
		return nil
	}
	if n.Name == chargeFunc {
		if len(n.Args) != 2 {
			return nil
		}
		return &directCall{FunctionCallExpr: n, kind: directCharge}
	}
	spec, ok := directSpecs[n.Name]
	if !ok {
		std, isStd := functions[n.Name]
		if _, own := ownFunctions[n.Name]; own || !isStd || n.Name == "try" || n.Name == "can" {
			return nil
		}
		params, varParam := std.Params(), std.VarParam()
		if len(n.Args) < len(params) || varParam == nil && len(n.Args) > len(params) {
			// HCL refuses the call before it evaluates the arguments.
			return nil
		}
		return &directCall{FunctionCallExpr: n, kind: directStd, std: std, params: params, varParam: varParam, check: prechecks[n.Name]}
	}
	if len(n.Args) != len(spec.Params) || spec.VarParam != nil {
		return nil
	}
	kind := directOwn
	if n.Name == "alltrue" || n.Name == "anytrue" {
		kind = directBools
	}
	return &directCall{FunctionCallExpr: n, kind: kind, spec: spec, own: ownCalls[n.Name]}
}

// constantOf returns e, a list or a string template, as its value when
// every element or part is a constant: HCL evaluates it once, and the
// value stands in e's place.
func constantOf(e hclsyntax.Expression, elems []hclsyntax.Expression) hclsyntax.Expression {
	for _, x := range elems {
		if !isConstant(x) {
			return e
		}
	}
	v, diags := e.Value(&hcl.EvalContext{})
	if len(diags) > 0 || v == cty.NilVal {
		return e
	}
	return literalLike(v, e)
}

// isConstant reports whether e is a literal, maybe in parentheses.
func isConstant(e hclsyntax.Expression) bool {
	_, ok := unparen(e).(*hclsyntax.LiteralValueExpr)
	return ok
}

// canned is an operand already evaluated: it gives its value and
// diagnostics again, in the operand's place, so that HCL's own operator
// can finish an evaluation a direct node started.
type canned struct {
	hclsyntax.Expression
	v     cty.Value
	diags hcl.Diagnostics
}

func (c *canned) Value(*hcl.EvalContext) (cty.Value, hcl.Diagnostics) { return c.v, c.diags }

// plainBool returns the Go bool of v when v is a known, non-null,
// unmarked bool evaluated without diagnostics.
func plainBool(v cty.Value, diags hcl.Diagnostics) (value, ok bool) {
	if len(diags) > 0 || v.Type() != cty.Bool || v.IsMarked() || !v.IsKnown() || v.IsNull() {
		return false, false
	}
	// A known, unmarked bool holds a Go bool: compare it directly.
	return v == cty.True, true
}

// plainPrimitive reports whether v is a known, non-null, unmarked string
// or bool evaluated without diagnostics.
func plainPrimitive(v cty.Value, diags hcl.Diagnostics) bool {
	t := v.Type()
	return len(diags) == 0 && (t == cty.String || t == cty.Bool) && !v.IsMarked() && v.IsKnown() && !v.IsNull()
}

// directBinary is &&, ||, == or != evaluated without go-cty's
// Function.Call when both operands are plain bools (or, for == and !=,
// plain strings or bools of one type); otherwise HCL's operator finishes
// the evaluation with the operands' values.
type directBinary struct {
	*hclsyntax.BinaryOpExpr
}

// Value evaluates the operation as HCL's BinaryOpExpr.Value does.
func (d *directBinary) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	lv, ldiags := d.LHS.Value(ctx)
	rv, rdiags := d.RHS.Value(ctx)
	switch d.Op {
	case hclsyntax.OpLogicalAnd, hclsyntax.OpLogicalOr:
		l, lok := plainBool(lv, ldiags)
		r, rok := plainBool(rv, rdiags)
		if lok && rok {
			if d.Op == hclsyntax.OpLogicalAnd {
				return cty.BoolVal(l && r), nil
			}
			return cty.BoolVal(l || r), nil
		}
	case hclsyntax.OpEqual, hclsyntax.OpNotEqual:
		if plainPrimitive(lv, ldiags) && plainPrimitive(rv, rdiags) && lv.Type() == rv.Type() {
			var eq bool
			if lv.Type() == cty.String {
				eq = lv.AsString() == rv.AsString()
			} else {
				eq = lv == rv // known, unmarked bools: Go bools
			}
			return cty.BoolVal(eq == (d.Op == hclsyntax.OpEqual)), nil
		}
	}
	cp := *d.BinaryOpExpr
	cp.LHS = &canned{d.LHS, lv, ldiags}
	cp.RHS = &canned{d.RHS, rv, rdiags}
	return cp.Value(ctx)
}

// directNot is ! evaluated without go-cty's Function.Call when its
// operand is a plain bool.
type directNot struct {
	*hclsyntax.UnaryOpExpr
}

// Value evaluates the operation as HCL's UnaryOpExpr.Value does.
func (d *directNot) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := d.Val.Value(ctx)
	if b, ok := plainBool(v, diags); ok {
		return cty.BoolVal(!b), nil
	}
	cp := *d.UnaryOpExpr
	cp.Val = &canned{d.Val, v, diags}
	return cp.Value(ctx)
}

// directConditional is c ? a : b evaluated without unifying the types of
// a and b when they are plain values of one type and c a plain bool.
type directConditional struct {
	*hclsyntax.ConditionalExpr
}

// Value evaluates the conditional as HCL's ConditionalExpr.Value does:
// both results, then the condition.
func (d *directConditional) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	tv, tdiags := d.TrueResult.Value(ctx)
	fv, fdiags := d.FalseResult.Value(ctx)
	cp := *d.ConditionalExpr
	cp.TrueResult = &canned{d.TrueResult, tv, tdiags}
	cp.FalseResult = &canned{d.FalseResult, fv, fdiags}
	if !plainPrimitive(tv, tdiags) || !plainPrimitive(fv, fdiags) || tv.Type() != fv.Type() {
		// HCL evaluates the condition only when the results' types
		// agree.
		return cp.Value(ctx)
	}
	cv, cdiags := d.Condition.Value(ctx)
	if c, ok := plainBool(cv, cdiags); ok {
		if c {
			return tv, nil
		}
		return fv, nil
	}
	cp.Condition = &canned{d.Condition, cv, cdiags}
	return cp.Value(ctx)
}
