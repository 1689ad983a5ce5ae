package hclpolicy

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/prerel/prerel/internal/diag"
)

// The budget of one evaluation: an expression comes from a file that may
// be under review, so no evaluation may take unbounded time or memory.
// See the package documentation, "Budget".
const (
	// MaxSteps bounds the work of one evaluation: a call of a function
	// of go-cty's standard library costs 4 steps, a step for each
	// element of the collection it makes or each 16 bytes of the string,
	// a step for each two values and each 16 bytes of each argument, and
	// the work it does beyond that (see works), charged before it runs;
	// a call of this package's own functions costs a step and what it
	// reads (see ownReading);
	// a for expression or a splat costs its collection's length times four
	// more than the nodes of its body; a part of a string template costs a
	// step and a step for each 16 bytes. A step is about a quarter of a
	// microsecond of work on an idle core.
	MaxSteps = 20_000
	// MaxElements bounds the collection one call of a function makes
	// (setproduct, concat, flatten, split, regexall, ...), checked before
	// the function runs.
	MaxElements = 10_000
	// MaxStringBytes bounds the string one call of a function makes
	// (replace, format, join, indent, jsonencode, ...), checked before the
	// function runs.
	MaxStringBytes = 256 << 10
	// MaxPatternBytes bounds the pattern of regex, regexall and
	// regex_replace, checked before it is compiled.
	MaxPatternBytes = 1 << 10
	// EvalTimeout bounds one evaluation's time, a last resort behind the
	// steps: the clock is read every 256 steps, and at every charge of
	// 256 steps or more before the work it pays for starts; it starts at
	// its first reading.
	EvalTimeout = 2 * time.Second
)

const (
	// bytesPerStep is how many bytes of a string cost one step.
	bytesPerStep = 16
	// callSteps is what a call of a standard library function costs
	// besides its result.
	callSteps = 4
	// iterationSteps is what an element of a for expression or a splat
	// costs besides its body's nodes: HCL makes a scope for each.
	iterationSteps = 4
	// clockEvery is how many steps pass between two readings of the
	// clock.
	clockEvery = 256
)

// budgetError is an evaluation that went over its budget. rng is where,
// when the budget was charged by a rewritten node (a for expression, a
// splat, a template's part); a function's error is placed by HCL.
type budgetError struct {
	msg    string
	rng    hcl.Range
	hasRng bool
}

func (e *budgetError) Error() string { return e.msg }

// budgetSummary is the summary of the diagnostic of an evaluation that
// went over its budget.
const budgetSummary = "Evaluation budget exceeded"

// budget counts the work of one evaluation. Once exceeded it stays
// exceeded: every later charge fails, so that try and can, which swallow
// errors, cannot keep an evaluation going.
type budget struct {
	steps   int
	err     *budgetError
	clock   int
	started time.Time
	timeout time.Duration
}

func (b *budget) reset() { *b = budget{clock: clockEvery, timeout: EvalTimeout} }

// charge adds n steps, for what (said in the error) at rng when known.
func (b *budget) charge(n int, what string, rng *hcl.Range) error {
	if b.err != nil {
		return b.err
	}
	if n > MaxSteps-b.steps {
		return b.fail(fmt.Sprintf("%s: the evaluation takes more than %d steps, the most one evaluation may take", what, MaxSteps), rng)
	}
	b.steps += n
	if b.steps < b.clock && n < clockEvery {
		return nil
	}
	// A large charge is paid before the work it is for: the clock is
	// read before that work starts.
	b.clock = b.steps + clockEvery
	now := time.Now()
	if b.started.IsZero() {
		// The clock starts at the first reading: an evaluation that
		// charges fewer than 256 steps, in small charges, never reads it.
		b.started = now
	} else if now.Sub(b.started) > b.timeout {
		return b.fail(fmt.Sprintf("%s: the evaluation takes longer than %v, the longest one evaluation may take", what, b.timeout), rng)
	}
	return nil
}

// left is what is left of the budget, in steps, for a measure to stop
// at: one more than the steps left, so that a measure that reaches it is
// refused.
func (b *budget) left() float64 { return float64(MaxSteps-b.steps) + 1 }

