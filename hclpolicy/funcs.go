package hclpolicy

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/prerel/prerel/engine"
)

// errUnknown stops a function that meets an unknown value inside a known
// argument: the result is then unknown too. Only the checks a file gets
// when it is loaded see unknown values.
var errUnknown = errors.New("unknown value")

// valueType is the parameter type of this package's own functions: a
// capsule that carries an argument's value. HCL hands an argument of a
// capsule type with a custom decoder to that decoder instead of
// evaluating it, and the decoder below evaluates it itself (with HCL's
// own diagnostics) and wraps the result. go-cty's Function.Call walks
// every argument deeply before each call, looking for marks; a capsule is
// a leaf, so a call with the constraint or a version costs the same as a
// call with a number.
var valueType = cty.CapsuleWithOps("value", reflect.TypeOf(argValue{}), &cty.CapsuleOps{
	ExtensionData: func(key any) any {
		if key == customdecode.CustomExpressionDecoder {
			return argDecoder
		}
		return nil
	},
	TypeGoString: func(reflect.Type) string { return "hclpolicy.valueType" },
	RawEquals: func(a, b any) bool {
		return a.(*argValue).v.RawEquals(b.(*argValue).v)
	},
})

// argValue is an argument of one of this package's functions: its value,
// and, for an argument known once the constraint is known (or the judged
// version), what it reads as, worked out once (see specialize).
type argValue struct {
	v cty.Value

	hasVer  bool
	ver     engine.Version
	verErr  error
	hasCmp  bool
	cmp     engine.Comparator
	cmpErr  error
	hasCmps bool
	cmps    []engine.Comparator
	cmpsErr error
}

// The ways an argument is read.
type argKind uint8

const (
	asVersion argKind = iota
	asComparator
	asComparators
)

// paramKinds are how each of this package's functions reads its
// arguments.
var paramKinds = map[string][]argKind{
	"compare":   {asVersion, asVersion},
	"holds":     {asComparator, asVersion},
	"satisfies": {asComparators, asVersion},
	"same_base": {asVersion, asVersion},
}

// predecoded returns a valueType value for a known argument v, read once
// the way kind says.
func predecoded(v cty.Value, kind argKind) cty.Value {
	a := &argValue{v: v}
	switch kind {
	case asVersion:
		a.hasVer = true
		a.ver, a.verErr = versionOf(v)
	case asComparator:
		a.hasCmp = true
		a.cmp, a.cmpErr = comparatorOf(v)
	case asComparators:
		a.hasCmps = true
		a.cmpsErr = eachComparator(v, func(c *engine.Comparator) bool {
			a.cmps = append(a.cmps, *c)
			return true
		})
	}
	return cty.CapsuleVal(valueType, a)
}

// argDecoder is decodeArg, set when the package is initialized (decodeArg
// refers to valueType).
var argDecoder customdecode.CustomExpressionDecoderFunc

func init() { argDecoder = decodeArg }

// decodeArg evaluates an argument of one of this package's functions. An
// argument already read once (a literal of valueType, which only the
// specializer writes) is handed on as it is.
func decodeArg(expr hcl.Expression, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	switch e := unparen(expr).(type) {
	case *hclsyntax.LiteralValueExpr:
		if e.Val.Type().Equals(valueType) {
			return e.Val, nil
		}
	case *hclsyntax.ScopeTraversalExpr:
		if len(e.Traversal) == 1 && e.Traversal.RootName() == varVersion {
			if v, ok := judgedVersion(ctx); ok {
				return v, nil
			}
		}
	}
	v, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	return cty.CapsuleVal(valueType, &argValue{v: v}), diags
}

// judgedArg is the name of the variable that holds the judged version
// read once, as an argument of valueType. No expression can name it: an
// HCL name cannot hold a NUL.
const judgedArg = "\x00version"

// judgedVersion returns the judged version read once, when the variable
// version in ctx is the judged version (not a for expression's variable
// of that name).
func judgedVersion(ctx *hcl.EvalContext) (cty.Value, bool) {
	for c := ctx; c != nil; c = c.Parent() {
		if _, ok := c.Variables[varVersion]; !ok {
			continue
		}
		v, ok := c.Variables[judgedArg]
		return v, ok
	}
	return cty.NilVal, false
}

