package hclpolicy

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/plural"
)

// explainWidth is how wide the detail of a step is laid out to be, so that
// the text form of an explanation fits 80 columns: it prints the subjects
// in a column as wide as the widest ("constraint") and two spaces before
// the details.
const explainWidth = 80 - len("constraint") - 2

// Bounds of what an explanation shows of an expression.
const (
	// maxExplainedParts is how many of its parts it shows.
	maxExplainedParts = 40
	// maxExprLines is how many lines of its text it shows.
	maxExprLines = 40
	// minPartText is the fewest runes of a part's text it keeps to fit
	// the part and its value on a line; when the value leaves less room,
	// the line is wrapped and the part keeps up to maxPartText.
	minPartText = 24
	maxPartText = 44
	// maxObjectText is how many runes of its text an object is shown with
	// before the attributes an expression reads; the report's header
	// shows the constraint and the version whole.
	maxObjectText = 40
)

// Explain shows the policy's reasoning for one pair: where the policy is
// written; the constraint and the version as the expressions read them,
// each by its text and the attributes they use; refuse, when the block
// has it, and admit, each as its outcome first, then its text, then the
// value of each of its parts that does not depend on a for expression's
// variable (its function calls, for expressions and splats). The verdict
// is the same Result as Compile and Match give. A command block's policy
// explains itself, or with engine.Explain.
func (p *Policy) Explain(constraint, version string) engine.Explanation {
	if p.command != nil {
		return engine.Explain(p.command, constraint, version)
	}
	var x []engine.Step
	add := func(subject, format string, args ...any) {
		x = append(x, engine.Step{Subject: subject, Detail: fmt.Sprintf(format, args...)})
	}
	add("policy", "written in HCL at %s", diag.FormatRange(p.defRng))
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		add("constraint", "the engine's parser refuses it: %v", err)
		return engine.Explanation{Steps: x, Result: engine.InvalidResult(err)}
	}
	cv := constraintValue(c)
	cctx := &hcl.EvalContext{Variables: map[string]cty.Value{varConstraint: cv}}
	for _, line := range attributesUsed(cv, varConstraint, cctx, p.refuse, p.admit) {
		add("constraint", "%s", line)
	}
	if p.refuse != nil {
		err := p.checkRefuse(cv, &p.failures)
		outcome := "false: the constraint is accepted"
		if _, ok := err.(*refusal); ok {
			outcome = "true: the constraint is refused, so every version is invalid; the version is not read"
		} else if err != nil {
			outcome = "evaluating it failed: " + err.Error()
		}
		x = append(x, p.explainExpr("refuse", outcome, p.refuse, cctx)...)
		if err != nil {
			return engine.Explanation{Steps: x, Result: engine.InvalidResult(err)}
		}
	}
	vv, err := p.versions.get(version, p.plan)
	if err != nil {
		add("version", "the engine's parser refuses it: %v", err)
		return engine.Explanation{Steps: x, Result: engine.InvalidResult(err)}
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{varConstraint: cv, varVersion: vv.obj}}
	for _, line := range attributesUsed(vv.obj, varVersion, ctx, p.admit) {
		add("version", "%s", line)
	}
	r := p.judge(p.specialized(cv), cv, vv)
	var outcome string
	switch r.Verdict {
	case engine.Allow:
		outcome = "true: the version is admitted"
	case engine.Reject:
		outcome = "false: the version is rejected"
	default:
		outcome = "evaluating it failed: " + r.Reason
	}
	x = append(x, p.explainExpr("admit", outcome, p.admit, ctx)...)
	if p.fallback {
		add("select", "fallback: in a list, releases come first, and an admitted prerelease is selected only when no release is admitted")
	}
	return engine.Explanation{Steps: x, Result: r}
}