// chargeWork charges b for what calling the standard library function
// name with args will cost besides its arguments and its result (see
// works), before it runs: nothing when an argument is not wholly known.
func (b *budget) chargeWork(name string, args []cty.Value) error {
	w := works[name]
	if b.err != nil {
		return b.err
	}
	if w == nil || !allKnown(args) {
		return nil
	}
	n, what, refused := w(args, b.left())
	if refused != "" {
		return b.fail(name+": "+refused, nil)
	}
	return b.charge(steps(n), name+", "+what, nil)
}

// conversionSteps is what the conversion c of v costs, in whole steps
// (rounded down: a conversion of a short string or a number costs
// nothing), at most one more than limit.
func conversionSteps(v cty.Value, c conversion, limit float64) int {
	n := conversionCost(v, c, limit)
	if n >= limit {
		return int(math.Min(limit, MaxSteps+1))
	}
	return int(n)
}

// steps rounds a measure up to whole steps, at most one more than the
// budget holds.
func steps(n float64) int {
	if n >= MaxSteps+1 {
		return MaxSteps + 1
	}
	return int(math.Ceil(n))
}

// fail makes the budget exceeded with msg at rng.
func (b *budget) fail(msg string, rng *hcl.Range) error {
	if b.err == nil {
		b.err = &budgetError{msg: msg}
		if rng != nil {
			b.err.rng, b.err.hasRng = *rng, true
		}
	}
	return b.err
}

// evaluation is an evaluation context with its own budget and its own
// function table, whose functions charge that budget. Evaluations are
// pooled: a table is built once per pooled evaluation.
type evaluation struct {
	b   budget
	ctx hcl.EvalContext
	// charge is the table's chargeFunc, and self the evaluation as the
	// value of the variable evaluationVar, through which a direct call
	// finds the budget chargeFunc charges (see directCall).
	charge function.Function
	self   cty.Value
	// metered are the standard library functions, as the table's
	// wrappers call them, that charge the budget as they go (see
	// meteredFunctions).
	metered map[string]function.Function
}

var evaluations sync.Pool

// evaluationVar is the variable that holds an evaluation's self: no
// expression can name it, since an HCL name cannot hold a NUL.
const evaluationVar = "\x00evaluation"

// evaluationType carries an evaluation.
var evaluationType = cty.Capsule("evaluation", reflect.TypeOf(evaluation{}))

// newEvaluation returns an evaluation with a fresh budget and no
// variables but evaluationVar.
func newEvaluation() *evaluation {
	ev, ok := evaluations.Get().(*evaluation)
	if !ok {
		ev = &evaluation{}
		ev.metered = meteredFunctions(&ev.b)
		ev.ctx.Functions = budgetedFunctions(&ev.b, ev.metered)
		ev.ctx.Variables = make(map[string]cty.Value, 4)
		ev.charge = ev.ctx.Functions[chargeFunc]
		ev.self = cty.CapsuleVal(evaluationType, ev)
	}
	ev.b.reset()
	ev.ctx.Variables[evaluationVar] = ev.self
	return ev
}

// evaluationOf returns the evaluation whose context ctx is, or is a
// child of, or nil.
func evaluationOf(ctx *hcl.EvalContext) *evaluation {
	for c := ctx; c != nil; c = c.Parent() {
		if v, ok := c.Variables[evaluationVar]; ok {
			if v.Type().Equals(evaluationType) && v.IsKnown() && !v.IsNull() && !v.IsMarked() {
				return v.EncapsulatedValue().(*evaluation)
			}
			return nil
		}
	}
	return nil
}

// release returns ev to the pool.
func (ev *evaluation) release() {
	clear(ev.ctx.Variables)
	evaluations.Put(ev)
}