// unwrap returns the argument a value of valueType carries.
func unwrap(v cty.Value) *argValue {
	if v.IsKnown() && !v.IsNull() && v.Type().Equals(valueType) {
		return v.EncapsulatedValue().(*argValue)
	}
	return &argValue{v: cty.DynamicVal}
}

// version, comparator and each read an argument as a version, a
// comparator or comparators.
func (a *argValue) version() (engine.Version, error) {
	if a.hasVer {
		return a.ver, a.verErr
	}
	return versionOf(a.v)
}

func (a *argValue) comparator() (engine.Comparator, error) {
	if a.hasCmp {
		return a.cmp, a.cmpErr
	}
	return comparatorOf(a.v)
}

func (a *argValue) each(f func(*engine.Comparator) bool) error {
	if !a.hasCmps {
		return eachComparator(a.v, f)
	}
	if a.cmpsErr != nil {
		return a.cmpsErr
	}
	for i := range a.cmps {
		if !f(&a.cmps[i]) {
			break
		}
	}
	return nil
}

// arg is a parameter of this package's functions.
func arg(name string) function.Parameter {
	return function.Parameter{Name: name, Type: valueType, AllowMarked: true}
}

// friendly names a type for a message, with its article: "a string",
// "a version object", "an object".
func friendly(t cty.Type) string {
	switch {
	case t.Equals(versionType):
		return "a version object"
	case t.Equals(comparatorType):
		return "a comparator object"
	case t.Equals(constraintType):
		return "the constraint object"
	case t == cty.DynamicPseudoType:
		return "a value of no known type"
	}
	n := t.FriendlyName()
	if n != "" && strings.IndexByte("aeiou", n[0]) >= 0 {
		return "an " + n
	}
	return "a " + n
}

// isVersionType reports whether a value of type t can stand for a
// version: a version's text, or an object with a text attribute.
func isVersionType(t cty.Type) bool {
	switch {
	case t == cty.String, t == cty.DynamicPseudoType:
		return true
	case t.IsObjectType() && t.HasAttribute("text"):
		at := t.AttributeType("text")
		return at == cty.String || at == cty.DynamicPseudoType
	}
	return false
}

// isComparatorType reports whether a value of type t can stand for a
// comparator: a comparator's text, or an object with op and version
// attributes.
func isComparatorType(t cty.Type) bool {
	switch {
	case t == cty.String, t == cty.DynamicPseudoType:
		return true
	case t.IsObjectType():
		return t.HasAttribute("op") && t.HasAttribute("version")
	}
	return false
}

// isComparatorsType reports whether a value of type t can stand for a
// list of comparators: a constraint's text, the constraint object, or a
// list, set or tuple of comparators.
func isComparatorsType(t cty.Type) bool {
	switch {
	case t == cty.String, t == cty.DynamicPseudoType:
		return true
	case t.IsObjectType():
		return t.HasAttribute("comparators")
	case t.IsListType(), t.IsSetType():
		return isComparatorType(t.ElementType())
	case t.IsTupleType():
		for _, et := range t.TupleElementTypes() {
			if !isComparatorType(et) {
				return false
			}
		}
		return true
	}
	return false
}

// expectVersion, expectComparator and expectComparators check an
// argument's type before the call, so that a file that passes the wrong
// thing is refused when it is loaded.
func expectVersion(args []cty.Value, i int) error {
	a := unwrap(args[i])
	if a.hasVer && a.verErr == nil {
		return nil
	}
	if t := a.v.Type(); !isVersionType(t) {
		return function.NewArgErrorf(i, "expected a version (a version object such as version, or a version's text such as \"1.2.0-beta\"), got %s", friendly(t))
	}
	return nil
}

func expectComparator(args []cty.Value, i int) error {
	a := unwrap(args[i])
	if a.hasCmp && a.cmpErr == nil {
		return nil
	}
	if t := a.v.Type(); !isComparatorType(t) {
		return function.NewArgErrorf(i, "expected a comparator (an element of constraint.comparators or constraint.bounds, or a comparator's text such as \">= 1.2.0\"), got %s", friendly(t))
	}
	return nil
}

func expectComparators(args []cty.Value, i int) error {
	a := unwrap(args[i])
	if a.hasCmps && a.cmpsErr == nil {
		return nil
	}
	if t := a.v.Type(); !isComparatorsType(t) {
		return function.NewArgErrorf(i, "expected comparators (constraint, constraint.bounds, a list of comparators, or a constraint's text), got %s", friendly(t))
	}
	return nil
}

