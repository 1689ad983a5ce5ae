package hclpolicy

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
)

// maxExplainedParts bounds the parts of an expression an explanation
// shows.
const maxExplainedParts = 40

// Explain shows the policy's reasoning for one pair: where the policy is
// written, the constraint and version values the expression saw, refuse
// when the block has it, the admit expression, and the value of each of
// its parts that does not depend on a for expression's variable (the
// variables it reads, its function calls, its for expressions), then the
// verdict, the same Result as Compile and Match give. A command block's
// policy explains itself, or with engine.Explain.
func (p *Policy) Explain(constraint, version string) engine.Explanation {
	if p.command != nil {
		return engine.Explain(p.command, constraint, version)
	}
	var x []engine.Step
	add := func(subject, format string, args ...any) {
		x = append(x, engine.Step{Subject: subject, Detail: fmt.Sprintf(format, args...)})
	}
	add("policy", "%s is written in HCL at %s", p.name, diag.FormatRange(p.defRng))
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		add("constraint", "the engine's parser refuses it: %v", err)
		return engine.Explanation{Steps: x, Result: engine.InvalidResult(err)}
	}
	cv := constraintValue(c)
	add("constraint", "%s", describeConstraint(cv))
	if p.refuse != nil {
		ctx := &hcl.EvalContext{Variables: map[string]cty.Value{varConstraint: cv}, Functions: functions}
		add("refuse", "%s", p.source(p.refuse))
		x = append(x, p.parts(p.refuse, ctx)...)
		if err := p.checkRefuse(cv); err != nil {
			if _, ok := err.(*refusal); ok {
				add("refuse", "true: the constraint is refused, so every version is invalid; the version is not read")
			} else {
				add("refuse", "evaluating it failed: %v", err)
			}
			return engine.Explanation{Steps: x, Result: engine.InvalidResult(err)}
		}
		add("refuse", "false: the constraint is accepted")
	}
	vv, err := p.versions.get(version, p.plan)
	if err != nil {
		add("version", "the engine's parser refuses it: %v", err)
		return engine.Explanation{Steps: x, Result: engine.InvalidResult(err)}
	}
	add("version", "%s", show(vv.obj))
	add("admit", "%s", p.source(p.admit))
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{varConstraint: cv, varVersion: vv.obj}, Functions: functions}
	x = append(x, p.parts(p.admit, ctx)...)
	r := p.judge(p.specialized(cv), cv, vv)
	switch r.Verdict {
	case engine.Allow:
		add("admit", "true: the version is admitted")
	case engine.Reject:
		add("admit", "false: the version is rejected")
	default:
		add("admit", "evaluating it failed: %s", r.Reason)
	}
	if p.fallback {
		add("select", "fallback: in a list, releases come first, and an admitted prerelease is selected only when no release is admitted")
	}
	return engine.Explanation{Steps: x, Result: r}
}

// source returns an expression's text, on one line, or its place when the
// file's contents are not known.
func (p *Policy) source(expr hcl.Expression) string {
	if s := exprSource(expr, p.sources); s != "" {
		return strings.Join(strings.Fields(s), " ")
	}
	return "the expression at " + diag.FormatRange(expr.Range())
}

// parts evaluates the parts of expr worth showing, in the order they are
// written: each variable it reads, each function call and each for
// expression, once each, skipping those that use a for expression's own
// variables.
func (p *Policy) parts(expr hcl.Expression, ctx *hcl.EvalContext) []engine.Step {
	syn, ok := expr.(hclsyntax.Expression)
	if !ok {
		return nil
	}
	var steps []engine.Step
	seen := map[string]bool{}
	hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
		if len(steps) >= maxExplainedParts {
			return nil
		}
		var e hclsyntax.Expression
		switch n := n.(type) {
		case *hclsyntax.ScopeTraversalExpr, *hclsyntax.FunctionCallExpr, *hclsyntax.ForExpr:
			e = n.(hclsyntax.Expression)
		default:
			return nil
		}
		if e == syn {
			return nil // the whole expression: its value is the verdict
		}
		for _, t := range e.Variables() {
			if r := t.RootName(); r != varVersion && r != varConstraint {
				return nil
			}
		}
		text := p.source(e)
		if seen[text] {
			return nil
		}
		seen[text] = true
		v, diags := evalSafely(e, ctx)
		if err := diagsError(diags); err != nil {
			steps = append(steps, engine.Step{Subject: text, Detail: "fails: " + err.Error()})
			return nil
		}
		steps = append(steps, engine.Step{Subject: text, Detail: "= " + show(v)})
		return nil
	})
	return steps
}

// describeConstraint shows a constraint value without its version
// objects: its comparators and bounds by their text.
func describeConstraint(cv cty.Value) string {
	texts := func(list cty.Value) string {
		var out []string
		for it := list.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, quote(e.GetAttr("text").AsString()))
		}
		return "[" + strings.Join(out, ", ") + "]"
	}
	return fmt.Sprintf("{text = %s, comparators = %s, bounds = %s, names_prerelease = %t}",
		quote(cv.GetAttr("text").AsString()), texts(cv.GetAttr("comparators")), texts(cv.GetAttr("bounds")),
		cv.GetAttr("names_prerelease").True())
}

// evalSafely evaluates e, turning a panic into an error diagnostic.
func evalSafely(e hcl.Expression, ctx *hcl.EvalContext) (v cty.Value, diags hcl.Diagnostics) {
	defer func() {
		if x := recover(); x != nil {
			v, diags = cty.DynamicVal, hcl.Diagnostics{diag.ErrorAt(e.Range().Ptr(), "Evaluation failed", fmt.Sprint(x))}
		}
	}()
	return e.Value(ctx)
}