// value evaluates e in ev, turning a panic into an error diagnostic and
// an exceeded budget into one error diagnostic at its place.
func (ev *evaluation) value(e hcl.Expression) (v cty.Value, diags hcl.Diagnostics) {
	defer func() {
		if x := recover(); x != nil {
			v, diags = cty.DynamicVal, hcl.Diagnostics{diag.ErrorAt(e.Range().Ptr(), "Evaluation failed", fmt.Sprint(x))}
		}
	}()
	v, diags = e.Value(&ev.ctx)
	if ev.b.err == nil {
		return v, diags
	}
	return cty.DynamicVal, hcl.Diagnostics{budgetDiagnostic(diags, ev.b.err, e.Range())}
}

// budgetDiagnostic is the diagnostic of an evaluation that went over its
// budget: the error's own place, or the place HCL gave the call that
// failed, or else where (the whole expression).
func budgetDiagnostic(diags hcl.Diagnostics, err *budgetError, where hcl.Range) *hcl.Diagnostic {
	rng := where
	if err.hasRng {
		rng = err.rng
	} else if r, ok := budgetPlace(diags); ok {
		rng = r
	}
	return diag.ErrorAt(&rng, budgetSummary, err.msg+".")
}

// budgetPlace returns the place HCL gave the call that went over the
// budget, when diags has it.
func budgetPlace(diags hcl.Diagnostics) (hcl.Range, bool) {
	for _, d := range diags {
		if x, ok := d.Extra.(hclsyntax.FunctionCallDiagExtra); ok && d.Subject != nil {
			var be *budgetError
			if errors.As(x.FunctionCallError(), &be) {
				return *d.Subject, true
			}
		}
	}
	return hcl.Range{}, false
}

// closureValue evaluates an argument of try or can; once the budget is
// exceeded, its error, placed where the argument's diagnostics say, so
// that try and can cannot swallow it.
func (b *budget) closureValue(arg cty.Value) (cty.Value, hcl.Diagnostics, error) {
	v, diags := customdecode.ExpressionClosureFromVal(arg).Value()
	if b.err == nil {
		return v, diags, nil
	}
	if !b.err.hasRng {
		if r, ok := budgetPlace(diags); ok {
			b.err.rng, b.err.hasRng = r, true
		}
	}
	return v, diags, b.err
}

// budgetedTry and budgetedCan are hcl's tryfunc.TryFunc and CanFunc,
// except that an exceeded budget is an error they do not swallow.
func budgetedTry(b *budget) function.Function {
	try := func(args []cty.Value) (cty.Value, error) {
		if len(args) == 0 {
			return cty.NilVal, errors.New("at least one argument is required")
		}
		var all hcl.Diagnostics
		for _, arg := range args {
			v, diags, err := b.closureValue(arg)
			if err != nil {
				return cty.NilVal, err
			}
			all = append(all, diags...)
			if diags.HasErrors() {
				continue
			}
			if !v.IsWhollyKnown() {
				return cty.DynamicVal, nil
			}
			return v, nil
		}
		var buf strings.Builder
		buf.WriteString("no expression succeeded:\n")
		for _, d := range all {
			if d.Subject != nil {
				fmt.Fprintf(&buf, "- %s (at %s)\n  %s\n", d.Summary, d.Subject, d.Detail)
			} else {
				fmt.Fprintf(&buf, "- %s\n  %s\n", d.Summary, d.Detail)
			}
		}
		buf.WriteString("\nAt least one expression must produce a successful result")
		return cty.NilVal, errors.New(buf.String())
	}
	return function.New(&function.Spec{
		Description: tryfunc.TryFunc.Description(),
		VarParam:    &function.Parameter{Name: "expressions", Type: customdecode.ExpressionClosureType},
		Type: func(args []cty.Value) (cty.Type, error) {
			v, err := try(args)
			if err != nil {
				return cty.NilType, err
			}
			return v.Type(), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) { return try(args) },
	})
}

func budgetedCan(b *budget) function.Function {
	return function.New(&function.Spec{
		Description: tryfunc.CanFunc.Description(),
		Params:      []function.Parameter{{Name: "expression", Type: customdecode.ExpressionClosureType}},
		Type:        function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, diags, err := b.closureValue(args[0])
			switch {
			case err != nil:
				return cty.NilVal, err
			case diags.HasErrors():
				return cty.False, nil
			case !v.IsWhollyKnown():
				return cty.UnknownVal(cty.Bool), nil
			}
			return cty.True, nil
		},
	})
}

