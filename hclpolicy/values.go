package hclpolicy

import (
	"strconv"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/engine"
)

// The types of the values an expression sees. They are fixed, so that a
// file is checked against them when it is loaded.
var (
	// versionType is the type of the version variable and of every
	// comparator's version.
	versionType = cty.Object(map[string]cty.Type{
		"text":            cty.String,
		"major":           cty.Number,
		"minor":           cty.Number,
		"patch":           cty.Number,
		"prerelease":      cty.List(cty.String),
		"prerelease_text": cty.String,
		"is_prerelease":   cty.Bool,
		"build":           cty.String,
		"ga":              cty.String,
	})

	// comparatorType is the type of every element of constraint.comparators
	// and constraint.bounds.
	comparatorType = cty.Object(map[string]cty.Type{
		"text":                    cty.String,
		"op":                      cty.String,
		"bare":                    cty.Bool,
		"version":                 versionType,
		"names_prerelease":        cty.Bool,
		"precision":               cty.Number,
		"bound":                   cty.String,
		"source":                  cty.String,
		"source_op":               cty.String,
		"source_names_prerelease": cty.Bool,
	})

	// constraintType is the type of the constraint variable.
	constraintType = cty.Object(map[string]cty.Type{
		"text":             cty.String,
		"comparators":      cty.List(comparatorType),
		"bounds":           cty.List(comparatorType),
		"names_prerelease": cty.Bool,
	})
)

// Small numbers, made once: a cty number holds a big.Float.
var smallNumbers = func() []cty.Value {
	out := make([]cty.Value, 4)
	for i := range out {
		out[i] = cty.NumberIntVal(int64(i))
	}
	return out
}()

var (
	numMinusOne = cty.NumberIntVal(-1)
	numZero     = smallNumbers[0]
	numOne      = smallNumbers[1]
)

// numberOf returns n as a cty number, shared for the small ones.
func numberOf(n uint64) cty.Value {
	if n < uint64(len(smallNumbers)) {
		return smallNumbers[n]
	}
	return cty.NumberUIntVal(n)
}

// versionValue returns the version object of v, as written in text.
func versionValue(v engine.Version, text string) cty.Value {
	pre := cty.ListValEmpty(cty.String)
	if v.IsPrerelease() {
		ids := splitDots(v.Prerelease())
		vals := make([]cty.Value, len(ids))
		for i, id := range ids {
			vals[i] = cty.StringVal(id)
		}
		pre = cty.ListVal(vals)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"text":            cty.StringVal(text),
		"major":           numberOf(v.Major()),
		"minor":           numberOf(v.Minor()),
		"patch":           numberOf(v.Patch()),
		"prerelease":      pre,
		"prerelease_text": cty.StringVal(v.Prerelease()),
		"is_prerelease":   cty.BoolVal(v.IsPrerelease()),
		"build":           cty.StringVal(v.Build()),
		"ga":              cty.StringVal(v.Core().String()),
	})
}

// splitDots splits a prerelease into its identifiers.
func splitDots(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// comparatorValue returns the comparator object of cmp as written.
func comparatorValue(cmp engine.Comparator) cty.Value {
	text := cmp.String()
	return cty.ObjectVal(map[string]cty.Value{
		"text":                    cty.StringVal(text),
		"op":                      cty.StringVal(cmp.Op.String()),
		"bare":                    cty.BoolVal(cmp.Bare),
		"version":                 versionValue(cmp.Version, cmp.Version.String()),
		"names_prerelease":        cty.BoolVal(cmp.NamesPrerelease()),
		"precision":               numberOf(uint64(cmp.Precision)),
		"bound":                   cty.StringVal(""),
		"source":                  cty.StringVal(text),
		"source_op":               cty.StringVal(cmp.Op.String()),
		"source_names_prerelease": cty.BoolVal(cmp.NamesPrerelease()),
	})
}

// boundValue returns one bound of the "~>" comparator src: op and v, and
// which bound it is ("lower" or "upper").
func boundValue(src engine.Comparator, op engine.Op, v engine.Version, which string) cty.Value {
	text := op.String() + " " + v.String()
	return cty.ObjectVal(map[string]cty.Value{
		"text":                    cty.StringVal(text),
		"op":                      cty.StringVal(op.String()),
		"bare":                    cty.False,
		"version":                 versionValue(v, v.String()),
		"names_prerelease":        cty.BoolVal(v.IsPrerelease()),
		"precision":               numberOf(uint64(src.Precision)),
		"bound":                   cty.StringVal(which),
		"source":                  cty.StringVal(src.String()),
		"source_op":               cty.StringVal(src.Op.String()),
		"source_names_prerelease": cty.BoolVal(src.NamesPrerelease()),
	})
}

// constraintValue returns the constraint object of c.
func constraintValue(c engine.Constraint) cty.Value {
	cs := c.Comparators()
	comparators := make([]cty.Value, 0, len(cs))
	bounds := make([]cty.Value, 0, len(cs)+1)
	for _, cmp := range cs {
		parts := comparatorParts(cmp)
		comparators = append(comparators, parts.written)
		bounds = append(bounds, parts.bounds...)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"text":             cty.StringVal(c.Text()),
		"comparators":      listOf(comparators),
		"bounds":           listOf(bounds),
		"names_prerelease": cty.BoolVal(c.NamesPrerelease()),
	})
}

// comparatorValues are a comparator's object and its bounds.
type comparatorValues struct {
	written cty.Value
	bounds  []cty.Value
}