// versionOf reads a version argument: a version's text, or an object
// whose text attribute is one.
func versionOf(v cty.Value) (engine.Version, error) {
	if !v.IsKnown() {
		return engine.Version{}, errUnknown
	}
	if v.IsNull() {
		return engine.Version{}, errors.New("a version is null")
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return engine.ParseVersion(v.AsString())
	case t.IsObjectType() && t.HasAttribute("text"):
		return versionOf(v.GetAttr("text"))
	}
	return engine.Version{}, fmt.Errorf("expected a version, got %s", friendly(t))
}

// stringOf reads a known, non-null string.
func stringOf(v cty.Value, what string) (string, error) {
	switch {
	case !v.IsKnown():
		return "", errUnknown
	case v.IsNull():
		return "", fmt.Errorf("%s is null", what)
	case v.Type() != cty.String:
		return "", fmt.Errorf("%s must be a string, got %s", what, friendly(v.Type()))
	}
	return v.AsString(), nil
}

// comparatorOf reads a comparator argument: a comparator's text, or an
// object with op, version and optionally precision (1, 2 or 3; 3 when
// absent), which only "~>" reads.
func comparatorOf(v cty.Value) (engine.Comparator, error) {
	if !v.IsKnown() {
		return engine.Comparator{}, errUnknown
	}
	if v.IsNull() {
		return engine.Comparator{}, errors.New("a comparator is null")
	}
	t := v.Type()
	if t == cty.String {
		c, err := engine.ParseConstraint(v.AsString())
		if err != nil {
			return engine.Comparator{}, err
		}
		if c.Len() != 1 {
			return engine.Comparator{}, fmt.Errorf("expected one comparator, got %d in %q", c.Len(), v.AsString())
		}
		return c.Comparators()[0], nil
	}
	if !t.IsObjectType() || !t.HasAttribute("op") || !t.HasAttribute("version") {
		return engine.Comparator{}, fmt.Errorf("expected a comparator, got %s", friendly(t))
	}
	opText, err := stringOf(v.GetAttr("op"), "a comparator's op")
	if err != nil {
		return engine.Comparator{}, err
	}
	op, ok := opByText(opText)
	if !ok {
		return engine.Comparator{}, fmt.Errorf("unknown operator %q: expected one of = != > >= < <= ~>", opText)
	}
	ver, err := versionOf(v.GetAttr("version"))
	if err != nil {
		return engine.Comparator{}, err
	}
	cmp := engine.Comparator{Op: op, Version: ver, Precision: 3, Bare: opText == ""}
	if op == engine.OpPessimistic && t.HasAttribute("precision") {
		p, err := precisionOf(v.GetAttr("precision"))
		if err != nil {
			return engine.Comparator{}, err
		}
		cmp.Precision = p
	}
	return cmp, nil
}

// precisionOf reads a comparator's precision: 1, 2 or 3.
func precisionOf(v cty.Value) (int, error) {
	switch {
	case !v.IsKnown():
		return 0, errUnknown
	case v.IsNull():
		return 0, errors.New("a comparator's precision is null")
	case v.Type() != cty.Number:
		return 0, fmt.Errorf("a comparator's precision must be a number, got %s", friendly(v.Type()))
	}
	for i := 1; i <= 3; i++ {
		if v.RawEquals(smallNumbers[i]) {
			return i, nil
		}
	}
	f := v.AsBigFloat()
	if n, acc := f.Int64(); acc == big.Exact && n >= 1 && n <= 3 {
		return int(n), nil
	}
	return 0, fmt.Errorf("a comparator's precision must be 1, 2 or 3, got %s", f.Text('g', 10))
}

// eachComparator calls f with each comparator of a comparators argument
// until f returns false.
func eachComparator(v cty.Value, f func(*engine.Comparator) bool) error {
	if !v.IsKnown() {
		return errUnknown
	}
	if v.IsNull() {
		return errors.New("the comparators are null")
	}
	t := v.Type()
	switch {
	case t == cty.String:
		c, err := engine.ParseConstraint(v.AsString())
		if err != nil {
			return err
		}
		cs := c.Comparators()
		for i := range cs {
			if !f(&cs[i]) {
				return nil
			}
		}
		return nil
	case t.IsObjectType() && t.HasAttribute("comparators"):
		return eachComparator(v.GetAttr("comparators"), f)
	case t.IsListType(), t.IsSetType(), t.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			cmp, err := comparatorOf(e)
			if err != nil {
				return err
			}
			if !f(&cmp) {
				return nil
			}
		}
		return nil
	}
	return fmt.Errorf("expected comparators, got %s", friendly(t))
}