// isBudgetDiag reports whether d is an exceeded budget.
func isBudgetDiag(d *hcl.Diagnostic) bool { return d.Summary == budgetSummary }

// evalExpr evaluates e with vars and the function table, within a
// budget of its own.
func evalExpr(e hcl.Expression, vars map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
	ev := newEvaluation()
	defer ev.release()
	for k, v := range vars {
		if k != evaluationVar {
			ev.ctx.Variables[k] = v
		}
	}
	return ev.value(e)
}

// budgetedFunctions returns the function table with go-cty's standard
// library functions and this package's own functions wrapped so that they
// charge b, and the functions that the rewritten nodes call (see guard).
func budgetedFunctions(b *budget, metered map[string]function.Function) map[string]function.Function {
	fs := make(map[string]function.Function, len(functions)+2)
	for name, f := range functions {
		if spec, own := ownSpecs[name]; own {
			fs[name] = budgetedOwn(name, spec, b)
			continue
		}
		if m, ok := metered[name]; ok {
			f = m
		}
		fs[name] = budgeted(name, f, b)
	}
	fs["try"] = budgetedTry(b)
	fs["can"] = budgetedCan(b)
	fs[chargeFunc] = chargeFunction(b)
	fs[failFunc] = failFunction(b)
	return fs
}

// budgeted wraps the standard library function f: before it runs, the
// size of what it would make is checked (see precheck); after, its result
// is charged to b.
func budgeted(name string, f function.Function, b *budget) function.Function {
	check := prechecks[name]
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		// The work is charged before go-cty checks the arguments, which
		// for some functions (tolist, concat, regex, ...) is already
		// part of the work.
		Type: func(args []cty.Value) (cty.Type, error) {
			if err := b.chargeWork(name, args); err != nil {
				return cty.NilType, err
			}
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if err := b.charge(callSteps, "calling "+name, nil); err != nil {
				return cty.NilVal, err
			}
			if check != nil && allKnown(args) {
				if msg := check(args); msg != "" {
					return cty.NilVal, b.fail(name+": "+msg, nil)
				}
			}
			v, err := f.Call(args)
			if err != nil {
				return v, err
			}
			return v, b.charge(b.cost(v), "the result of "+name, nil)
		},
	})
}

// meteredFunctions are the standard library functions whose work cannot
// all be charged before they run, each charging b as it goes: regexall
// and regex_replace, for each search after the first (see searches).
func meteredFunctions(b *budget) map[string]function.Function {
	return map[string]function.Function{
		"regexall":      regexAllFor(b),
		"regex_replace": regexReplaceFor(b),
	}
}

// budgetedOwn is this package's function name, of specification spec,
// charging b for what it reads before it runs (see chargeOwn).
func budgetedOwn(name string, spec *function.Spec, b *budget) function.Function {
	oc := ownCalls[name]
	return function.New(&function.Spec{
		Description: spec.Description,
		Params:      spec.Params,
		VarParam:    spec.VarParam,
		Type: func(args []cty.Value) (cty.Type, error) {
			if err := b.chargeOwn(oc, args); err != nil {
				return cty.NilType, err
			}
			return spec.Type(args)
		},
		Impl:         spec.Impl,
		RefineResult: spec.RefineResult,
	})
}

// ownCall is what charging a call of one of this package's functions
// needs to know of it.
type ownCall struct {
	name  string
	what  string    // the charge, in a message
	kinds []argKind // how it reads its arguments (see paramKinds)
}

// ownCalls are this package's functions, by name.
var ownCalls = func() map[string]*ownCall {
	m := make(map[string]*ownCall, len(ownSpecs))
	for name := range ownSpecs {
		m[name] = &ownCall{name: name, what: name + ", reading its arguments", kinds: paramKinds[name]}
	}
	return m
}()