// comparatorCache keeps the objects of the comparators met, shared by
// every policy: a comparator's text (Comparator.String, which keeps the
// operator as written, the precision, the "v" and the build) determines
// them. It holds at most maxCachedComparators and starts again when full.
var comparatorCache struct {
	mu sync.RWMutex
	m  map[string]comparatorValues
}

// maxCachedComparators bounds comparatorCache.
const maxCachedComparators = 4096

// comparatorParts returns the objects of cmp as written and of its bounds.
func comparatorParts(cmp engine.Comparator) comparatorValues {
	key := cmp.String()
	comparatorCache.mu.RLock()
	v, ok := comparatorCache.m[key]
	comparatorCache.mu.RUnlock()
	if ok {
		return v
	}
	v.written = comparatorValue(cmp)
	if cmp.Op != engine.OpPessimistic {
		v.bounds = []cty.Value{v.written}
	} else {
		v.bounds = []cty.Value{boundValue(cmp, engine.OpGreaterEqual, cmp.Version, "lower")}
		if upper, ok := cmp.Upper(); ok {
			v.bounds = append(v.bounds, boundValue(cmp, engine.OpLess, upper, "upper"))
		}
	}
	comparatorCache.mu.Lock()
	if comparatorCache.m == nil || len(comparatorCache.m) >= maxCachedComparators {
		comparatorCache.m = make(map[string]comparatorValues, 64)
	}
	comparatorCache.m[key] = v
	comparatorCache.mu.Unlock()
	return v
}

// constraintCache keeps the constraint objects built, shared by every
// policy, by the constraint's text as given to Compile, which the engine's
// parser reads the same way every time. It holds at most
// maxCachedComparators of texts of at most maxCachedConstraint bytes and
// starts again when full. A value is immutable, so it is shared.
var constraintCache struct {
	mu sync.RWMutex
	m  map[string]cty.Value
}

// constraintValueOf returns constraintValue(c) for c parsed from text.
func constraintValueOf(text string, c engine.Constraint) cty.Value {
	constraintCache.mu.RLock()
	v, ok := constraintCache.m[text]
	constraintCache.mu.RUnlock()
	if ok {
		return v
	}
	v = constraintValue(c)
	if len(text) > maxCachedConstraint {
		return v
	}
	constraintCache.mu.Lock()
	if constraintCache.m == nil || len(constraintCache.m) >= maxCachedComparators {
		constraintCache.m = make(map[string]cty.Value, 64)
	}
	constraintCache.m[text] = v
	constraintCache.mu.Unlock()
	return v
}

// listOf returns a list of comparator objects, empty or not.
func listOf(vals []cty.Value) cty.Value {
	if len(vals) == 0 {
		return cty.ListValEmpty(comparatorType)
	}
	return cty.ListVal(vals)
}

// Values for checking a file when it is loaded: every variable unknown,
// with its type, and a few concrete pairs that reach every part of an
// expression (comparators of several operators, a "~>" with both bounds,
// a prerelease version and a release).
var (
	unknownVersion    = cty.UnknownVal(versionType)
	unknownConstraint = cty.UnknownVal(constraintType)
	samplePairs       = [][2]string{
		{"~> 1.2.3-beta.1, != 1.5.0, >= 1.0", "1.2.4-rc.1"},
		{">= 1.0.0, < 2.0.0-rc.1, = 1.5", "2.0.0"},
		{"~> 1, <= 3.0.0-0, > 0.1.0-alpha", "v1.5.0-beta.2+build.7"},
	}
)

// versionCache maps version texts to their version objects, for the
// matchers of one policy. It holds at most maxCachedVersions; when full it
// starts again, so that a long stream of distinct versions costs bounded
// memory.
type versionCache struct {
	mu sync.RWMutex
	m  map[string]cachedVersion
}

// cachedVersion is a version's object, the same version read once as an
// argument of this package's functions, and the values of the parts of
// the policy's expression that read only the version (ok when none
// failed).
type cachedVersion struct {
	obj, arg cty.Value
	parts    []cty.Value
	partsOK  bool
	// over is the exceeded budget of a part, whose value is then
	// unknown (see plan.partValues).
	over *hcl.Diagnostic
}

// maxCachedVersions bounds a policy's version cache.
const maxCachedVersions = 4096

// get returns the version object of text, building and caching it on the
// first request. The error is the engine parser's.
func (c *versionCache) get(text string, pl *plan) (cachedVersion, error) {
	c.mu.RLock()
	v, ok := c.m[text]
	c.mu.RUnlock()
	if ok {
		return v, nil
	}
	parsed, err := engine.ParseVersion(text)
	if err != nil {
		return cachedVersion{}, err
	}
	obj := versionValue(parsed, text)
	v = cachedVersion{obj: obj, arg: predecoded(obj, asVersion)}
	if pl != nil {
		v.parts, v.partsOK, v.over = pl.partValues(obj)
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedVersions {
		c.m = make(map[string]cachedVersion, 64)
	}
	c.m[text] = v
	c.mu.Unlock()
	return v, nil
}

// opByText maps an operator as written to the engine's.
func opByText(s string) (engine.Op, bool) {
	switch s {
	case "=", "":
		return engine.OpEqual, true
	case "!=":
		return engine.OpNotEqual, true
	case ">":
		return engine.OpGreater, true
	case ">=":
		return engine.OpGreaterEqual, true
	case "<":
		return engine.OpLess, true
	case "<=":
		return engine.OpLessEqual, true
	case "~>":
		return engine.OpPessimistic, true
	}
	return 0, false
}

// quote quotes s as HCL writes a string.
func quote(s string) string { return strconv.Quote(s) }
