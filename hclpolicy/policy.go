package hclpolicy

import (
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
)

// Policy is one policy block of a file: a rule written as an HCL
// expression, or an external command handed to Options.Command.
//
// It implements engine.Policy, engine.Selector (the select attribute:
// the newest admitted version, or releases first) and engine.Explainer
// (the expression and the values it saw). A Policy is safe for
// concurrent use; so are its matchers.
type Policy struct {
	name     string
	rule     string
	nameRng  hcl.Range
	defRng   hcl.Range
	fallback bool

	admit        hcl.Expression
	admitRun     hcl.Expression // admit as evaluated (see direct)
	plan         *plan          // of admit, when it is in native syntax
	dec          *decision      // of admit, when it is in native syntax
	refuse       hcl.Expression
	refuseReason hcl.Expression
	sources      map[string][]byte

	// command is the policy Options.Command built for a command block.
	command engine.Policy

	versions versionCache
	matchers matcherCache
	failures failures
}

var (
	_ engine.Policy    = (*Policy)(nil)
	_ engine.Selector  = (*Policy)(nil)
	_ engine.Explainer = (*Policy)(nil)
	_ engine.Quieter   = (*Policy)(nil)
)

// Name returns the block's label.
func (p *Policy) Name() string { return p.name }

// Rule returns the rule attribute; without one, the admit expression on
// one line (or, for a command block, the command policy's own rule).
func (p *Policy) Rule() string { return p.rule }

// NameRange returns where the block's label is written, for diagnostics
// about the name.
func (p *Policy) NameRange() hcl.Range { return p.nameRng }

// DefRange returns where the block starts: its type and label.
func (p *Policy) DefRange() hcl.Range { return p.defRng }

// Command returns the policy Options.Command built for a command block,
// and nil for a policy written as an expression.
func (p *Policy) Command() engine.Policy { return p.command }

// Fallback reports whether the block says select = "fallback".
func (p *Policy) Fallback() bool { return p.fallback }

// Compile parses constraint with the engine's parser, builds the
// constraint value once, and evaluates refuse, when the block has it: a
// true refuse refuses the constraint (the error is refuse_reason), and so
// does an error while evaluating it. It then specializes admit for the
// constraint (see the package documentation). A command block's policy
// compiles the constraint itself.
func (p *Policy) Compile(constraint string) (engine.Matcher, error) {
	if p.command != nil {
		return p.command.Compile(constraint)
	}
	if e, ok := p.matchers.get(constraint); ok {
		return e.m, e.err
	}
	m, err := p.compile(constraint, &p.failures)
	p.matchers.put(constraint, m, err)
	return m, err
}

// compile is Compile without the cache; the errors of evaluating refuse
// and admit go to rec, none are kept when rec is nil.
func (p *Policy) compile(constraint string, rec *failures) (engine.Matcher, error) {
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		return nil, err
	}
	cv := constraintValueOf(constraint, c)
	if err := p.checkRefuse(cv, rec); err != nil {
		return nil, err
	}
	return &matcher{p: p, constraint: cv, admit: p.specialized(cv), rec: rec}, nil
}

// Quiet returns the policy without its record of failures: its cases
// are judged exactly as the policy judges them, and those that fail are
// not counted in Failures. A command block's policy is returned as it is.
func (p *Policy) Quiet() engine.Policy {
	if p.command != nil {
		return p
	}
	return quietPolicy{p}
}

// quietPolicy is a Policy judging without keeping its failures.
type quietPolicy struct{ p *Policy }

func (q quietPolicy) Name() string { return q.p.name }
func (q quietPolicy) Rule() string { return q.p.rule }

// Compile is the policy's Compile, its matchers keeping no failures. A
// constraint the policy compiled before is not specialized again.
func (q quietPolicy) Compile(constraint string) (engine.Matcher, error) {
	if e, ok := q.p.matchers.get(constraint); ok {
		if m, ok := e.m.(*matcher); ok {
			quiet := *m
			quiet.rec = nil
			return &quiet, e.err
		}
		return e.m, e.err
	}
	return q.p.compile(constraint, nil)
}

// matcherCache keeps the matchers a policy compiled (and its refusals),
// by constraint, so that a constraint compiled again, as a run that
// judges its versions in several batches does, is not specialized again.
// It keeps at most maxCachedMatchers of constraints of at most
// maxCachedConstraint bytes, and starts again when full. A matcher is
// immutable, so it is shared.
type matcherCache struct {
	mu sync.RWMutex
	m  map[string]compiledConstraint
}

type compiledConstraint struct {
	m   engine.Matcher
	err error
}

// Bounds of a policy's matcherCache.
const (
	maxCachedMatchers   = 1024
	maxCachedConstraint = 1024
)

func (c *matcherCache) get(constraint string) (compiledConstraint, bool) {
	c.mu.RLock()
	e, ok := c.m[constraint]
	c.mu.RUnlock()
	return e, ok
}