// chargeOwn charges b for a call of this package's function oc with
// args, before it runs: a step, and what it reads (see ownReading).
func (b *budget) chargeOwn(oc *ownCall, args []cty.Value) error {
	if b.err != nil {
		return b.err
	}
	r := ownReading(oc, args, b.left())
	n := steps(r.steps())
	what := oc.what
	if n > MaxSteps-b.steps {
		what = oc.name + ", " + r.describe(oc.name)
	}
	return b.charge(n, what, nil)
}

// allKnown reports whether every argument is known through and through.
func allKnown(args []cty.Value) bool {
	for _, a := range args {
		if !a.IsWhollyKnown() {
			return false
		}
	}
	return true
}

// cost is what a function's result costs: an element of a collection, at
// any depth, or 16 bytes of a string or of a number written out, a step.
// It stops at what is left of the budget.
func (b *budget) cost(v cty.Value) int {
	if b.err != nil || !v.IsKnown() || v.IsNull() {
		return 0
	}
	w := walker{limit: b.left()}
	w.value(v)
	// A result costs a step for each value in it, itself aside, and for
	// each 16 bytes of its strings and numbers.
	return steps(w.bytes/bytesPerStep + (w.nodes - 1))
}

// prechecks say, before a standard library function runs, why its result
// would be too large, or "".
var prechecks = map[string]func(args []cty.Value) string{
	"setproduct": func(args []cty.Value) string {
		n := 1.0
		for _, a := range args {
			n *= float64(length(a))
		}
		return tooMany(n*float64(len(args)), "elements")
	},
	"concat":                 sumOfLengths,
	"merge":                  sumOfLengths,
	"setunion":               sumOfLengths,
	"setsymmetricdifference": sumOfLengths,
	"flatten": func(args []cty.Value) string {
		return tooMany(float64(leaves(args[0], MaxElements+1)), "elements")
	},
	"split": func(args []cty.Value) string {
		sep, s := args[0].AsString(), args[1].AsString()
		if sep == "" {
			return tooMany(float64(len(s)), "elements")
		}
		return tooMany(float64(strings.Count(s, sep)+1), "elements")
	},
	"regexall": func(args []cty.Value) string {
		return tooMany(float64(len(args[1].AsString())+1), "elements (one match for each byte and one more)")
	},
	"join": func(args []cty.Value) string {
		sep := len(args[0].AsString())
		n := 0.0
		for _, l := range args[1:] {
			for it := l.ElementIterator(); it.Next(); {
				_, e := it.Element()
				n += float64(sep + size(e, MaxStringBytes+1))
			}
		}
		return tooLong(n)
	},
	"replace": func(args []cty.Value) string {
		return tooLong(replacedLength(args[0].AsString(), args[1].AsString(), args[2].AsString()))
	},
	"regex_replace": func(args []cty.Value) string {
		return tooLong(replacedLength(args[0].AsString(), "/", args[2].AsString()))
	},
	"indent": func(args []cty.Value) string {
		spaces, _ := args[0].AsBigFloat().Float64()
		s := args[1].AsString()
		return tooLong(float64(len(s)) + math.Max(spaces, 0)*float64(strings.Count(s, "\n")+1))
	},
	"format": func(args []cty.Value) string {
		return tooLong(formattedLength(args))
	},
	"formatlist": func(args []cty.Value) string {
		n := 1
		for _, a := range args[1:] {
			if t := a.Type(); t.IsListType() || t.IsTupleType() || t.IsSetType() {
				n = max(n, a.LengthInt())
			}
		}
		return tooLong(float64(n) * formattedLength(args))
	},
	"jsonencode": func(args []cty.Value) string {
		// An escaped rune takes at most 6 bytes (\u001b).
		return tooLong(6 * float64(size(args[0], MaxStringBytes+1)))
	},
}

// tooMany says why a collection of n elements is too large, or "".
func tooMany(n float64, what string) string {
	if n <= MaxElements {
		return ""
	}
	return fmt.Sprintf("the result would have %s %s, more than the %d one call may make", approx(n), what, MaxElements)
}

// tooLong says why a string of n bytes is too long, or "".
func tooLong(n float64) string {
	if n <= MaxStringBytes {
		return ""
	}
	return fmt.Sprintf("the result would be %s bytes long, more than the %d one call may make", approx(n), MaxStringBytes)
}

