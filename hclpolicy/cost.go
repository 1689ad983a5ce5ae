package hclpolicy

import (
	"fmt"
	"math"
	"math/big"

	"github.com/zclconf/go-cty/cty"
)

// What a call of a standard library function costs before it runs.
//
// The budget charges a call for the result it gives (see cost), but
// go-cty does more work than its result shows in three ways, each
// charged here before the function runs, from its arguments:
//
//   - it walks every argument through and through (looking for marks and
//     unknown values, converting it to its parameter's type), so an
//     argument costs its size (argCost), however often the same value
//     is passed;
//   - it unifies the types of the elements of a tuple or the attributes
//     of an object it converts to a list, a set or a map, comparing each
//     type with every other (unifyCost), as do the functions that merge
//     their arguments' types (concat, merge, coalesce, the set functions);
//   - some functions do more than linear work: distinct compares each
//     element with every other, sort sorts, a set hashes its elements and
//     compares those whose hashes collide, a regular expression runs its
//     program over the string (see works), and again for each search
//     after a match (see searches).
//
// Each is an estimate in steps, checked against what is left of the
// budget before the function runs, so that no call runs long and fails
// only afterwards.

const (
	// nodesPerStep is how many values of an argument, walked through,
	// cost a step: go-cty makes a key for each element it walks.
	nodesPerStep = 2
	// comparisonsPerStep is how many type comparisons (unifying types)
	// or string comparisons (sorting) cost a step.
	comparisonsPerStep = 8
	// stepsPerEquality is what comparing two values for distinct, or two
	// elements whose set hashes collide, costs.
	stepsPerEquality = 2
	// digitsPerBit is log10(2): a number of binary exponent e has about
	// e*digitsPerBit decimal digits.
	digitsPerBit = 0.30103
)

// walker measures values and types, giving up once what it measured
// reaches limit: every measure is then at least limit, which the budget
// refuses, and the walk has cost no more than the budget allows.
type walker struct {
	limit float64
	// nodes counts the values (or types) walked; bytes the bytes of the
	// strings and of the numbers written out.
	nodes, bytes float64
	// noDigits leaves out the digits of the numbers: a walk that does
	// not write them out.
	noDigits bool
	// perNode is what a value walked costs, in steps; 0 stands for
	// 1/nodesPerStep.
	perNode float64
}

// over reports whether the walk has reached its limit.
func (w *walker) over() bool { return w.steps() >= w.limit }

// steps is what the walk measured, in steps.
func (w *walker) steps() float64 {
	per := w.perNode
	if per == 0 {
		per = 1.0 / nodesPerStep
	}
	return w.nodes*per + w.bytes/bytesPerStep
}

// value walks v.
func (w *walker) value(v cty.Value) {
	w.nodes++
	if w.over() || !v.IsKnown() || v.IsNull() {
		return
	}
	v, _ = v.Unmark()
	t := v.Type()
	switch {
	case t == cty.String:
		w.bytes += float64(len(v.AsString()))
	case t == cty.Number:
		if !w.noDigits {
			w.bytes += numberBytes(v.AsBigFloat())
		}
	case t.IsPrimitiveType() || t.IsCapsuleType():
	case v.CanIterateElements():
		isMap := t.IsMapType() || t.IsObjectType()
		for it := v.ElementIterator(); it.Next() && !w.over(); {
			k, e := it.Element()
			if isMap {
				w.bytes += float64(len(k.AsString()))
			}
			w.value(e)
		}
	}
}

// numberDigits is about how many bytes a number takes written out in
// full, as converting it to a string writes it: a number with a huge
// exponent (1e100000000, from jsondecode, tonumber or multiplying) is
// that many digits.
func numberDigits(f *big.Float) int {
	if f.IsInf() {
		return 4
	}
	exp := f.MantExp(nil)
	return 24 + int(math.Abs(float64(exp))*digitsPerBit)
}

// numberBytes is what writing a number out costs, in bytes of a string
// (see bytesPerStep): its digits, and more than linearly for a long one,
// since math/big divides the number by powers of ten (about 35 ns a digit
// up to a few thousand digits, 110 ns at ten thousand, 640 ns at a
// hundred thousand).
func numberBytes(f *big.Float) float64 {
	d := float64(numberDigits(f))
	return d + d*d/digitsSquaredPerByte
}

// digitsSquaredPerByte scales the part of numberBytes that grows with the
// square of the digits.
const digitsSquaredPerByte = 2048