// attributesUsed shows the value obj of the variable root by its text
// (clipped to maxObjectText), followed by the attributes of it that exprs
// read, each with its value: `version("1.0.0-rc"): is_prerelease = true`,
// or, when that is wider than explainWidth, the text on a line of its own
// and each attribute on the next lines, indented. It is nil when they
// read none.
func attributesUsed(obj cty.Value, root string, ctx *hcl.EvalContext, exprs ...hcl.Expression) []string {
	var used []string
	seen := map[string]bool{}
	for _, e := range exprs {
		if e == nil {
			continue
		}
		for _, t := range e.Variables() {
			if t.RootName() != root || len(t) < 2 {
				continue
			}
			path := traversalPath(t[1:])
			if seen[path] {
				continue
			}
			seen[path] = true
			v, diags := t.TraverseAbs(ctx)
			if err := diagsError(diags); err != nil {
				used = append(used, path+" fails: "+err.Error())
				continue
			}
			used = append(used, path+" = "+show(v))
		}
	}
	if len(used) == 0 {
		return nil
	}
	head := quote(clip(obj.GetAttr("text").AsString(), maxObjectText))
	if root == varVersion {
		head = "version(" + head + ")"
	}
	if line := head + ": " + strings.Join(used, ", "); utf8.RuneCountInString(line) <= explainWidth {
		return []string{line}
	}
	lines := []string{head + ":"}
	for _, u := range used {
		lines = append(lines, "  "+u)
	}
	return lines
}

// explainExpr shows expr under subject: outcome, then its text laid out in
// lines that fit explainWidth, then its parts.
func (p *Policy) explainExpr(subject, outcome string, expr hcl.Expression, ctx *hcl.EvalContext) []engine.Step {
	steps := []engine.Step{{Subject: subject, Detail: outcome}}
	for _, line := range p.exprLines(expr) {
		steps = append(steps, engine.Step{Subject: subject, Detail: line})
	}
	return append(steps, p.parts(subject, expr, ctx)...)
}

// exprLines lays out an expression's text, or names its place when the
// file's contents are not known. A text of more than maxExprLines lines
// shows its first lines and says how many it left out and where the
// expression is written.
func (p *Policy) exprLines(expr hcl.Expression) []string {
	src := exprSource(expr, p.sources)
	if src == "" {
		return []string{"the expression at " + diag.FormatRange(expr.Range())}
	}
	lines := layoutExpr(src, explainWidth)
	if len(lines) > maxExprLines {
		left := len(lines) - (maxExprLines - 1)
		lines = append(lines[:maxExprLines-1], fmt.Sprintf("(%s left out; the expression is at %s)",
			plural.Of(left, "more line", "more lines"), diag.FormatRange(expr.Range())))
	}
	return lines
}

// parts evaluates the parts of expr worth showing, in the order they are
// written: each function call, for expression and splat, once each,
// skipping those that use a for expression's own variables (the
// attributes of constraint and version it reads are shown with them). A
// part is shown as its text and its value on one line, the text elided in
// the middle when both do not fit; the whole expression is shown above
// it.
func (p *Policy) parts(subject string, expr hcl.Expression, ctx *hcl.EvalContext) []engine.Step {
	syn, ok := expr.(hclsyntax.Expression)
	if !ok {
		return nil
	}
	var steps []engine.Step
	seen := map[string]bool{}
	left := 0
	hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
		var e hclsyntax.Expression
		switch n := n.(type) {
		case *hclsyntax.FunctionCallExpr, *hclsyntax.ForExpr, *hclsyntax.SplatExpr:
			if hidden(n) {
				return nil
			}
			e = n.(hclsyntax.Expression)
		default:
			return nil
		}
		if e == syn {
			return nil // the whole expression: its value is the outcome
		}
		for _, t := range e.Variables() {
			if r := t.RootName(); r != varVersion && r != varConstraint {
				return nil
			}
		}
		text := flatSource(exprSource(e, p.sources))
		if text == "" {
			text = "the expression at " + diag.FormatRange(e.Range())
		}
		if seen[text] {
			return nil
		}
		seen[text] = true
		if len(steps) >= maxExplainedParts {
			left++
			return nil
		}
		v, diags := evalExpr(e, ctx.Variables)
		if err := diagsError(diags); err != nil {
			steps = append(steps, engine.Step{Subject: subject, Detail: partLine(text, " fails: ", err.Error())})
			return nil
		}
		steps = append(steps, engine.Step{Subject: subject, Detail: partLine(text, " = ", show(v))})
		return nil
	})
	if left > 0 {
		steps = append(steps, engine.Step{Subject: subject, Detail: fmt.Sprintf("(%s left out)",
			plural.Of(left, "more part", "more parts"))})
	}
	return steps
}

// partLine joins a part's text and its value with sep, the text elided in
// the middle so that the line fits explainWidth (see minPartText); the
// value is kept whole.
func partLine(text, sep, value string) string {
	room := explainWidth - utf8.RuneCountInString(sep+value)
	if room < minPartText {
		room = maxPartText
	}
	return clip(text, room) + sep + value
}

// clip elides s in the middle when it is longer than n runes, to n runes.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return elide.Middle(s, n-1)
}