// approx writes n, which may be huge, as an integer or in e notation.
func approx(n float64) string {
	if n < 1e15 {
		return fmt.Sprintf("%.0f", n)
	}
	return fmt.Sprintf("%.3g", n)
}

// sumOfLengths checks a function whose result has as many elements as its
// arguments together.
func sumOfLengths(args []cty.Value) string {
	n := 0.0
	for _, a := range args {
		n += float64(length(a))
	}
	return tooMany(n, "elements")
}

// length is the number of elements of a collection, or 1.
func length(v cty.Value) int {
	if v.IsNull() || !v.CanIterateElements() {
		return 1
	}
	return v.LengthInt()
}

// leaves counts the values that are not lists, sets or tuples inside v,
// stopping at limit.
func leaves(v cty.Value, limit int) int {
	t := v.Type()
	if v.IsNull() || !(t.IsListType() || t.IsSetType() || t.IsTupleType()) {
		return 1
	}
	n := 0
	for it := v.ElementIterator(); it.Next() && n < limit; {
		_, e := it.Element()
		n += leaves(e, limit-n)
	}
	return n
}

// size is about how many bytes v takes written out (a string's length, 24
// for a number, 2 more for each element), stopping at limit.
func size(v cty.Value, limit int) int {
	if v.IsNull() || !v.IsKnown() {
		return 4
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return len(v.AsString())
	case t.IsPrimitiveType():
		return 24
	case v.CanIterateElements():
		n := 2
		for it := v.ElementIterator(); it.Next() && n < limit; {
			k, e := it.Element()
			n += 2 + size(e, limit-n)
			if t.IsMapType() || t.IsObjectType() {
				n += size(k, limit-n)
			}
		}
		return n
	}
	return 24
}

// replacedLength bounds the length of s with each match of old replaced
// by repl; old is a regular expression when written between slashes, and
// repl may then repeat the whole of s in each match ($0).
func replacedLength(s, old, repl string) float64 {
	n, r := float64(len(s)), float64(len(repl))
	if len(old) >= 2 && old[0] == '/' && old[len(old)-1] == '/' || old == "/" {
		if strings.Contains(repl, "$") {
			r *= n + 1
		}
		return n + (n+1)*r
	}
	if old == "" {
		return n + (n+1)*r
	}
	return n + float64(strings.Count(s, old))*r
}

// formattedLength bounds the length of format's result: the format's
// length, every width and precision written in it, and the size of every
// argument.
func formattedLength(args []cty.Value) float64 {
	f := args[0].AsString()
	n := float64(len(f))
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		for i++; i < len(f) && strings.IndexByte("0123456789.+-# []*", f[i]) >= 0; {
			j := i
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				j++
			}
			if j > i {
				var w float64
				for _, c := range f[i:j] {
					w = w*10 + float64(c-'0')
				}
				n += w
				i = j
				continue
			}
			i++
		}
	}
	for _, a := range args[1:] {
		n += float64(size(a, MaxStringBytes+1))
	}
	return n
}

// chargeFunc is the function the rewritten nodes call (see guard): no
// expression can name it, since an HCL name cannot hold a NUL.
const chargeFunc = "\x00charge"

// site is where a rewritten node is and what it costs for each element
// of its collection, or for each 16 bytes of its string.
type site struct {
	what  string
	rng   hcl.Range
	nodes int
	// arg is set for an argument of a standard library function, whose
	// parameter has type param: the argument costs its size (see
	// argCost).
	arg   bool
	param cty.Type
	// conv is set for what HCL converts or compares: an operand, a key,
	// an index, a conditional's result, the values of a template; it
	// costs that conversion (see conversionCost), and nothing more.
	conv conversion
}

