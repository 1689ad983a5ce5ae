package hclpolicy

import (
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Specializing an expression for one constraint.
//
// HCL evaluates every operand of every operator (&&, || and ?: included)
// and every element of a for expression, at a cost of a few hundred
// nanoseconds per node. Compile therefore rewrites the admit expression
// once per constraint, into one that gives the same value and the same
// errors for every version:
//
//   - a part that does not read version (it reads only constraint, or
//     nothing) is evaluated with HCL once and replaced by its value, unless
//     evaluating it fails (it is then left to fail for each version, as
//     written);
//   - a for expression that builds a list from a collection known once the
//     constraint is known is unrolled into the list of its elements' values,
//     each specialized with the loop's variables bound, when every element's
//     if clause gives a bool and no element's value still needs the loop's
//     variables (each case pays for it, before its evaluation starts, what
//     evaluating the for expression would charge; a for expression that is
//     not unrolled keeps its charge);
//   - `false && X`, `X && false`, `true || X`, `X || true` become false or
//     true, and `true && X`, `X && true`, `false || X`, `X || false` become
//     X, when X always gives a bool: HCL's && and || then give exactly that,
//     dropping X's errors when the other side decides;
//   - `c ? A : B` with c known becomes A or B when both always give a bool,
//     as HCL's conditional then gives exactly the chosen side and drops the
//     other side's errors;
//   - an argument of this package's own functions that is known once the
//     constraint is known is read once (a comparator, a version, the
//     comparators) instead of for every version.
//
// The rewritten expression is HCL, evaluated by HCL: only the parts whose
// value cannot change from one version to the next are evaluated early.

// A part of the expression that reads version and nothing else (such as
// !version.is_prerelease) has the same value for a version under every
// constraint: it is evaluated once per version, when the version is first
// met, and kept with it; the specialized expression reads the kept value
// from a variable no expression can name. A version for which one of
// these parts fails is judged with the expression as written instead.

// maxUnrolled bounds the elements of a for expression that is unrolled.
const maxUnrolled = 64

// plan is what loading works out once for an admit expression in HCL's
// native syntax.
type plan struct {
	expr  hclsyntax.Expression
	names freeNames
	// parts are the largest parts that read version and nothing else;
	// partOf maps each to its index, partVars name the variables that
	// hold their values.
	parts    []hclsyntax.Expression
	partOf   map[hclsyntax.Node]int
	partVars []string
	// run maps every node of expr to the node as evaluated (see direct).
	run map[hclsyntax.Node]hclsyntax.Expression
}

// runOf returns the node e of the plan's expression as evaluated.
func (p *plan) runOf(e hclsyntax.Expression) hclsyntax.Expression {
	if r, ok := p.run[e]; ok {
		return r
	}
	return e
}

// newPlan works out the plan of expr.
func newPlan(expr hclsyntax.Expression) *plan {
	p := &plan{expr: expr, names: freeNames{}, partOf: map[hclsyntax.Node]int{}}
	collectFreeNames(p.names, expr)
	r := &directRewriter{rewritten: map[hclsyntax.Node]hclsyntax.Expression{}}
	r.expr(expr)
	p.run = r.rewritten
	shadowed := false
	hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if f, ok := n.(*hclsyntax.ForExpr); ok && (f.KeyVar == varVersion || f.ValVar == varVersion) {
			shadowed = true
		}
		return nil
	})
	if !shadowed {
		_ = hclsyntax.Walk(expr, &partFinder{p: p})
	}
	return p
}

// partFinder finds a plan's parts: the outermost nodes that read version
// and nothing else, other than version itself.
type partFinder struct {
	p     *plan
	depth int // > 0 inside a part
}

func (w *partFinder) Enter(n hclsyntax.Node) hcl.Diagnostics {
	if w.depth > 0 {
		w.depth++
		return nil
	}
	e, ok := n.(hclsyntax.Expression)
	if !ok || !w.p.readsVersionOnly(e) {
		return nil
	}
	w.depth = 1
	w.p.partOf[n] = len(w.p.parts)
	w.p.parts = append(w.p.parts, e)
	w.p.partVars = append(w.p.partVars, "\x00part"+strconv.Itoa(len(w.p.parts)))
	return nil
}