// result turns a function's outcome into its return value: unknown when
// an argument held an unknown value.
func result(v cty.Value, ret cty.Type, err error) (cty.Value, error) {
	if errors.Is(err, errUnknown) {
		return cty.UnknownVal(ret), nil
	}
	if err != nil {
		return cty.NilVal, err
	}
	return v, nil
}

// compareSpec and compareFunc are compare(a, b): -1, 0 or 1 as a has lower, equal or
// higher precedence than b.
var compareSpec = &function.Spec{
	Description: "Compares two versions by SemVer precedence: -1, 0 or 1.",
	Params:      []function.Parameter{arg("a"), arg("b")},
	Type: func(args []cty.Value) (cty.Type, error) {
		if err := expectVersion(args, 0); err != nil {
			return cty.NilType, err
		}
		return cty.Number, expectVersion(args, 1)
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		a, err := unwrap(args[0]).version()
		if err != nil {
			return result(cty.NilVal, ret, argErr(0, err))
		}
		b, err := unwrap(args[1]).version()
		if err != nil {
			return result(cty.NilVal, ret, argErr(1, err))
		}
		switch a.Compare(b) {
		case -1:
			return numMinusOne, nil
		case 1:
			return numOne, nil
		}
		return numZero, nil
	},
}

var compareFunc = function.New(compareSpec)

// argErr attaches err to argument i, unless it is errUnknown.
func argErr(i int, err error) error {
	if errors.Is(err, errUnknown) {
		return err
	}
	return function.NewArgError(i, err)
}

// holdsSpec and holdsFunc are holds(comparator, version): the comparator holds for the
// version by precedence alone.
var holdsSpec = &function.Spec{
	Description: "Reports whether a comparator holds for a version by SemVer precedence alone (~> as its range).",
	Params:      []function.Parameter{arg("comparator"), arg("version")},
	Type: func(args []cty.Value) (cty.Type, error) {
		if err := expectComparator(args, 0); err != nil {
			return cty.NilType, err
		}
		return cty.Bool, expectVersion(args, 1)
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		cmp, err := unwrap(args[0]).comparator()
		if err != nil {
			return result(cty.NilVal, ret, argErr(0, err))
		}
		v, err := unwrap(args[1]).version()
		if err != nil {
			return result(cty.NilVal, ret, argErr(1, err))
		}
		return cty.BoolVal(cmp.Holds(v)), nil
	},
}

var holdsFunc = function.New(holdsSpec)

// satisfiesSpec and satisfiesFunc are satisfies(comparators, version): every comparator
// holds by precedence, B(c, v).
var satisfiesSpec = &function.Spec{
	Description: "Reports whether every comparator holds for a version by SemVer precedence alone: B(c, v).",
	Params:      []function.Parameter{arg("comparators"), arg("version")},
	Type: func(args []cty.Value) (cty.Type, error) {
		if err := expectComparators(args, 0); err != nil {
			return cty.NilType, err
		}
		return cty.Bool, expectVersion(args, 1)
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		v, err := unwrap(args[1]).version()
		if err != nil {
			return result(cty.NilVal, ret, argErr(1, err))
		}
		all := true
		err = unwrap(args[0]).each(func(cmp *engine.Comparator) bool {
			all = cmp.Holds(v)
			return all
		})
		if err != nil {
			return result(cty.NilVal, ret, argErr(0, err))
		}
		return cty.BoolVal(all), nil
	},
}

var satisfiesFunc = function.New(satisfiesSpec)

// sameBaseSpec and sameBaseFunc are same_base(a, b): equal MAJOR.MINOR.PATCH.
var sameBaseSpec = &function.Spec{
	Description: "Reports whether two versions have the same MAJOR.MINOR.PATCH.",
	Params:      []function.Parameter{arg("a"), arg("b")},
	Type: func(args []cty.Value) (cty.Type, error) {
		if err := expectVersion(args, 0); err != nil {
			return cty.NilType, err
		}
		return cty.Bool, expectVersion(args, 1)
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		a, err := unwrap(args[0]).version()
		if err != nil {
			return result(cty.NilVal, ret, argErr(0, err))
		}
		b, err := unwrap(args[1]).version()
		if err != nil {
			return result(cty.NilVal, ret, argErr(1, err))
		}
		return cty.BoolVal(a.SameCore(b)), nil
	},
}

