package hclpolicy

import (
	"errors"
	"fmt"
	"regexp"
	resyntax "regexp/syntax"
	"sync"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Regular expressions.
//
// go-cty's regex, regexall and regex_replace compile their pattern on
// every call (regex and regexall twice: once for the type of their
// result), and a pattern the policy builds may be long: a pattern of a
// few hundred kilobytes of Unicode classes takes Go's compiler seconds
// and hundreds of megabytes. The functions below are go-cty's, with the
// same results and errors, except that a pattern longer than
// MaxPatternBytes is refused before it is compiled, what compiling it and
// running it over the string cost is charged first (see regexWork), and
// compiled patterns are kept in a bounded cache shared by every
// evaluation.

const (
	// maxCachedPatterns bounds the compiled patterns kept; when it is
	// full, the cache is emptied.
	maxCachedPatterns = 256
	// instructionsPerStep is how many instructions of a compiled pattern
	// cost a step to compile, and how many pairs of an instruction and a
	// byte of the string cost a step to run.
	instructionsPerStep = 16
)

// compiledPattern is a pattern as the cache keeps it.
type compiledPattern struct {
	re  *regexp.Regexp
	err error
}

// patterns is the cache of compiled patterns.
var patterns struct {
	mu sync.Mutex
	m  map[string]compiledPattern
}

// compilePattern is regexp.Compile, through the cache.
func compilePattern(pattern string) (*regexp.Regexp, error) {
	patterns.mu.Lock()
	c, ok := patterns.m[pattern]
	patterns.mu.Unlock()
	if ok {
		return c.re, c.err
	}
	re, err := regexp.Compile(pattern)
	patterns.mu.Lock()
	if patterns.m == nil || len(patterns.m) >= maxCachedPatterns {
		patterns.m = make(map[string]compiledPattern, maxCachedPatterns)
	}
	patterns.m[pattern] = compiledPattern{re, err}
	patterns.mu.Unlock()
	return re, err
}

// regexWork is the work of a function that applies the pattern, its
// argument p, to the string, its argument s: a pattern longer than
// MaxPatternBytes is refused; otherwise compiling the pattern costs its
// program's size, and running it that size for each byte of the string.
func regexWork(p, s int) work {
	return func(args []cty.Value, _ float64) (float64, string, string) {
		pattern := args[p].AsString()
		if len(pattern) > MaxPatternBytes {
			return 0, "", fmt.Sprintf("the pattern is %d bytes long, more than the %d a pattern may be", len(pattern), MaxPatternBytes)
		}
		re, err := resyntax.Parse(pattern, resyntax.Perl)
		if err != nil {
			return 0, "", "" // the call fails as go-cty's does
		}
		size := programSize(re)
		n := float64(len(args[s].AsString()))
		return size * (n + 2) / instructionsPerStep,
			fmt.Sprintf("running a pattern of about %.0f instructions over %d bytes", size, int(n)), ""
	}
}

// programSize estimates the instructions of the program Go compiles a
// parsed pattern into: a repetition repeats its operand, a character
// class counts its ranges (matching and compiling it walks them).
func programSize(re *resyntax.Regexp) float64 {
	switch re.Op {
	case resyntax.OpLiteral:
		return float64(len(re.Rune))
	case resyntax.OpCharClass:
		return 1 + float64(len(re.Rune))/16
	case resyntax.OpCapture, resyntax.OpStar, resyntax.OpPlus, resyntax.OpQuest:
		return 2 + programSize(re.Sub[0])
	case resyntax.OpRepeat:
		n := re.Max
		if n < re.Min {
			n = re.Min + 1
		}
		return 1 + float64(max(n, 1))*programSize(re.Sub[0])
	case resyntax.OpConcat, resyntax.OpAlternate:
		n := 1.0
		for _, sub := range re.Sub {
			n += 1 + programSize(sub)
		}
		return n
	}
	return 1
}

// refineNonNull refines a result as not null, as go-cty's functions do.
func refineNonNull(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() }

// regexFunc is go-cty's stdlib.RegexFunc, compiling through the cache.
var regexFunc = function.New(&function.Spec{
	Description: `Applies the given regular expression pattern to the given string and returns information about a single match, or raises an error if there is no match.`,
	Params: []function.Parameter{
		{Name: "pattern", Type: cty.String},
		{Name: "string", Type: cty.String},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if !args[0].IsKnown() {
			return cty.DynamicPseudoType, nil
		}
		retTy, err := regexPatternResultType(args[0].AsString())
		if err != nil {
			err = function.NewArgError(0, err)
		}
		return retTy, err
	},
	RefineResult: refineNonNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if retType == cty.DynamicPseudoType {
			return cty.DynamicVal, nil
		}
		re, err := compilePattern(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "error parsing pattern: %s", err)
		}
		str := args[1].AsString()
		captureIdxs := re.FindStringSubmatchIndex(str)
		if captureIdxs == nil {
			return cty.NilVal, fmt.Errorf("pattern did not match any part of the given string")
		}
		return regexPatternResult(re, str, captureIdxs, retType), nil
	},
})