func (w *partFinder) Exit(hclsyntax.Node) hcl.Diagnostics {
	if w.depth > 0 {
		w.depth--
	}
	return nil
}

// readsVersionOnly reports whether e reads version and no other
// variable, and is more than version itself.
func (p *plan) readsVersionOnly(e hclsyntax.Expression) bool {
	roots := p.names[e]
	if len(roots) == 0 {
		return false
	}
	for _, r := range roots {
		if r != varVersion {
			return false
		}
	}
	if st, ok := e.(*hclsyntax.ScopeTraversalExpr); ok && len(st.Traversal) == 1 {
		return false
	}
	return true
}

// partValues evaluates the plan's parts for the version value vv, each
// with a budget of its own; ok is false when one of them fails. A part
// that goes over its budget does not make ok false: its value is unknown,
// and over is the diagnostic, which judge gives when the expression's
// value then is not a known bool (the part mattered), so that the part
// is not evaluated again for each case.
func (p *plan) partValues(vv cty.Value) (vals []cty.Value, ok bool, over *hcl.Diagnostic) {
	if len(p.parts) == 0 {
		return nil, true, nil
	}
	defer func() {
		if recover() != nil {
			vals, ok, over = nil, false, nil
		}
	}()
	vals = make([]cty.Value, len(p.parts))
	for i, e := range p.parts {
		v, diags := evalExpr(p.runOf(e), map[string]cty.Value{varVersion: vv})
		if diags.HasErrors() {
			if !isBudgetDiag(diags[0]) {
				return nil, false, nil
			}
			if over == nil {
				over = diags[0]
			}
			v = cty.DynamicVal
		}
		vals[i] = v
	}
	return vals, true, over
}

// freeNames records, for every node of a policy's expressions, the root
// names of the variables it reads, including the variables of for
// expressions around it. It is built when the file is loaded and only
// read afterwards.
type freeNames map[hclsyntax.Node][]string

// collectFreeNames fills names for expr and every node inside it, as
// hclsyntax.Variables would give them for each node, in one walk: the
// names of a node are gathered from its children's as the walk leaves
// them, each name once.
func collectFreeNames(names freeNames, expr hclsyntax.Expression) {
	_ = hclsyntax.Walk(expr, &namesCollector{names: names})
}

// namesCollector walks an expression for collectFreeNames: stack holds
// the names gathered so far for each node being walked.
type namesCollector struct {
	names freeNames
	stack [][]string
}

func (c *namesCollector) Enter(hclsyntax.Node) hcl.Diagnostics {
	c.stack = append(c.stack, nil)
	return nil
}

func (c *namesCollector) Exit(n hclsyntax.Node) hcl.Diagnostics {
	roots := c.stack[len(c.stack)-1]
	c.stack = c.stack[:len(c.stack)-1]
	switch n := n.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		roots = addName(roots, n.Traversal.RootName())
	case hclsyntax.ChildScope:
		// The body of a for expression: its variables are not free
		// outside it.
		kept := roots[:0:0]
		for _, r := range roots {
			if _, local := n.LocalNames[r]; !local {
				kept = append(kept, r)
			}
		}
		roots = kept
	}
	if _, ok := n.(hclsyntax.Expression); ok {
		c.names[n] = roots
	}
	if len(c.stack) > 0 {
		parent := &c.stack[len(c.stack)-1]
		for _, r := range roots {
			*parent = addName(*parent, r)
		}
	}
	return nil
}

// addName adds name to names unless it is there.
func addName(names []string, name string) []string {
	for _, n := range names {
		if n == name {
			return names
		}
	}
	return append(names, name)
}

// specializer rewrites an expression for known values of some variables.
type specializer struct {
	plan  *plan
	names freeNames
	// bound are the variables known now: constraint, and the variables of
	// the for expressions being unrolled.
	bound map[string]cty.Value
	// loop are the variables of the for expressions being unrolled, and
	// leaked is set when a part of the result still reads one of them.
	loop   map[string]bool
	leaked bool
	// ev evaluates the parts known now: its variables are bound, and its
	// budget is the one of the whole specialization.
	ev *evaluation
	// paid maps each list that a for expression was unrolled into to what
	// evaluating that for expression would charge for its collection (see
	// payment); nil until a for expression is unrolled.
	paid map[hclsyntax.Node]payment
}