// argCost is what an argument v of a standard library function costs,
// in steps, when its parameter has type param: its size, and unifying
// the types of its tuples and objects when it is converted to a
// collection of any type. It stops at limit.
func argCost(v cty.Value, param cty.Type, limit float64) float64 {
	w := walker{limit: limit}
	w.value(v)
	n := w.steps()
	if n < limit && v.IsKnown() && convertsToAny(param) {
		n += unifyCost(v.Type(), limit-n)
	}
	return n
}

// convertsToAny reports whether converting a value to t unifies the
// types of its elements: t is a list, set or map of any type.
func convertsToAny(t cty.Type) bool {
	return (t.IsListType() || t.IsSetType() || t.IsMapType()) && t.ElementType() == cty.DynamicPseudoType
}

// unifyCost is what unifying the element types of every tuple and the
// attribute types of every object in t costs, in steps: go-cty compares
// each element's type with every other's, each comparison walking the
// types. It stops at limit.
func unifyCost(t cty.Type, limit float64) float64 {
	u := typeWalker{limit: limit * comparisonsPerStep}
	u.walk(t)
	return u.comparisons / comparisonsPerStep
}

// typeWalker measures a type for unifyCost.
type typeWalker struct {
	limit       float64
	comparisons float64
}

// walk returns the size of t (its type nodes), adding to comparisons
// what unifying each tuple's and object's element types costs: the
// number of elements times the size of them all.
func (u *typeWalker) walk(t cty.Type) float64 {
	if u.comparisons >= u.limit {
		return 1
	}
	var elems []cty.Type
	switch {
	case t.IsTupleType():
		elems = t.TupleElementTypes()
	case t.IsObjectType():
		for _, at := range t.AttributeTypes() {
			elems = append(elems, at)
		}
	case t.IsListType(), t.IsSetType(), t.IsMapType():
		return 1 + u.walk(t.ElementType())
	default:
		return 1
	}
	size := 1.0
	for _, et := range elems {
		if u.comparisons >= u.limit {
			break
		}
		size += u.walk(et)
	}
	u.comparisons += float64(len(elems)) * size / 2
	return size
}

// elementCount is the number of elements of a known collection, tuple
// or object, or 0.
func elementCount(v cty.Value) int {
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() {
		return 0
	}
	return v.LengthInt()
}

// work says what a call of a standard library function will cost besides
// its arguments and its result, in steps, with what the work is for the
// message when it is too much, or why the call is refused whatever its
// cost. Its arguments are known; it stops at limit.
type work func(args []cty.Value, limit float64) (steps float64, what, refused string)

// works are the functions whose work is more than their arguments' and
// their result's size, by name.
var works = map[string]work{
	"distinct": func(args []cty.Value, limit float64) (float64, string, string) {
		n := float64(elementCount(args[0]))
		each := 1 + argCost(args[0], cty.DynamicPseudoType, limit)/math.Max(n, 1)
		return n * (n - 1) / 2 * stepsPerEquality * each, fmt.Sprintf("comparing each pair of its %d elements", int(n)), ""
	},
	"sort": func(args []cty.Value, limit float64) (float64, string, string) {
		n := float64(elementCount(args[0]))
		each := 1 + argCost(args[0], cty.DynamicPseudoType, limit)/math.Max(n, 1)
		return n * math.Log2(n+1) * each / comparisonsPerStep, fmt.Sprintf("sorting its %d elements", int(n)), ""
	},
	"tolist":                 conversionWork,
	"toset":                  conversionWork,
	"tomap":                  conversionWork,
	"tostring":               conversionWork,
	"tonumber":               conversionWork,
	"tobool":                 conversionWork,
	"concat":                 unifyingWork,
	"merge":                  unifyingWork,
	"coalesce":               unifyingWork,
	"coalescelist":           unifyingWork,
	"setproduct":             unifyingWork,
	"setunion":               setWork,
	"setintersection":        setWork,
	"setsubtract":            setWork,
	"setsymmetricdifference": setWork,
	"jsondecode": func(args []cty.Value, _ float64) (float64, string, string) {
		// go-cty reads the text twice, once for its type and once for
		// its value, and makes a value for each element and attribute:
		// about one for each comma, colon and opening bracket.
		text := args[0].AsString()
		values := 0
		for i := 0; i < len(text); i++ {
			switch text[i] {
			case ',', ':', '[', '{':
				values++
			}
		}
		return 2*float64(len(text))/bytesPerStep + float64(values), "decoding its text", ""
	},
	"regex":         regexWork(0, 1),
	"regexall":      regexWork(0, 1),
	"regex_replace": regexWork(1, 0),
}