func (c *matcherCache) put(constraint string, m engine.Matcher, err error) {
	if len(constraint) > maxCachedConstraint {
		return
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedMatchers {
		c.m = make(map[string]compiledConstraint, 64)
	}
	c.m[constraint] = compiledConstraint{m, err}
	c.mu.Unlock()
}

// compiled is an admit expression ready to judge the versions of one
// constraint: the whole expression and, when its top is a chain of && or
// ||, its operands (see decision), each specialized for the constraint or
// as written.
type compiled struct {
	whole    hcl.Expression
	operands []hcl.Expression
	// lazy, when whole is nil, specializes the whole expression, which
	// is evaluated only when an operand fails; it returns the expression
	// and the expression as evaluated.
	lazy func() (hcl.Expression, hcl.Expression)
	// run and runOperands are whole and operands as evaluated: rewritten
	// by direct, when they are in HCL's native syntax.
	run         hcl.Expression
	runOperands []hcl.Expression
}

// wholeExpr returns the whole expression.
func (c *compiled) wholeExpr() hcl.Expression {
	if c.whole == nil {
		e, _ := c.lazy()
		return e
	}
	return c.whole
}

// runWhole returns the whole expression as evaluated.
func (c *compiled) runWhole() hcl.Expression {
	if c.whole == nil {
		_, run := c.lazy()
		return run
	}
	return c.run
}

// forRun returns e as evaluated: rewritten by direct when it is in HCL's
// native syntax.
func forRun(e hcl.Expression) hcl.Expression {
	if syn, ok := e.(hclsyntax.Expression); ok {
		return direct(syn)
	}
	return e
}

// written is admit as written.
func (p *Policy) written() compiled {
	c := compiled{whole: p.admit, run: p.admitRun}
	if p.dec != nil {
		for i, o := range p.dec.operands {
			c.operands = append(c.operands, o)
			c.runOperands = append(c.runOperands, p.dec.runOperands[i])
		}
	}
	return c
}

// specialized returns admit rewritten for the constraint value cv (see
// specialize), or admit as written when it is not in HCL's native syntax
// or rewriting it fails.
func (p *Policy) specialized(cv cty.Value) (out compiled) {
	if p.plan == nil {
		return p.written()
	}
	if p.dec == nil || len(p.dec.operands) == 0 {
		whole, run := p.specializedWhole(cv)
		return compiled{whole: whole, run: run}
	}
	defer func() {
		if recover() != nil {
			out = p.written()
		}
	}()
	operands, pays := specialize(p.plan, cv, p.dec.operands...)
	for i, o := range operands {
		out.operands = append(out.operands, o)
		out.runOperands = append(out.runOperands, withPayments(direct(o), pays[i]))
	}
	out.lazy = sync.OnceValues(func() (hcl.Expression, hcl.Expression) {
		return p.specializedWhole(cv)
	})
	return out
}

// specializedWhole returns admit rewritten for the constraint value cv,
// and as evaluated (see direct), paying for the for expressions unrolled
// in it (see payment); or as written when rewriting it fails.
func (p *Policy) specializedWhole(cv cty.Value) (out, run hcl.Expression) {
	defer func() {
		if recover() != nil {
			out, run = p.admit, p.admitRun
		}
	}()
	whole, pays := specialize(p.plan, cv, p.plan.expr)
	return whole[0], withPayments(forRun(whole[0]), pays[0])
}

// refusal is a constraint refused by a policy's refuse attribute; its
// text is the reason.
type refusal struct{ reason string }

func (r *refusal) Error() string { return r.reason }

// checkRefuse evaluates refuse and refuse_reason for the constraint
// value cv; nil when the constraint is accepted.
func (p *Policy) checkRefuse(cv cty.Value, rec *failures) (err error) {
	if p.refuse == nil {
		return nil
	}
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("evaluating refuse failed: %v", x)
		}
	}()
	vars := map[string]cty.Value{varConstraint: cv}
	failed := func(err error) error {
		rec.add(engine.ClipReason(err.Error()), cv.GetAttr("text").AsString(), "")
		return err
	}
	v, diags := evalExpr(p.refuse, vars)
	if err := diagsError(diags); err != nil {
		return failed(err)
	}
	refused, err := boolResult(v, "refuse")
	if err != nil {
		return failed(err)
	}
	if !refused {
		return nil
	}
	if p.refuseReason == nil {
		return &refusal{fmt.Sprintf("the policy %s refuses this constraint (refuse is true)", p.name)}
	}
	rv, diags := evalExpr(p.refuseReason, vars)
	if err := diagsError(diags); err != nil {
		return failed(err)
	}
	if rv.IsNull() || !rv.IsKnown() || rv.Type() != cty.String {
		return failed(fmt.Errorf("refuse_reason must give a string, it gave %s", describeType(rv)))
	}
	return &refusal{rv.AsString()}
}

