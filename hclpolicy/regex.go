package hclpolicy

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	resyntax "regexp/syntax"
	"sync"
	"unicode/utf8"

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
// running it over the string cost is charged first (see regexWork),
// regexall and regex_replace search for each match themselves, charging
// before each search after the first (see searches), and compiled
// patterns are kept in a bounded cache shared by every evaluation.

const (
	// maxCachedPatterns bounds the compiled patterns kept; when it is
	// full, the cache is emptied.
	maxCachedPatterns = 256
	// instructionsPerStep is how many instructions of a compiled pattern
	// cost a step to compile, and how many pairs of an instruction and a
	// byte of the string cost a step to run.
	instructionsPerStep = 16
)

// compiledPattern is a pattern as the cache keeps it: the pattern
// compiled, the pattern compiled to search from a position after the
// start of a string (see searchFrom), and the most bytes one of its
// matches may span (+Inf when a repetition has no bound).
type compiledPattern struct {
	re     *regexp.Regexp
	err    error
	after  *regexp.Regexp
	maxLen float64
}

// patterns is the cache of compiled patterns.
var patterns struct {
	mu sync.Mutex
	m  map[string]compiledPattern
}

// compilePattern is regexp.Compile, through the cache.
func compilePattern(pattern string) (*regexp.Regexp, error) {
	c := lookupPattern(pattern)
	return c.re, c.err
}

// lookupPattern compiles pattern, through the cache.
func lookupPattern(pattern string) compiledPattern {
	patterns.mu.Lock()
	c, ok := patterns.m[pattern]
	patterns.mu.Unlock()
	if ok {
		return c
	}
	c.re, c.err = regexp.Compile(pattern)
	if c.err == nil {
		// The same pattern after one rune of context, for searchFrom.
		c.after, _ = regexp.Compile(`(?s:.)(?:` + pattern + `)`)
		c.maxLen = math.Inf(1)
		if re, err := resyntax.Parse(pattern, resyntax.Perl); err == nil {
			c.maxLen = maxLength(re)
		}
	}
	patterns.mu.Lock()
	if patterns.m == nil || len(patterns.m) >= maxCachedPatterns {
		patterns.m = make(map[string]compiledPattern, maxCachedPatterns)
	}
	patterns.m[pattern] = c
	patterns.mu.Unlock()
	return c
}

// maxLength is the most bytes a match of re may span: +Inf when a
// repetition has no bound.
func maxLength(re *resyntax.Regexp) float64 {
	switch re.Op {
	case resyntax.OpLiteral:
		return float64(utf8.UTFMax * len(re.Rune)) // any case of a rune
	case resyntax.OpCharClass, resyntax.OpAnyChar, resyntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case resyntax.OpCapture, resyntax.OpQuest:
		return maxLength(re.Sub[0])
	case resyntax.OpStar, resyntax.OpPlus:
		if maxLength(re.Sub[0]) == 0 {
			return 0
		}
		return math.Inf(1)
	case resyntax.OpRepeat:
		sub := maxLength(re.Sub[0])
		if sub == 0 {
			return 0
		}
		if re.Max < 0 {
			return math.Inf(1)
		}
		return float64(re.Max) * sub
	case resyntax.OpConcat:
		n := 0.0
		for _, sub := range re.Sub {
			n += maxLength(sub)
		}
		return n
	case resyntax.OpAlternate:
		n := 0.0
		for _, sub := range re.Sub {
			n = math.Max(n, maxLength(sub))
		}
		return n
	}
	return 0 // an empty string, an assertion
}

// searchFrom is the leftmost match of c in s that starts at pos or after,
// as the regexp package's FindAll and ReplaceAll search for each match
// after the first: the rune before pos is seen by \b, \B and (?m)^, and ^
// and \A do not match at pos. It is c.after (the pattern after one rune
// of any kind) searched for in s from the start of the rune before pos.
// Its indexes are those of FindStringSubmatchIndex, or nil.
func searchFrom(c compiledPattern, s string, pos int) []int {
	if pos == 0 {
		return c.re.FindStringSubmatchIndex(s)
	}
	_, w := utf8.DecodeLastRuneInString(s[:pos])
	from := pos - w
	m := c.after.FindStringSubmatchIndex(s[from:])
	if m == nil {
		return nil
	}
	_, first := utf8.DecodeRuneInString(s[from+m[0]:])
	m[0] += first
	for i, x := range m {
		if x >= 0 {
			m[i] = x + from
		}
	}
	return m
}

// searches charges b, when it is not nil, for the searches after the first
// that a function applying the pattern c to a string of n bytes makes,
// before each starts (the first is charged with the function's work, see
// regexWork): Go's engine may read on past a match while an alternative
// that would take precedence may still match, up to the longest match of
// the pattern past the match's start, or to the end of the string. Each
// search from pos then costs the program's size for each byte it may
// read: n - pos + 1, or the pattern's longest match and one more when
// that is less (the bytes before the match are charged with the first
// search). Without this, regexall("0*1|0", a string of 10,000 zeros)
// takes more than a second: ten thousand searches to the end.
type searches struct {
	b     *budget
	what  string
	size  float64
	c     compiledPattern
	n     int
	owed  float64
	first bool
}