// payment is what a case pays, before its evaluation starts, for a for
// expression that the specializer unrolled into the list of its elements:
// what evaluating the for expression as written would charge for its
// collection, at its place. Evaluating the list still costs a case each
// element, though HCL no longer iterates.
type payment struct {
	steps int
	site  *site
}

// paid is a specialized expression as evaluated (see direct) that first
// charges the evaluation's budget for the for expressions unrolled in it.
type paid struct {
	hclsyntax.Expression
	pays []payment
}

// Value charges the payments, then evaluates the expression.
func (p *paid) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if ev := evaluationOf(ctx); ev != nil {
		for _, pay := range p.pays {
			if ev.b.charge(pay.steps, pay.site.what, &pay.site.rng) != nil {
				return cty.DynamicVal, hcl.Diagnostics{budgetDiagnostic(nil, ev.b.err, p.Range())}
			}
		}
	}
	return p.Expression.Value(ctx)
}

// withPayments returns run, the specialized expression e as evaluated,
// charging first for the for expressions unrolled in e.
func withPayments(run hcl.Expression, pays []payment) hcl.Expression {
	syn, ok := run.(hclsyntax.Expression)
	if !ok || len(pays) == 0 {
		return run
	}
	return &paid{Expression: syn, pays: pays}
}

// specialize returns nodes (the plan's expression or parts of it)
// rewritten for the constraint value cv, the parts that read only the
// version read from their variables, and for each what a case pays before
// evaluating it for the for expressions unrolled in it (see payment). The
// parts it evaluates share one budget; a part that goes over it is
// replaced by a call that fails at once with the same diagnostic.
func specialize(p *plan, cv cty.Value, nodes ...hclsyntax.Expression) ([]hclsyntax.Expression, [][]payment) {
	ev := newEvaluation()
	defer ev.release()
	ev.ctx.Variables[varConstraint] = cv
	s := &specializer{plan: p, names: p.names, bound: ev.ctx.Variables, loop: map[string]bool{}, ev: ev}
	out := make([]hclsyntax.Expression, len(nodes))
	pays := make([][]payment, len(nodes))
	for i, n := range nodes {
		out[i] = s.expr(n)
		if len(s.paid) == 0 {
			continue
		}
		// The lists of the unrolled for expressions that the result
		// still evaluates, outer ones first.
		hclsyntax.VisitAll(out[i], func(n hclsyntax.Node) hcl.Diagnostics {
			if pay, ok := s.paid[n]; ok {
				pays[i] = append(pays[i], pay)
			}
			return nil
		})
	}
	return out, pays
}

// static reports whether every variable e reads is bound. A node that
// was not in the file (it was made by the specializer) is not static.
func (s *specializer) static(e hclsyntax.Expression) bool {
	roots, ok := s.names[e]
	if !ok {
		return false
	}
	for _, r := range roots {
		if _, bound := s.bound[r]; !bound {
			return false
		}
	}
	return true
}

// literal is e's known value, in e's place.
func literal(v cty.Value, rng hcl.Range) *hclsyntax.LiteralValueExpr {
	return &hclsyntax.LiteralValueExpr{Val: v, SrcRange: rng}
}

// literalLike is the value v in the place of the expression e, an
// argument of a function call: with e's range and e's start range, where
// HCL places the argument's errors. A literal's start is its range's, so
// an e that starts elsewhere (a call starts with its name) gets
// parentheses with e's range around a literal at e's start.
func literalLike(v cty.Value, e hclsyntax.Expression) hclsyntax.Expression {
	if start, rng := e.StartRange(), e.Range(); start != rng {
		return &hclsyntax.ParenthesesExpr{Expression: literal(v, start), SrcRange: rng}
	}
	return literal(v, e.Range())
}

// inPlaceOf returns e standing for an expression whose range was rng:
// parentheses with that range, since HCL places an operand's errors at
// its range. (An argument's errors are at its start; see the function
// call case of specializer.expr.)
func inPlaceOf(e hclsyntax.Expression, rng hcl.Range) hclsyntax.Expression {
	if e.Range() == rng {
		return e
	}
	return &hclsyntax.ParenthesesExpr{Expression: e, SrcRange: rng}
}

