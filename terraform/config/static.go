package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Bounds of the static evaluation of a module call's version.
const (
	// MaxStaticDepth is how many locals deep a version may refer: a
	// local that refers to a local that refers to ... a variable.
	MaxStaticDepth = 32
	// MaxStaticRefs is how many references one expression may hold.
	MaxStaticRefs = 64
	// MaxStaticSize bounds every value evaluated: the bytes of its
	// strings and the number of its elements together.
	MaxStaticSize = 4096
)

// StaticRef is a variable or local a version expression refers to.
type StaticRef struct {
	// Name is the reference as written: "var.major" or "local.version".
	Name string
	// Pos is the place of the variable block's header or of the local's
	// name.
	Pos hcl.Range
	// Const is set for a variable declared `const = true`, and for a
	// local made only of such variables: Terraform 1.15 evaluates a
	// version only from those, OpenTofu from any variable's value.
	Const bool
}

// staticVar is a variable block.
type staticVar struct {
	def     hcl.Expression // nil when there is no default
	isConst bool
	pos     hcl.Range
}

// staticLocal is one local value, evaluated at most once.
type staticLocal struct {
	expr       hcl.Expression
	pos        hcl.Range
	done, busy bool
	val        cty.Value
	err        error
	// allConst is set when every variable the local is made of is
	// declared const.
	allConst bool
}

// staticScope holds a module's variables and locals, as Terraform 1.15
// and OpenTofu 1.8 evaluate them before init to read a module call's
// source and version.
type staticScope struct {
	vars   map[string]*staticVar
	locals map[string]*staticLocal
	// stack are the locals under evaluation, outermost first.
	stack []string
}

var (
	staticVariableSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "default"}, {Name: "const"}}}
)

// readVariable records a variable block; a later block (an override
// file's) replaces the default and const arguments it sets.
func (s *staticScope) readVariable(b *hcl.Block) {
	name := b.Labels[0]
	vc, _, _ := b.Body.PartialContent(staticVariableSchema)
	v := s.vars[name]
	if v == nil {
		v = &staticVar{pos: b.DefRange}
		s.vars[name] = v
	}
	if vc == nil {
		return
	}
	if a, ok := vc.Attributes["default"]; ok {
		v.def = a.Expr
	}
	if a, ok := vc.Attributes["const"]; ok {
		val, diags := a.Expr.Value(nil)
		v.isConst = !diags.HasErrors() && val.Type() == cty.Bool && val.IsKnown() && !val.IsNull() && val.True()
	}
}

// readLocals records a locals block; a later local of the same name (an
// override file's) replaces the one before.
func (s *staticScope) readLocals(b *hcl.Block) {
	attrs, _ := b.Body.JustAttributes()
	for name, a := range attrs {
		s.locals[name] = &staticLocal{expr: a.Expr, pos: a.NameRange}
	}
}

// version evaluates a module call's version expression: a string made of
// constant variables' defaults, locals that depend only on those, and
// functions. It returns the value and the references it was made of, or
// why the expression is not static.
func (s *staticScope) version(expr hcl.Expression) (string, []StaticRef, error) {
	val, refs, err := s.value(expr, 0)
	if err != nil {
		return "", refs, err
	}
	if val.IsNull() {
		return "", refs, fmt.Errorf("the value is null")
	}
	str, cerr := convert.Convert(val, cty.String)
	if cerr != nil || !str.IsKnown() || str.IsNull() {
		return "", refs, fmt.Errorf("the value is a %s, not a string", val.Type().FriendlyName())
	}
	return str.AsString(), refs, nil
}

// value evaluates expr with the variables and locals it refers to.
func (s *staticScope) value(expr hcl.Expression, depth int) (cty.Value, []StaticRef, error) {
	if err := staticSyntax(expr); err != nil {
		return cty.NilVal, nil, err
	}
	trs := expr.Variables()
	if len(trs) > MaxStaticRefs {
		return cty.NilVal, nil, fmt.Errorf("the expression holds %d references, more than %d", len(trs), MaxStaticRefs)
	}
	vars, locals := map[string]cty.Value{}, map[string]cty.Value{}
	var refs []StaticRef
	for _, tr := range trs {
		root := tr.RootName()
		name := ""
		if len(tr) > 1 {
			if a, ok := tr[1].(hcl.TraverseAttr); ok {
				name = a.Name
			}
		}
		switch {
		case root != "var" && root != "local":
			return cty.NilVal, refs, fmt.Errorf("it refers to %s, which is not known before init", traversalText(tr))
		case name == "":
			return cty.NilVal, refs, fmt.Errorf("it refers to %s as a whole", root)
		case root == "var":
			if _, ok := vars[name]; ok {
				continue
			}
			v := s.vars[name]
			if v == nil {
				return cty.NilVal, refs, fmt.Errorf("var.%s is not declared", name)
			}
			refs = append(refs, StaticRef{Name: "var." + name, Pos: v.pos, Const: v.isConst})
			if v.def == nil {
				return cty.NilVal, refs, fmt.Errorf("var.%s has no default value (values given to init with -var or in .tfvars files are not read)", name)
			}
			val, diags := v.def.Value(nil)
			if diags.HasErrors() {
				return cty.NilVal, refs, fmt.Errorf("the default of var.%s is not a constant value", name)
			}
			if err := checkSize(val); err != nil {
				return cty.NilVal, refs, fmt.Errorf("var.%s: %v", name, err)
			}
			vars[name] = val
		default:
			if _, ok := locals[name]; ok {
				continue
			}
			l := s.locals[name]
			if l == nil {
				return cty.NilVal, refs, fmt.Errorf("local.%s is not declared", name)
			}
			refs = append(refs, StaticRef{Name: "local." + name, Pos: l.pos})
			val, err := s.local(name, l, depth+1)
			if err != nil {
				return cty.NilVal, refs, err
			}
			refs[len(refs)-1].Const = l.allConst
			locals[name] = val
		}
	}
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars), "local": cty.ObjectVal(locals)},
		Functions: staticFunctions,
	}
	val, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.NilVal, refs, fmt.Errorf("%s", firstError(diags))
	}
	if !val.IsWhollyKnown() {
		return cty.NilVal, refs, fmt.Errorf("the value is not known before init")
	}
	if err := checkSize(val); err != nil {
		return cty.NilVal, refs, err
	}
	return val, refs, nil
}