// conversionWork is the work of tolist, toset, tomap and the other
// conversions: go-cty unifies the types of the value's elements once to
// check the call and once to convert, and a set hashes its elements.
func conversionWork(args []cty.Value, limit float64) (float64, string, string) {
	n := 2 * unifyCost(args[0].Type(), limit/2)
	n += collisionCost(limit-n, args[0])
	return n, "converting " + describeSize(args[0]), ""
}

// unifyingWork is the work of the functions that unify the types of all
// their arguments and of their elements: concat, merge, coalesce,
// coalescelist, setproduct.
func unifyingWork(args []cty.Value, limit float64) (float64, string, string) {
	types := make([]cty.Type, len(args))
	for i, a := range args {
		types[i] = a.Type()
	}
	return 2 * unifyCost(cty.Tuple(types), limit/2), fmt.Sprintf("unifying the types of its %d arguments and their elements", len(args)), ""
}

// setWork is the work of the set functions: unifying their arguments'
// types, and hashing the elements into sets.
func setWork(args []cty.Value, limit float64) (float64, string, string) {
	n, _, _ := unifyingWork(args, limit)
	n += collisionCost(limit-n, args...)
	return n, fmt.Sprintf("building sets of the elements of its %d arguments", len(args)), ""
}

// collisionCost is what putting the elements of collections into sets
// costs beyond hashing them: go-cty compares each element with the
// others of the same hash, so elements crafted to collide cost the
// square of their number.
func collisionCost(limit float64, colls ...cty.Value) float64 {
	buckets := map[int]float64{}
	n := 0.0
	for _, c := range colls {
		if !c.IsWhollyKnown() || c.IsNull() || c.ContainsMarked() {
			continue
		}
		t := c.Type()
		if !(t.IsListType() || t.IsSetType() || t.IsTupleType()) {
			continue
		}
		for it := c.ElementIterator(); it.Next() && n < limit; {
			_, e := it.Element()
			h := e.Hash()
			n += buckets[h] * stepsPerEquality
			buckets[h]++
		}
	}
	return n
}

// describeSize says how large a value is, for a message.
func describeSize(v cty.Value) string {
	t := v.Type()
	switch {
	case t.IsObjectType():
		return fmt.Sprintf("an object of %d attributes", len(t.AttributeTypes()))
	case t.IsTupleType():
		return fmt.Sprintf("a tuple of %d elements", len(t.TupleElementTypes()))
	case v.CanIterateElements() && v.IsKnown() && !v.IsNull():
		return fmt.Sprintf("%s of %d elements", friendly(t), v.LengthInt())
	}
	return friendly(t)
}

// What a call of one of this package's own functions costs.
//
// compare, holds, satisfies and same_base parse the versions and the
// comparators they are handed, unless the specializer read them once
// already (see predecoded); alltrue and anytrue look at each element of
// their list; parse_version parses its text. A value passed many times
// (one list of a thousand comparators handed to satisfies in each
// element of a for expression) is read each time, so each call is
// charged for what it reads, before it runs.

// reading measures what a call of one of this package's functions reads,
// stopping at limit steps.
type reading struct {
	limit float64
	// values counts the comparators and the elements read, bytes the
	// bytes of text parsed.
	values, bytes float64
}

// steps is what the reading costs: a step for the call, one for each two
// values, and one for each 16 bytes of text.
func (r *reading) steps() float64 { return 1 + r.values/nodesPerStep + r.bytes/bytesPerStep }

// text adds the text a version or a comparator is parsed from.
func (r *reading) text(v cty.Value) {
	if v.IsKnown() && !v.IsNull() && !v.IsMarked() && v.Type() == cty.String {
		r.bytes += float64(len(v.AsString()))
	}
}

// version adds reading a version: its text, or the text attribute of an
// object.
func (r *reading) version(v cty.Value) {
	if !v.IsKnown() || v.IsNull() || v.IsMarked() {
		return
	}
	if t := v.Type(); t.IsObjectType() && t.HasAttribute("text") {
		v = v.GetAttr("text")
	}
	r.text(v)
}

// comparator adds reading a comparator: its text, or its op and its
// version.
func (r *reading) comparator(v cty.Value) {
	r.values++
	if !v.IsKnown() || v.IsNull() || v.IsMarked() {
		return
	}
	if t := v.Type(); t.IsObjectType() && t.HasAttribute("op") && t.HasAttribute("version") {
		r.text(v.GetAttr("op"))
		r.version(v.GetAttr("version"))
		return
	}
	r.text(v)
}