// unparen returns e without the parentheses around it.
func unparen(e hcl.Expression) hcl.Expression {
	for {
		p, ok := e.(*hclsyntax.ParenthesesExpr)
		if !ok {
			return e
		}
		e = p.Expression
	}
}

func (s *specializer) expr(e hclsyntax.Expression) hclsyntax.Expression {
	if _, done := e.(*hclsyntax.LiteralValueExpr); done {
		return e
	}
	if i, ok := s.plan.partOf[e]; ok {
		rng := e.Range()
		return &hclsyntax.ScopeTraversalExpr{
			Traversal: hcl.Traversal{hcl.TraverseRoot{Name: s.plan.partVars[i], SrcRange: rng}},
			SrcRange:  rng,
		}
	}
	if call, ok := e.(*hclsyntax.FunctionCallExpr); ok {
		if site := chargeSite(call); site != nil && (site.arg || site.conv != noConversion) {
			// The charge stays: the call it is an argument of, or the
			// operator its operand, is evaluated for each version, and
			// pays for its argument each time. A literal that costs
			// nothing to convert needs no charge.
			arg := s.expr(call.Args[0])
			if lit, ok := arg.(*hclsyntax.LiteralValueExpr); ok && site.conv != noConversion && conversionSteps(lit.Val, site.conv, MaxSteps+1) == 0 {
				return literal(lit.Val, e.Range())
			}
			cp := *call
			cp.Args = []hclsyntax.Expression{arg, call.Args[1]}
			return &cp
		}
	}
	if s.static(e) {
		v, diags := s.ev.value(s.plan.runOf(e))
		if !diags.HasErrors() {
			return literal(v, e.Range())
		}
		if d := diags[0]; isBudgetDiag(d) {
			return failCall(e, d)
		}
	}
	switch n := e.(type) {
	case *hclsyntax.BinaryOpExpr:
		cp := *n
		cp.LHS, cp.RHS = s.expr(n.LHS), s.expr(n.RHS)
		return foldLogic(&cp)
	case *hclsyntax.UnaryOpExpr:
		cp := *n
		cp.Val = s.expr(n.Val)
		return &cp
	case *hclsyntax.ParenthesesExpr:
		cp := *n
		cp.Expression = s.expr(n.Expression)
		return &cp
	case *hclsyntax.ConditionalExpr:
		cp := *n
		cp.Condition, cp.TrueResult, cp.FalseResult = s.expr(n.Condition), s.expr(n.TrueResult), s.expr(n.FalseResult)
		if c, ok := knownBool(cp.Condition); ok && isBool(cp.TrueResult) && isBool(cp.FalseResult) {
			if c {
				return inPlaceOf(cp.TrueResult, cp.SrcRange)
			}
			return inPlaceOf(cp.FalseResult, cp.SrcRange)
		}
		return &cp
	case *hclsyntax.FunctionCallExpr:
		cp := *n
		cp.Args = make([]hclsyntax.Expression, len(n.Args))
		kinds := paramKinds[n.Name]
		if n.ExpandFinal || len(kinds) != len(n.Args) {
			kinds = nil
		}
		for i, a := range n.Args {
			sa := s.expr(a)
			if lit, ok := sa.(*hclsyntax.LiteralValueExpr); ok {
				v := lit.Val
				if kinds != nil {
					v = predecoded(v, kinds[i])
				}
				sa = literalLike(v, a)
			} else if sa.StartRange() != a.StartRange() {
				// HCL places an argument's errors at its start: keep
				// the argument as written when rewriting moved it.
				sa = s.keep(a)
			}
			cp.Args[i] = sa
		}
		return s.foldBools(&cp)
	case *hclsyntax.TupleConsExpr:
		cp := *n
		cp.Exprs = make([]hclsyntax.Expression, len(n.Exprs))
		for i, x := range n.Exprs {
			cp.Exprs[i] = s.expr(x)
		}
		return &cp
	case *hclsyntax.RelativeTraversalExpr:
		cp := *n
		cp.Source = s.expr(n.Source)
		return &cp
	case *hclsyntax.IndexExpr:
		cp := *n
		cp.Collection, cp.Key = s.expr(n.Collection), s.expr(n.Key)
		return &cp
	case *hclsyntax.ForExpr:
		return s.forExpr(n)
	}
	return s.keep(e)
}