// regexAllFunc is go-cty's stdlib.RegexAllFunc, compiling through the
// cache.
var regexAllFunc = function.New(&function.Spec{
	Description: `Applies the given regular expression pattern to the given string and returns a list of information about all non-overlapping matches, or an empty list if there are no matches.`,
	Params: []function.Parameter{
		{Name: "pattern", Type: cty.String},
		{Name: "string", Type: cty.String},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if !args[0].IsKnown() {
			return cty.List(cty.DynamicPseudoType), nil
		}
		retTy, err := regexPatternResultType(args[0].AsString())
		if err != nil {
			err = function.NewArgError(0, err)
		}
		return cty.List(retTy), err
	},
	RefineResult: refineNonNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		ety := retType.ElementType()
		if ety == cty.DynamicPseudoType {
			return cty.DynamicVal, nil
		}
		re, err := compilePattern(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "error parsing pattern: %s", err)
		}
		str := args[1].AsString()
		captureIdxsEach := re.FindAllStringSubmatchIndex(str, -1)
		if len(captureIdxsEach) == 0 {
			return cty.ListValEmpty(ety), nil
		}
		elems := make([]cty.Value, len(captureIdxsEach))
		for i, captureIdxs := range captureIdxsEach {
			elems[i] = regexPatternResult(re, str, captureIdxs, ety)
		}
		return cty.ListVal(elems), nil
	},
})

// regexReplaceFunc is go-cty's stdlib.RegexReplaceFunc, compiling
// through the cache.
var regexReplaceFunc = function.New(&function.Spec{
	Description: `Applies the given regular expression pattern to the given string and replaces all matches with the given replacement string.`,
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "pattern", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNonNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		re, err := compilePattern(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(re.ReplaceAllString(args[0].AsString(), args[2].AsString())), nil
	},
})

// regexPatternResultType is go-cty's: the type of a match of pattern.
func regexPatternResultType(pattern string) (cty.Type, error) {
	re, rawErr := compilePattern(pattern)
	var serr *resyntax.Error
	switch {
	case errors.As(rawErr, &serr):
		return cty.NilType, fmt.Errorf("invalid regexp pattern: %s in %s", serr.Code, serr.Expr)
	case rawErr != nil:
		return cty.NilType, fmt.Errorf("error parsing pattern: %s", rawErr)
	}
	allNames := re.SubexpNames()[1:]
	var names []string
	unnamed := 0
	for _, name := range allNames {
		if name == "" {
			unnamed++
		} else {
			names = append(names, name)
		}
	}
	switch {
	case unnamed == 0 && len(names) == 0:
		return cty.String, nil
	case unnamed > 0 && len(names) > 0:
		return cty.NilType, fmt.Errorf("invalid regexp pattern: cannot mix both named and unnamed capture groups")
	case unnamed > 0:
		etys := make([]cty.Type, unnamed)
		for i := range etys {
			etys[i] = cty.String
		}
		return cty.Tuple(etys), nil
	default:
		atys := make(map[string]cty.Type, len(names))
		for _, name := range names {
			atys[name] = cty.String
		}
		return cty.Object(atys), nil
	}
}

// regexPatternResult is go-cty's: the value of a match.
func regexPatternResult(re *regexp.Regexp, str string, captureIdxs []int, retType cty.Type) cty.Value {
	switch {
	case retType == cty.String:
		return cty.StringVal(str[captureIdxs[0]:captureIdxs[1]])
	case retType.IsTupleType():
		captureIdxs = captureIdxs[2:]
		vals := make([]cty.Value, len(captureIdxs)/2)
		for i := range vals {
			start, end := captureIdxs[i*2], captureIdxs[i*2+1]
			if start < 0 || end < 0 {
				vals[i] = cty.NullVal(cty.String)
				continue
			}
			vals[i] = cty.StringVal(str[start:end])
		}
		return cty.TupleVal(vals)
	case retType.IsObjectType():
		captureIdxs = captureIdxs[2:]
		vals := make(map[string]cty.Value, len(captureIdxs)/2)
		for i, name := range re.SubexpNames()[1:] {
			start, end := captureIdxs[i*2], captureIdxs[i*2+1]
			if start < 0 || end < 0 {
				vals[name] = cty.NullVal(cty.String)
				continue
			}
			vals[name] = cty.StringVal(str[start:end])
		}
		return cty.ObjectVal(vals)
	}
	panic(fmt.Sprintf("invalid return type %#v", retType))
}