// next charges for the search from pos, unless it is the first.
func (x *searches) next(pos int) error {
	if !x.first {
		x.first = true
		return nil
	}
	if x.b == nil {
		return nil
	}
	read := math.Min(float64(x.n-pos+1), x.c.maxLen+1)
	x.owed += x.size * read / instructionsPerStep
	if x.owed < 1 {
		return nil
	}
	steps := int(math.Min(x.owed, MaxSteps+1))
	x.owed -= float64(steps)
	return x.b.charge(steps, x.what, nil)
}

// newSearches starts counting the searches of name, applying pattern c
// to s, for b.
func newSearches(b *budget, name, pattern string, c compiledPattern, s string) *searches {
	x := &searches{b: b, what: name + ", searching the string again after a match", c: c, n: len(s)}
	if b != nil {
		x.size = 1
		if re, err := resyntax.Parse(pattern, resyntax.Perl); err == nil {
			x.size = programSize(re)
		}
	}
	return x
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
var regexAllSpec = &function.Spec{
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
		return regexAll(nil, args, retType)
	},
}

var regexAllFunc = function.New(regexAllSpec)

// regexAllFor is regexall charging b for its searches after the first
// (see searches).
func regexAllFor(b *budget) function.Function {
	spec := *regexAllSpec
	spec.Impl = func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return regexAll(b, args, retType)
	}
	return function.New(&spec)
}

// regexAll is go-cty's regexall, searching for each match itself (as the
// regexp package's FindAllStringSubmatchIndex does) so that b, when it is
// not nil, is charged before each search.
func regexAll(b *budget, args []cty.Value, retType cty.Type) (cty.Value, error) {
	ety := retType.ElementType()
	if ety == cty.DynamicPseudoType {
		return cty.DynamicVal, nil
	}
	pattern := args[0].AsString()
	c := lookupPattern(pattern)
	if c.err != nil {
		return cty.NilVal, function.NewArgErrorf(0, "error parsing pattern: %s", c.err)
	}
	str := args[1].AsString()
	var captureIdxsEach [][]int
	if c.after == nil {
		captureIdxsEach = c.re.FindAllStringSubmatchIndex(str, -1)
	} else {
		x := newSearches(b, "regexall", pattern, c, str)
		for pos, prevMatchEnd := 0, -1; pos <= len(str); {
			if err := x.next(pos); err != nil {
				return cty.NilVal, err
			}
			m := searchFrom(c, str, pos)
			if m == nil {
				break
			}
			accept := true
			if m[1] == pos {
				// An empty match: not right after a match, and the
				// next search starts a rune further.
				if m[0] == prevMatchEnd {
					accept = false
				}
				if _, width := utf8.DecodeRuneInString(str[pos:]); width > 0 {
					pos += width
				} else {
					pos = len(str) + 1
				}
			} else {
				pos = m[1]
			}
			prevMatchEnd = m[1]
			if accept {
				captureIdxsEach = append(captureIdxsEach, m)
			}
		}
	}
	if len(captureIdxsEach) == 0 {
		return cty.ListValEmpty(ety), nil
	}
	elems := make([]cty.Value, len(captureIdxsEach))
	for i, captureIdxs := range captureIdxsEach {
		elems[i] = regexPatternResult(c.re, str, captureIdxs, ety)
	}
	return cty.ListVal(elems), nil
}

// regexReplaceFunc is go-cty's stdlib.RegexReplaceFunc, compiling
// through the cache.
var regexReplaceSpec = &function.Spec{
	Description: `Applies the given regular expression pattern to the given string and replaces all matches with the given replacement string.`,
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "pattern", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNonNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return regexReplace(nil, args)
	},
}

var regexReplaceFunc = function.New(regexReplaceSpec)

// regexReplaceFor is regex_replace charging b for its searches after the
// first (see searches).
func regexReplaceFor(b *budget) function.Function {
	spec := *regexReplaceSpec
	spec.Impl = func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return regexReplace(b, args)
	}
	return function.New(&spec)
}

// regexReplace is go-cty's regex_replace, searching for each match itself
// (as the regexp package's ReplaceAllString does) so that b, when it is
// not nil, is charged before each search.
func regexReplace(b *budget, args []cty.Value) (cty.Value, error) {
	pattern := args[1].AsString()
	c := lookupPattern(pattern)
	if c.err != nil {
		return cty.UnknownVal(cty.String), c.err
	}
	src, repl := args[0].AsString(), args[2].AsString()
	if c.after == nil {
		return cty.StringVal(c.re.ReplaceAllString(src, repl)), nil
	}
	x := newSearches(b, "regex_replace", pattern, c, src)
	var buf []byte
	lastMatchEnd, searchPos := 0, 0
	for searchPos <= len(src) {
		if err := x.next(searchPos); err != nil {
			return cty.NilVal, err
		}
		a := searchFrom(c, src, searchPos)
		if a == nil {
			break
		}
		buf = append(buf, src[lastMatchEnd:a[0]]...)
		// Not for an empty match right after a match.
		if a[1] > lastMatchEnd || a[0] == 0 {
			buf = c.re.ExpandString(buf, repl, src, a)
		}
		lastMatchEnd = a[1]
		// Past this match, and at least one rune further.
		_, width := utf8.DecodeRuneInString(src[searchPos:])
		switch {
		case searchPos+width > a[1]:
			searchPos += width
		case searchPos+1 > a[1]:
			searchPos++
		default:
			searchPos = a[1]
		}
	}
	buf = append(buf, src[lastMatchEnd:]...)
	return cty.StringVal(string(buf)), nil
}

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