var sameBaseFunc = function.New(sameBaseSpec)

// parseVersionSpec and parseVersionFunc are parse_version(text): the
// version object of a version's text.
var parseVersionSpec = &function.Spec{
	Description: "Returns the version object of a version's text.",
	Params:      []function.Parameter{{Name: "text", Type: cty.String, AllowMarked: true}},
	Type:        function.StaticReturnType(versionType),
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		text := args[0].AsString()
		v, err := engine.ParseVersion(text)
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		return versionValue(v, text), nil
	},
}

var parseVersionFunc = function.New(parseVersionSpec)

// listArg is the list handed to alltrue or anytrue: in a capsule when
// HCL calls the function, as it is when a direct call does (see
// directCall).
func listArg(v cty.Value) cty.Value {
	if v.Type().Equals(valueType) {
		return unwrap(v).v
	}
	return v
}

// boolsSpec specifies alltrue and anytrue: whether every (or some)
// element of a list of bools is true. An empty list is all true and not
// any. The list is handed over in a capsule (see valueType), so that
// go-cty does not walk it before the call is charged for it.
func boolsSpec(want bool, desc string) *function.Spec {
	return &function.Spec{
		Description: desc,
		Params:      []function.Parameter{arg("list")},
		Type: func(args []cty.Value) (cty.Type, error) {
			a := listArg(args[0])
			if a.IsNull() {
				return cty.NilType, function.NewArgErrorf(0, "argument must not be null")
			}
			t := a.Type()
			switch {
			case t == cty.DynamicPseudoType:
			case t.IsListType() || t.IsSetType():
				if et := t.ElementType(); et != cty.Bool && et != cty.DynamicPseudoType {
					return cty.NilType, function.NewArgErrorf(0, "expected a list of bools, got %s", friendly(t))
				}
			case t.IsTupleType():
				for _, et := range t.TupleElementTypes() {
					if et != cty.Bool && et != cty.DynamicPseudoType {
						return cty.NilType, function.NewArgErrorf(0, "expected a list of bools, got %s", friendly(t))
					}
				}
			default:
				return cty.NilType, function.NewArgErrorf(0, "expected a list of bools, got %s", friendly(t))
			}
			return cty.Bool, nil
		},
		Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
			a := listArg(args[0])
			if !a.IsKnown() {
				return cty.UnknownVal(cty.Bool), nil
			}
			unknown := false
			for it := a.ElementIterator(); it.Next(); {
				_, e := it.Element()
				switch {
				case !e.IsKnown():
					unknown = true
					continue
				case e.IsNull():
					return cty.NilVal, function.NewArgErrorf(0, "an element is null")
				case e.Type() != cty.Bool:
					return cty.NilVal, function.NewArgErrorf(0, "expected a list of bools, an element is %s", friendly(e.Type()))
				}
				isTrue := e == cty.True // a known, unmarked bool holds a Go bool
				if e.IsMarked() {
					isTrue = e.True()
				}
				if isTrue == want {
					return cty.BoolVal(want), nil
				}
			}
			if unknown {
				return cty.UnknownVal(cty.Bool), nil
			}
			return cty.BoolVal(!want), nil
		},
	}
}

// ownFunctions are the functions of this package, by name.
var ownFunctions = map[string]function.Function{
	"compare":       compareFunc,
	"holds":         holdsFunc,
	"satisfies":     satisfiesFunc,
	"same_base":     sameBaseFunc,
	"parse_version": parseVersionFunc,
	"alltrue":       function.New(directSpecs["alltrue"]),
	"anytrue":       function.New(directSpecs["anytrue"]),
}

// directSpecs are the specifications of the functions a direct call
// calls without go-cty's Function.Call (see directCall), by name.
var directSpecs = map[string]*function.Spec{
	"compare":   compareSpec,
	"holds":     holdsSpec,
	"satisfies": satisfiesSpec,
	"same_base": sameBaseSpec,
	"alltrue":   boolsSpec(false, "Reports whether every element of a list of bools is true."),
	"anytrue":   boolsSpec(true, "Reports whether some element of a list of bools is true."),
}