// keep returns e as written, noting whether it reads the variable of a for
// expression being unrolled.
func (s *specializer) keep(e hclsyntax.Expression) hclsyntax.Expression {
	for _, r := range s.names[e] {
		if s.loop[r] {
			s.leaked = true
		}
	}
	return e
}

// forExpr unrolls a for expression that builds a list from a known
// collection, or returns it with its collection specialized.
func (s *specializer) forExpr(n *hclsyntax.ForExpr) hclsyntax.Expression {
	var coll hclsyntax.Expression
	if call, ok := n.CollExpr.(*hclsyntax.FunctionCallExpr); ok && chargeSite(call) != nil {
		// The charge for the collection stays, around the collection
		// specialized: a case that evaluates the for expression pays for
		// it, however known the collection is.
		site := chargeSite(call)
		cp := *call
		cp.Args = []hclsyntax.Expression{s.expr(call.Args[0]), call.Args[1]}
		coll = &cp
		over := s.ev.b.err
		if out, ok := s.unroll(n, cp.Args[0], site); ok {
			return out
		}
		if err := s.ev.b.err; over == nil && err != nil && err.hasRng && err.rng == site.rng {
			// Paying for it went over the specialization's budget: it
			// fails at once for every version, as evaluating it would
			// have.
			coll = failCall(n.CollExpr, budgetDiagnostic(nil, err, n.CollExpr.Range()))
		}
	} else {
		coll = s.expr(n.CollExpr)
		if out, ok := s.unroll(n, coll, nil); ok {
			return out
		}
	}
	for _, r := range s.names[n] {
		if s.loop[r] {
			s.leaked = true
		}
	}
	cp := *n
	cp.CollExpr = coll
	return &cp
}

// unroll returns the list of the values of n's elements, each specialized,
// when n builds a list from the known collection coll, every element's if
// clause gives a bool, and no element's value reads n's variables. The
// for expression's charge for its collection, at site (nil when n has
// none), is paid from the specialization's budget, as evaluating it
// would, so that what is unrolled is bounded, and the list is paid for
// by each case that evaluates it (see payment).
func (s *specializer) unroll(n *hclsyntax.ForExpr, coll hclsyntax.Expression, site *site) (hclsyntax.Expression, bool) {
	lit, ok := coll.(*hclsyntax.LiteralValueExpr)
	if !ok || n.KeyExpr != nil || n.Group {
		return nil, false
	}
	cv := lit.Val
	if cv.IsNull() || !cv.IsKnown() || !cv.CanIterateElements() || cv.LengthInt() > maxUnrolled {
		return nil, false
	}
	loopVars := []string{n.ValVar}
	if n.KeyVar != "" {
		loopVars = append(loopVars, n.KeyVar)
	}
	for _, v := range loopVars {
		if _, shadows := s.bound[v]; shadows {
			return nil, false
		}
	}
	var pay payment
	if site != nil {
		pay = payment{steps: iterationCharge(cv, site), site: site}
		if s.ev.b.charge(pay.steps, site.what, &site.rng) != nil {
			return nil, false
		}
	}
	leaked := s.leaked
	for _, v := range loopVars {
		s.loop[v] = true
	}
	defer func() {
		for _, v := range loopVars {
			delete(s.bound, v)
			delete(s.loop, v)
		}
		s.leaked = leaked
	}()
	var elems []hclsyntax.Expression
	for it := cv.ElementIterator(); it.Next(); {
		k, v := it.Element()
		if n.KeyVar != "" {
			s.bound[n.KeyVar] = k
		}
		s.bound[n.ValVar] = v
		if n.CondExpr != nil {
			include, ok := knownBool(s.expr(n.CondExpr))
			if !ok {
				return nil, false
			}
			s.leaked = false
			if !include {
				continue
			}
		}
		val := s.expr(n.ValExpr)
		if s.leaked {
			return nil, false
		}
		elems = append(elems, val)
	}
	list := &hclsyntax.TupleConsExpr{Exprs: elems, SrcRange: n.SrcRange, OpenRange: n.OpenRange}
	if site != nil {
		if s.paid == nil {
			s.paid = map[hclsyntax.Node]payment{}
		}
		s.paid[list] = pay
	}
	return list, true
}