// local evaluates a local value once; a local that refers back to itself
// is a cycle.
func (s *staticScope) local(name string, l *staticLocal, depth int) (cty.Value, error) {
	switch {
	case l.done:
		return l.val, l.err
	case l.busy:
		i := len(s.stack) - 1
		for i > 0 && s.stack[i] != name {
			i--
		}
		chain := append(append([]string(nil), s.stack[i:]...), name)
		return cty.NilVal, fmt.Errorf("the locals refer to each other in a cycle: local.%s", strings.Join(chain, " → local."))
	case depth > MaxStaticDepth:
		return cty.NilVal, fmt.Errorf("local.%s lies more than %d locals deep", name, MaxStaticDepth)
	}
	l.busy = true
	s.stack = append(s.stack, name)
	val, refs, err := s.value(l.expr, depth)
	s.stack = s.stack[:len(s.stack)-1]
	l.allConst = true
	for _, r := range refs {
		l.allConst = l.allConst && r.Const
	}
	l.busy = false
	if err != nil && !strings.HasPrefix(err.Error(), "local.") && !strings.HasPrefix(err.Error(), "the locals refer") {
		err = fmt.Errorf("local.%s: %v", name, err)
	}
	l.done, l.val, l.err = true, val, err
	return val, err
}

// staticSyntax refuses the expressions whose value can grow without
// bound from small inputs: for expressions and splats.
func staticSyntax(expr hcl.Expression) error {
	se, ok := expr.(hclsyntax.Expression)
	if !ok {
		return nil
	}
	var bad string
	hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		switch n.(type) {
		case *hclsyntax.ForExpr:
			bad = "a for expression"
		case *hclsyntax.SplatExpr:
			bad = "a splat expression"
		}
		return nil
	})
	if bad != "" {
		return fmt.Errorf("it holds %s, which prerel does not evaluate before init", bad)
	}
	return nil
}

// checkSize bounds a value's size.
func checkSize(v cty.Value) error {
	n := 0
	var walk func(cty.Value) bool
	walk = func(v cty.Value) bool {
		n++
		switch {
		case n > MaxStaticSize:
			return false
		case v.IsNull() || !v.IsKnown():
		case v.Type() == cty.String:
			n += len(v.AsString())
		case v.CanIterateElements():
			for it := v.ElementIterator(); it.Next(); {
				_, e := it.Element()
				if !walk(e) {
					return false
				}
			}
		}
		return n <= MaxStaticSize
	}
	if !walk(v) {
		return fmt.Errorf("the value is larger than %d bytes", MaxStaticSize)
	}
	return nil
}

// firstError is the first error of diags on one line.
func firstError(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			if d.Detail != "" {
				return d.Summary + ": " + d.Detail
			}
			return d.Summary
		}
	}
	return "it cannot be evaluated"
}

// traversalText writes a traversal as Terraform writes a reference.
func traversalText(tr hcl.Traversal) string {
	var b strings.Builder
	for _, step := range tr {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		default:
			b.WriteString("[...]")
		}
	}
	return b.String()
}

// staticFunctions are the functions a static expression may call: string
// functions whose result is no larger than their arguments allow.
var staticFunctions = map[string]function.Function{
	"format":     boundedFormat,
	"join":       stdlib.JoinFunc,
	"lower":      stdlib.LowerFunc,
	"upper":      stdlib.UpperFunc,
	"trimspace":  stdlib.TrimSpaceFunc,
	"trimprefix": stdlib.TrimPrefixFunc,
	"trimsuffix": stdlib.TrimSuffixFunc,
	"replace":    stdlib.ReplaceFunc,
	"coalesce":   stdlib.CoalesceFunc,
	"tostring":   stdlib.MakeToFunc(cty.String),
}

// boundedFormat is format, refusing a verb whose width or precision has
// more than three digits, which would make a large string of a small one.
var boundedFormat = function.New(&function.Spec{
	Params:   stdlib.FormatFunc.Params(),
	VarParam: stdlib.FormatFunc.VarParam(),
	Type:     function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if f := args[0]; f.IsKnown() && !f.IsNull() {
			verb, digits := false, 0
			for _, r := range f.AsString() {
				switch {
				case r == '%':
					verb, digits = !verb, 0
				case !verb:
				case r >= '0' && r <= '9':
					if digits++; digits > 3 {
						return cty.NilVal, function.NewArgErrorf(0, "a width or precision of more than three digits")
					}
				case r == '.' || r == '[' || r == ']' || r == '-' || r == '+' || r == '#' || r == ' ':
					digits = 0
				default:
					verb = false
				}
			}
		}
		return stdlib.FormatFunc.Call(args)
	},
})