// ownSpecs are the specifications of this package's functions, by name:
// an evaluation's function table has each with its budget's charge
// before it (see budgetedOwn).
var ownSpecs = func() map[string]*function.Spec {
	specs := map[string]*function.Spec{"parse_version": parseVersionSpec}
	for name, spec := range directSpecs {
		specs[name] = spec
	}
	return specs
}()

// functions is the whole function table an expression sees: this
// package's functions, go-cty's standard library under the names
// Terraform gives them, and try and can. It is built once.
var functions = func() map[string]function.Function {
	fs := map[string]function.Function{
		"abs":                    stdlib.AbsoluteFunc,
		"ceil":                   stdlib.CeilFunc,
		"chomp":                  stdlib.ChompFunc,
		"chunklist":              stdlib.ChunklistFunc,
		"coalesce":               stdlib.CoalesceFunc,
		"coalescelist":           stdlib.CoalesceListFunc,
		"compact":                stdlib.CompactFunc,
		"concat":                 stdlib.ConcatFunc,
		"contains":               stdlib.ContainsFunc,
		"distinct":               stdlib.DistinctFunc,
		"element":                stdlib.ElementFunc,
		"flatten":                stdlib.FlattenFunc,
		"floor":                  stdlib.FloorFunc,
		"format":                 stdlib.FormatFunc,
		"formatlist":             stdlib.FormatListFunc,
		"indent":                 stdlib.IndentFunc,
		"int":                    stdlib.IntFunc,
		"join":                   stdlib.JoinFunc,
		"jsondecode":             stdlib.JSONDecodeFunc,
		"jsonencode":             stdlib.JSONEncodeFunc,
		"keys":                   stdlib.KeysFunc,
		"length":                 stdlib.LengthFunc,
		"log":                    stdlib.LogFunc,
		"lookup":                 stdlib.LookupFunc,
		"lower":                  stdlib.LowerFunc,
		"max":                    stdlib.MaxFunc,
		"merge":                  stdlib.MergeFunc,
		"min":                    stdlib.MinFunc,
		"parseint":               stdlib.ParseIntFunc,
		"pow":                    stdlib.PowFunc,
		"range":                  stdlib.RangeFunc,
		"regex":                  regexFunc,
		"regexall":               regexAllFunc,
		"regex_replace":          regexReplaceFunc,
		"replace":                stdlib.ReplaceFunc,
		"reverse":                stdlib.ReverseListFunc,
		"setintersection":        stdlib.SetIntersectionFunc,
		"setproduct":             stdlib.SetProductFunc,
		"setsubtract":            stdlib.SetSubtractFunc,
		"setsymmetricdifference": stdlib.SetSymmetricDifferenceFunc,
		"setunion":               stdlib.SetUnionFunc,
		"signum":                 stdlib.SignumFunc,
		"slice":                  stdlib.SliceFunc,
		"sort":                   stdlib.SortFunc,
		"split":                  stdlib.SplitFunc,
		"strlen":                 stdlib.StrlenFunc,
		"strrev":                 stdlib.ReverseFunc,
		"substr":                 stdlib.SubstrFunc,
		"title":                  stdlib.TitleFunc,
		"tobool":                 stdlib.MakeToFunc(cty.Bool),
		"tolist":                 stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":                  stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":               stdlib.MakeToFunc(cty.Number),
		"toset":                  stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":               stdlib.MakeToFunc(cty.String),
		"trim":                   stdlib.TrimFunc,
		"trimprefix":             stdlib.TrimPrefixFunc,
		"trimspace":              stdlib.TrimSpaceFunc,
		"trimsuffix":             stdlib.TrimSuffixFunc,
		"upper":                  stdlib.UpperFunc,
		"values":                 stdlib.ValuesFunc,
		"zipmap":                 stdlib.ZipmapFunc,
		"try":                    tryfunc.TryFunc,
		"can":                    tryfunc.CanFunc,
	}
	for name, f := range ownFunctions {
		fs[name] = f
	}
	return fs
}()

// functionNames lists the function table's names in order, for
// suggestions.
var functionNames = func() []string {
	names := make([]string, 0, len(functions))
	for n := range functions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}()