// knownBool returns the value of e when it is a literal bool.
func knownBool(e hclsyntax.Expression) (value, ok bool) {
	lit, isLit := e.(*hclsyntax.LiteralValueExpr)
	if !isLit || lit.Val.Type() != cty.Bool || !lit.Val.IsKnown() || lit.Val.IsNull() {
		return false, false
	}
	return lit.Val.True(), true
}

// boolFunctions are the functions whose result is always a bool (or, when
// the call fails, a value of no type, which HCL's operators accept).
var boolFunctions = map[string]bool{
	"holds": true, "satisfies": true, "same_base": true,
	"alltrue": true, "anytrue": true, "contains": true, "can": true,
}

// isBool reports whether e always gives a bool, or fails.
func isBool(e hclsyntax.Expression) bool {
	switch n := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return n.Val.Type() == cty.Bool
	case *hclsyntax.BinaryOpExpr:
		return n.Op.Type == cty.Bool
	case *hclsyntax.UnaryOpExpr:
		return n.Op == hclsyntax.OpLogicalNot
	case *hclsyntax.ParenthesesExpr:
		return isBool(n.Expression)
	case *hclsyntax.ConditionalExpr:
		return isBool(n.TrueResult) && isBool(n.FalseResult)
	case *hclsyntax.FunctionCallExpr:
		if n.Name == chargeFunc && len(n.Args) == 2 {
			return isBool(n.Args[0])
		}
		return boolFunctions[n.Name] && !n.ExpandFinal
	case *hclsyntax.ScopeTraversalExpr:
		return versionAttribute(n) == cty.Bool
	}
	return false
}

// versionAttribute is the type of the attribute of version that n reads,
// or cty.NilType. It reads the types only: an index is not looked up.
func versionAttribute(n *hclsyntax.ScopeTraversalExpr) cty.Type {
	if n.Traversal.RootName() != varVersion {
		return cty.NilType
	}
	t, ok := resolve(versionType, n.Traversal[1:])
	if !ok {
		return cty.NilType
	}
	return t
}

// foldLogic simplifies && and || with one side known, as described above.
func foldLogic(n *hclsyntax.BinaryOpExpr) hclsyntax.Expression {
	and, or := n.Op == hclsyntax.OpLogicalAnd, n.Op == hclsyntax.OpLogicalOr
	if !and && !or {
		return n
	}
	for _, side := range [2]struct{ known, other hclsyntax.Expression }{{n.LHS, n.RHS}, {n.RHS, n.LHS}} {
		b, ok := knownBool(side.known)
		if !ok || !isBool(side.other) {
			continue
		}
		switch {
		case and && !b:
			return literal(cty.False, n.SrcRange)
		case or && b:
			return literal(cty.True, n.SrcRange)
		default:
			return inPlaceOf(side.other, n.SrcRange)
		}
	}
	return n
}

// foldBools simplifies alltrue and anytrue of a list written out: an
// element that cannot decide (true for alltrue, false for anytrue) is
// dropped when every element always gives a bool, and a call with one
// element left is that element. Every other element is still evaluated,
// so its errors stay.
func (s *specializer) foldBools(n *hclsyntax.FunctionCallExpr) hclsyntax.Expression {
	neutral := map[string]bool{"alltrue": true, "anytrue": false}
	want, ok := neutral[n.Name]
	if !ok || n.ExpandFinal || len(n.Args) != 1 {
		return n
	}
	list, ok := n.Args[0].(*hclsyntax.TupleConsExpr)
	if !ok {
		return n
	}
	var kept []hclsyntax.Expression
	for _, e := range list.Exprs {
		if !isBool(e) {
			return n
		}
		if b, known := knownBool(e); known && b == want {
			continue
		}
		kept = append(kept, e)
	}
	switch len(kept) {
	case 0:
		return literal(cty.BoolVal(want), n.Range())
	case 1:
		return inPlaceOf(kept[0], n.Range())
	}
	cp := *list
	cp.Exprs = kept
	if pay, ok := s.paid[list]; ok {
		// The list of an unrolled for expression, which a case still
		// evaluates.
		s.paid[&cp] = pay
	}
	call := *n
	call.Args = []hclsyntax.Expression{&cp}
	return &call
}