// diagsError returns the first error of diags, formatted as prerel
// formats diagnostics, or nil when there is none.
func diagsError(diags hcl.Diagnostics) error {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			return diagError{d}
		}
	}
	return nil
}

// diagError is an error diagnostic met while judging a case.
type diagError struct{ d *hcl.Diagnostic }

func (e diagError) Error() string { return diag.Format(e.d) }

// boolResult reads what an expression that must give a bool gave.
func boolResult(v cty.Value, what string) (bool, error) {
	if v != cty.NilVal && v.Type() == cty.Bool && !v.IsMarked() && v.IsKnown() && !v.IsNull() {
		// A known, unmarked bool holds a Go bool: compare it directly.
		return v == cty.True, nil
	}
	return false, fmt.Errorf("%s must give true or false, it gave %s", what, describeType(v))
}

// matcher judges versions against one compiled constraint.
type matcher struct {
	p          *Policy
	constraint cty.Value
	admit      compiled
	rec        *failures // where the errors of admit go; nil keeps none
}

// Reasons of a policy written as an expression in HCL's JSON syntax.
const (
	reasonAdmitTrue  = "admit is true"
	reasonAdmitFalse = "admit is false"
)

// Match judges version: Invalid when the engine's parser refuses it or
// when evaluating admit fails on this case (the diagnostic, with its
// place in the file, is the reason).
func (m *matcher) Match(version string) engine.Result {
	v, err := m.p.versions.get(version, m.p.plan)
	if err != nil {
		return engine.InvalidResult(err)
	}
	return m.p.decide(m.admit, m.constraint, v, true, m.rec)
}

// MatchVerdict is Match(version).Verdict, without building the reason of
// an allow or a reject: what compare asks of every case.
func (m *matcher) MatchVerdict(version string) engine.Verdict {
	v, err := m.p.versions.get(version, m.p.plan)
	if err != nil {
		return engine.Invalid
	}
	return m.p.decide(m.admit, m.constraint, v, false, m.rec).Verdict
}

// judge evaluates admit, as specialized for the constraint value cv, for
// the version vv. The reason names what decided (see decision).
func (p *Policy) judge(admit compiled, cv cty.Value, vv cachedVersion) engine.Result {
	return p.decide(admit, cv, vv, true, &p.failures)
}

// decide is judge, the reason of an allow or a reject left empty unless
// reasons is set; an invalid verdict always has its reason. The error of
// an invalid verdict goes to rec, and nowhere when rec is nil.
func (p *Policy) decide(admit compiled, cv cty.Value, vv cachedVersion, reasons bool, rec *failures) (r engine.Result) {
	defer func() {
		if x := recover(); x != nil {
			r = engine.InvalidResult(fmt.Errorf("evaluating admit failed: %v", x))
		}
	}()
	ev := newEvaluation()
	defer ev.release()
	vars := ev.ctx.Variables
	vars[varConstraint] = cv
	vars[varVersion] = vv.obj
	vars[judgedArg] = vv.arg
	if p.plan != nil {
		if vv.partsOK {
			for i, name := range p.plan.partVars {
				vars[name] = vv.parts[i]
			}
		} else {
			admit = p.written()
		}
	}
	if len(admit.runOperands) > 0 {
		if r, ok := p.dec.judgeOperands(ev, admit.runOperands, reasons); ok {
			return r
		}
		ev.b.reset()
	}
	v, diags := ev.value(admit.runWhole())
	err := diagsError(diags)
	if err == nil {
		var admitted bool
		if admitted, err = boolResult(v, "admit"); err == nil {
			reason := reasonAdmitFalse
			switch {
			case !reasons:
				reason = ""
			case p.dec != nil:
				reason = p.dec.wholeReason(admitted, vars)
			case admitted:
				reason = reasonAdmitTrue
			}
			if admitted {
				return engine.Allowed(reason)
			}
			return engine.Rejected(reason)
		}
	}
	if vv.over != nil && vv.partsOK && !diags.HasErrors() && admit.whole != p.admit {
		// A part that reads only the version went over its budget, and
		// the expression's value depends on it.
		err = diagError{vv.over}
	}
	r = engine.InvalidResult(err)
	rec.add(r.Reason, cv.GetAttr("text").AsString(), vv.obj.GetAttr("text").AsString())
	return r
}

// Select returns what the policy installs from available: the newest
// admitted version, or with select = "fallback" the newest admitted
// release, and the newest admitted prerelease only when no release is
// admitted. Versions judged Invalid are Unreadable and never selected;
// of equal versions the first listed wins. The error is the policy's
// refusal of the constraint. A command block's policy selects as
// engine.Select has it select.
func (p *Policy) Select(constraint string, available []string) (engine.Selection, error) {
	if p.command != nil {
		return engine.Select(p.command, constraint, available)
	}
	m, err := p.Compile(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	if !p.fallback {
		return engine.SelectNewest(m, available), nil
	}
	return engine.SelectReleasesFirst(m, available), nil
}