// chargeFunction is chargeFunc: chargeFunc(value, site) charges b for the
// value at the site and gives the value back as it is. The value is
// handed over in a capsule (see chargedType), so that go-cty does not walk
// it before it is charged.
func chargeFunction(b *budget) function.Function {
	return function.New(&function.Spec{
		Description: "Charges the evaluation's budget for a value and returns it.",
		Params: []function.Parameter{
			{Name: "value", Type: chargedType},
			{Name: "site", Type: siteType},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[0].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			return args[0].EncapsulatedValue().(*cty.Value).Type(), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v := *args[0].EncapsulatedValue().(*cty.Value)
			if err := b.chargeValue(v, args[1].EncapsulatedValue().(*site)); err != nil {
				return cty.NilVal, err
			}
			return v, nil
		},
	})
}

// chargedType carries the value chargeFunc charges for. go-cty's
// Function.Call walks every argument through and through, looking for
// marks, before the function runs: a value a policy made large cheaply
// (a list of a thousand references to one list of a thousand elements)
// would cost that walk before it is charged. HCL hands an argument of a
// capsule type with a custom decoder to that decoder instead of
// evaluating it; the decoder evaluates it and wraps the value, and a
// capsule is a leaf.
var chargedType = cty.CapsuleWithOps("charged", reflect.TypeOf(cty.Value{}), &cty.CapsuleOps{
	ExtensionData: func(key any) any {
		if key == customdecode.CustomExpressionDecoder {
			return chargedDecoder
		}
		return nil
	},
	TypeGoString: func(reflect.Type) string { return "hclpolicy.chargedType" },
	RawEquals: func(a, b any) bool {
		return a.(*cty.Value).RawEquals(*b.(*cty.Value))
	},
})

// chargedDecoder is decodeCharged, set when the package is initialized
// (decodeCharged refers to chargedType).
var chargedDecoder customdecode.CustomExpressionDecoderFunc

func init() { chargedDecoder = decodeCharged }

// decodeCharged evaluates an argument of chargeFunc and wraps its value.
func decodeCharged(expr hcl.Expression, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	return cty.CapsuleVal(chargedType, &v), diags
}

// chargeValue charges b for the value v at the site s, as chargeFunc
// does.
func (b *budget) chargeValue(v cty.Value, s *site) error {
	if b.err != nil {
		return b.err // without measuring v
	}
	if s.conv != noConversion {
		n := conversionSteps(v, s.conv, b.left())
		if n == 0 {
			return nil
		}
		return b.charge(n, s.what, &s.rng)
	}
	n := 1
	if s.arg {
		n += steps(argCost(v, s.param, b.left()))
	} else if u, _ := v.Unmark(); u.IsKnown() && !u.IsNull() {
		switch t := u.Type(); {
		case t == cty.String:
			n += len(u.AsString()) / bytesPerStep
		case t == cty.Number:
			// A template writes the number out.
			n += int(math.Min(numberBytes(u.AsBigFloat())/bytesPerStep, MaxSteps+1))
		case u.CanIterateElements():
			n = iterationCharge(u, s)
		}
	}
	return b.charge(n, s.what, &s.rng)
}

// iterationCharge is what a for expression or a splat at s charges for
// its collection v, known and not null: a step, and its length times
// four more than the nodes of the body evaluated for each element.
func iterationCharge(v cty.Value, s *site) int {
	return 1 + v.LengthInt()*(iterationSteps+s.nodes)
}

// siteType carries a site.
var siteType = cty.Capsule("site", reflect.TypeOf(site{}))

// failFunc is the function that stands, in an expression specialized for
// a constraint, for a part that went over its budget when it was
// evaluated for that constraint: failFunc(site) fails at once with the
// same error, for every version.
const failFunc = "\x00fail"

// failFunction is failFunc.
func failFunction(b *budget) function.Function {
	return function.New(&function.Spec{
		Description: "Fails with an exceeded budget.",
		Params:      []function.Parameter{{Name: "error", Type: failureType}},
		Type:        function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			e := args[0].EncapsulatedValue().(*budgetError)
			var rng *hcl.Range
			if e.hasRng {
				rng = &e.rng
			}
			return cty.NilVal, b.fail(e.msg, rng)
		},
	})
}

// failureType carries a budgetError.
var failureType = cty.Capsule("failure", reflect.TypeOf(budgetError{}))