// comparators adds reading comparators: a constraint's text, the
// comparators attribute of an object, or each element of a collection.
func (r *reading) comparators(v cty.Value) {
	if !v.IsKnown() || v.IsNull() || v.IsMarked() {
		return
	}
	t := v.Type()
	switch {
	case t.IsObjectType() && t.HasAttribute("comparators"):
		r.comparators(v.GetAttr("comparators"))
	case t.IsListType(), t.IsSetType(), t.IsTupleType():
		for it := v.ElementIterator(); it.Next() && r.steps() < r.limit; {
			_, e := it.Element()
			r.comparator(e)
		}
	default:
		r.text(v)
	}
}

// arg adds reading the argument a as kind says, unless it was read once
// already: its comparators are then only looked at.
func (r *reading) arg(a *argValue, kind argKind) {
	switch {
	case kind == asVersion && a.hasVer, kind == asComparator && a.hasCmp:
	case kind == asComparators && a.hasCmps:
		r.values += float64(len(a.cmps))
	case kind == asVersion:
		r.version(a.v)
	case kind == asComparator:
		r.comparator(a.v)
	default:
		r.comparators(a.v)
	}
}

// ownReading measures what calling this package's function oc with args
// reads, stopping at limit.
func ownReading(oc *ownCall, args []cty.Value, limit float64) reading {
	r := reading{limit: limit}
	switch oc.name {
	case "alltrue", "anytrue":
		if a := listArg(args[0]); a.IsKnown() && !a.IsNull() && a.CanIterateElements() {
			r.values = float64(a.LengthInt())
		}
	case "parse_version":
		r.text(args[0])
	default:
		for i, kind := range oc.kinds {
			if i < len(args) {
				r.arg(unwrap(args[i]), kind)
			}
		}
	}
	return r
}

// describe says what a reading read, for a message.
func (r *reading) describe(name string) string {
	switch {
	case name == "alltrue" || name == "anytrue":
		return fmt.Sprintf("looking at its %.0f elements", r.values)
	case r.values > 0:
		return fmt.Sprintf("reading %.0f comparators and %.0f bytes of text", r.values, r.bytes)
	}
	return fmt.Sprintf("reading %.0f bytes of text", r.bytes)
}

// What HCL's operators, conditionals, keys and indexes cost.
//
// HCL converts an operand to its operator's type, a key to a string, an
// index to a number or a string, and a conditional's results to one type;
// == and != walk both values (go-cty looks for marks in each, more than
// once) and compare them. None of these is a function call a policy
// makes, but each may be handed a large value (one list referred to in
// each element of a for expression) or one that is expensive to convert
// (a number with a huge exponent is that many digits written out). guard
// wraps each such operand in a call that charges what its conversion
// costs (see site.conv).

// conversion is what HCL does with an operand, a key, an index or a
// conditional's result.
type conversion uint8

const (
	noConversion conversion = iota
	// toNumber: arithmetic, <, >, <=, >= and unary -; a string is parsed.
	toNumber
	// toString: an object's key; a number is written out.
	toString
	// toIndex: an index; a number is written out (the key of a map), a
	// string parsed (the index of a list).
	toIndex
	// toCompare: == and !=; the value is walked and compared.
	toCompare
	// toUnify: a conditional's result; its types are unified with the
	// other result's, and it is converted.
	toUnify
)

// equalityWalks is how many times == and != walk each operand: go-cty
// looks for marks in it three times (twice before the call, once in the
// comparison), and the comparison walks it.
const equalityWalks = 4

// conversionCost is what conversion c of the value v costs, in steps: a
// step for each 16 bytes of a string parsed or of a number written out;
// for == and != a step for each two values inside v (v itself aside) for
// each walk, and a step for each 16 bytes of its strings; for a
// conditional's result, v's size and unifying its types. It stops at
// limit.
func conversionCost(v cty.Value, c conversion, limit float64) float64 {
	if !v.IsKnown() || v.IsNull() {
		return 0
	}
	v, _ = v.Unmark()
	t := v.Type()
	switch c {
	case toNumber:
		if t == cty.String {
			return float64(len(v.AsString())) / bytesPerStep
		}
	case toString:
		if t == cty.Number {
			return numberBytes(v.AsBigFloat()) / bytesPerStep
		}
	case toIndex:
		switch t {
		case cty.Number:
			return numberBytes(v.AsBigFloat()) / bytesPerStep
		case cty.String:
			return float64(len(v.AsString())) / bytesPerStep
		}
	case toCompare:
		// Each value inside v is walked equalityWalks times, each string
		// compared once; v itself aside, so that a primitive costs only
		// its bytes. A walk that reaches its limit still costs limit.
		const root = equalityWalks / nodesPerStep
		w := walker{limit: limit + root, noDigits: true, perNode: root}
		w.value(v)
		return w.steps() - root
	case toUnify:
		return argCost(v, cty.List(cty.DynamicPseudoType), limit)
	}
	return 0
}
