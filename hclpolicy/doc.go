// Package hclpolicy reads prerelease policies written in HCL, so that a
// new rule is a few lines of data loaded at run time rather than Go code.
//
// # Policy blocks
//
// A policy file holds one or more blocks:
//
//	policy "NAME" {
//	  rule   = "one line, as prerel policies lists it"
//	  admit  = <expression: true admits the version, false rejects it>
//	  select = "newest"              # or "fallback"; "newest" when absent
//	  refuse        = <expression over constraint: true refuses it>      # optional
//	  refuse_reason = <expression over constraint: the reason, a string> # optional
//	}
//
// NAME is a policy name (lower case letters, digits and '-'), unique in the
// file. rule is optional; without it, prerel lists the admit expression.
// admit is an HCL expression (hashicorp/hcl/v2, evaluated with go-cty and
// its standard library) over two variables, version and constraint, and it
// must give a bool.
//
// select says what the policy installs from a list of versions: "newest",
// the newest admitted version by SemVer precedence; or "fallback", the
// newest admitted release, and the newest admitted prerelease only when no
// release is admitted (Go's version queries, PEP 440), as the native
// fallback policy does.
//
// A block may instead run an external command, built by Options.Command
// (another package speaks the command's protocol):
//
//	policy "NAME" {
//	  rule    = "optional"
//	  command = ["python3", "rule.py"]
//	}
//
// # Invalid
//
// A policy answers invalid for a case it does not accept, never a silent
// reject. Three things make a case invalid:
//
//   - The engine's parser refuses the constraint or the version
//     (engine.ParseConstraint, engine.ParseVersion), as for every native
//     policy.
//   - refuse is true for the constraint: the policy refuses the whole
//     constraint, as the native core-only policy refuses one that names a
//     prerelease. refuse and refuse_reason see constraint only (a reference
//     to version is an error when the file is loaded); they are evaluated
//     once per constraint, in Compile, which then returns an error whose
//     text is refuse_reason (or a default reason), so every version of the
//     constraint is invalid and selection from it fails, exactly as for a
//     native policy that refuses a constraint. An error while evaluating
//     them refuses the constraint too, with the diagnostic as the reason.
//   - Evaluating admit fails on this case (an index out of range, a
//     function's error, an exceeded budget, see Budget): the case is
//     invalid and its reason is the diagnostic, formatted as prerel
//     formats every diagnostic ("FILE:LINE:COLUMN: SUMMARY; DETAIL"). It
//     never panics. Unlike the two above, such a case is a mistake in the
//     policy: the policy keeps each distinct error, with how many cases
//     gave it and the first of them (Policy.Failures), and Policy.Err
//     returns them, so that a program reports them once after its last
//     case and fails (prerel exits 2).
//
// core-only, for instance, refuses a constraint that names a prerelease:
//
//	refuse        = constraint.names_prerelease
//	refuse_reason = "prerelease version constraints are not supported"
//
// # Variables
//
// version is the version judged, an object:
//
//	text             the version as given: "v1.2.0-beta.1+build.5"
//	major            1
//	minor            2
//	patch            0
//	prerelease       the prerelease identifiers: ["beta", "1"]; [] for a release
//	prerelease_text  "beta.1"; "" for a release
//	is_prerelease    true
//	build            the build metadata: "build.5"; "" when there is none
//	ga               its GA release, the release it leads up to: "1.2.0"
//
// constraint is the constraint, an object:
//
//	text              the constraint as given: ">= 1.0, ~> 1.2.0-beta"
//	comparators       its comparators, as written, in order (list of comparator objects)
//	bounds            the same with every ~> expanded into its two bounds:
//	                  ~> 1.2.0-beta is >= 1.2.0-beta (the lower bound carries
//	                  the written prerelease) and < 1.3.0 (a release); a ~>
//	                  whose upper bound would overflow has the lower bound only
//	names_prerelease  some comparator's version has a prerelease
//
// Each element of comparators and bounds is a comparator object:
//
//	text                     the comparator: "~> 1.2.0-beta", "1.0.0" (bare);
//	                         for a bound ">= 1.2.0-beta", "< 1.3.0"
//	op                       "=", "!=", ">", ">=", "<", "<=" or "~>" ("=" when bare)
//	bare                     written with no operator
//	version                  its version, a version object, missing parts zero
//	                         (text "1.2.0" for ">= 1.2")
//	names_prerelease         its version has a prerelease
//	precision                how many numbers were written: 1, 2 or 3
//	bound                    "lower" or "upper" for the bounds of a ~>; "" otherwise
//	source                   the comparator as written it comes from (the ~> for a bound)
//	source_op                that comparator's operator
//	source_names_prerelease  whether that comparator names a prerelease
//
// # Functions
//
// Besides HCL's operators (&&, ||, !, ==, <, ?:, for expressions, splats),
// an expression calls these functions. A version argument is a version
// object (version, c.version) or a version's full text ("2.0.0-beta",
// version.ga); a comparator argument is a comparator object (an element of
// constraint.comparators or constraint.bounds, or any object with op,
// version and optionally precision) or a comparator's text (">= 1.2").
//
//	compare(a, b)            -1, 0 or 1 as version a has lower, equal or higher SemVer precedence than b
//	holds(c, v)              comparator c holds for version v by precedence alone; ~> is its range
//	                         [lower, upper); v may be a stand-in such as version.ga
//	satisfies(cs, v)         every comparator of cs holds for v by precedence: B(c, v); cs is
//	                         constraint, constraint.bounds, a list of comparators or a constraint's text
//	same_base(a, b)          versions a and b have the same MAJOR.MINOR.PATCH
//	parse_version(text)      the version object of a version's text
//	alltrue(list)            every element of a list of bools is true (true for [])
//	anytrue(list)            some element of a list of bools is true (false for [])
//	try(a, b, ...)           the first argument that evaluates without error
//	can(x)                   whether x evaluates without error
//
// and go-cty's standard library under the names Terraform gives them: abs,
// ceil, chomp, chunklist, coalesce, coalescelist, compact, concat,
// contains, distinct, element, flatten, floor, format, formatlist, indent,
// int, join, jsondecode, jsonencode, keys, length (of a collection), log,
// lookup, lower, max, merge, min, parseint, pow, range, regex, regexall,
// regex_replace, replace, reverse (a list), setintersection, setproduct,
// setsubtract, setsymmetricdifference, setunion, signum, slice, sort,
// split, strlen, strrev, substr, title, tobool, tolist, tomap, tonumber,
// toset, tostring, trim, trimprefix, trimspace, trimsuffix, upper, values,
// zipmap.
//
// # Example
//
// The rule of Rust's semver crate (the native cargo policy): in range by
// precedence, and a prerelease only when a comparator other than != names
// a prerelease of the same base.
//
//	policy "my-cargo" {
//	  rule  = "a prerelease only when a comparator other than != names a prerelease of its base"
//	  admit = satisfies(constraint, version) && (!version.is_prerelease || anytrue([
//	    for c in constraint.comparators :
//	    c.names_prerelease && c.op != "!=" && same_base(c.version, version)
//	  ]))
//	}
//
// ga-bound judges a prerelease by its GA release, except by =, != and
// bounds that name a prerelease:
//
//	admit = alltrue([
//	  for b in constraint.bounds :
//	  !version.is_prerelease || contains(["=", "!="], b.op) || b.names_prerelease
//	  ? holds(b, version)
//	  : holds(b, version.ga)
//	])
//
// The repository's testdata/designs holds native policies written this
// way (hcl-strict, hcl-lexical, hcl-cargo, hcl-linear, hcl-linear-tight,
// hcl-ga-bound, hcl-any-pre, hcl-fallback, hcl-core-only; a new native
// policy need not have one), each proven equal to its Go policy on the
// exhaustive domain, and rules that are in no catalogue.
//
// # Reasons
//
// The reason of a verdict names what decided it. When admit is a chain of
// && (or of ||), its operands are judged one by one, as HCL evaluates
// every operand anyway, and the reason is the first false operand of an
// && chain (the first true one of an || chain), with the attributes of
// version and constraint it reads and their values:
//
//	version.prerelease_text == "" is false (version.prerelease_text is "beta.1")
//
// An && chain whose operands are all true, an || chain whose operands are
// all false, and an admit that is no chain are named whole, as
// "ADMIT is true (...)". An operand is quoted on one line, elided in the
// middle past 100 characters. In a file in HCL's JSON syntax, an
// expression that is a string is read as the template HCL reads it as
// ("${X}" alone as X), so that it is specialized, budgeted and explained
// as in the native syntax; any other (true, a number) gives "admit is
// true" or "admit is false".
//
// # Budget
//
// The file may come with the code under review, so every evaluation has a
// budget: MaxSteps steps (a call of a standard library function costs four
// and one for each element, at any depth, or each 16 bytes it gives;
// each of its arguments a step for each two values and each 16 bytes
// inside it, however often the same value is passed; a for expression
// or a splat costs its collection's length times four more than its
// body's nodes; a part of a string template one and one for each 16
// bytes; a number counts as long as it is written out), a collection of
// at most MaxElements and a string of at most MaxStringBytes from one
// call, and a pattern of at most MaxPatternBytes, checked before the
// function runs, and EvalTimeout as a last resort, read every 256 steps
// and at every charge of 256 steps or more, before the work it pays for.
// A function whose work grows faster than its arguments and its result
// is charged for that work before it runs, from its arguments: distinct
// two steps for each pair of elements, sort for n log n comparisons, the
// conversions (tolist, toset, tomap, ...) and the functions that unify
// the types of their arguments (concat, merge, coalesce, coalescelist,
// setproduct and the set functions) for comparing each element's type
// with every other's, a set for each pair of elements whose hashes
// collide, jsondecode for reading its text twice, and regex, regexall and
// regex_replace for compiling the pattern (a program of the pattern's
// size, repetitions expanded) and running it over each byte of the
// string, and regexall and regex_replace, which search again after each
// match, for running it again before each search, over each byte it may
// read (the rest of the string, or the pattern's longest match when its
// repetitions are bounded); compiled patterns are kept in a cache of 256. This package's
// own functions (compare, holds, satisfies, same_base, parse_version,
// alltrue, anytrue) cost a step, a step for each two comparators or
// elements and a step for each 16 bytes of text they parse, each time a
// value is handed to them (the judged version and the constraint's
// comparators are parsed once, and cost only their count). What HCL
// itself converts and compares is charged too, before it does: an operand
// of == or != a step for each two values inside it, four times over
// (go-cty walks it that often), and one for each 16 bytes of its
// strings; an operand of arithmetic or of <, >, <= and >= that is a
// string, one for each 16 bytes it parses; a result of a conditional,
// its size and unifying its types, as an argument converted to a list;
// the key of an object or of a for expression, and an index, one for
// each 16 digits of a number written out, more than linearly past a few
// thousand digits (a number written as an index in a traversal, such as
// version[1e10000000], which cannot be charged, is at most 64 digits
// written out, or the file is not read). So no call runs long before the
// budget is charged for it. To count what HCL itself
// iterates over and converts, the expressions are rewritten when the file
// is loaded: the collection of each for expression, the source of each
// splat, each part of a template and each argument of a standard library
// function, each operand, conditional's result, key and index that HCL
// converts are wrapped in a call, which no file can name, that charges
// the budget and gives its argument back. Once exceeded, the budget stays
// exceeded for the rest of the evaluation, so that try and can cannot
// swallow it; the case is invalid with "Evaluation budget exceeded" at the
// place of the call, the argument, the for expression, the splat, the
// template, the operand, the result, the key or the index, with what went
// over ("distinct, comparing each pair of its
// 300 elements: the evaluation takes more than 20000 steps, ...").
// refuse and refuse_reason have a
// budget each for each constraint; the parts of admit that read only the
// constraint share one for each constraint (one that goes over it is
// replaced by a call that fails at once); the parts that read only the
// version have one each for each version (one that goes over it is
// unknown for that version, and a case whose verdict depends on it is
// invalid with its diagnostic); what is left of admit has one for each
// case. A for expression over a collection known once the constraint is
// known still charges each case that evaluates it for its collection, as
// written; one that is unrolled into the list of its elements is paid for
// as the for expression would be, before the case's evaluation starts.
// A policy keeps the matchers of up to 1,024 constraints, so that
// a constraint is specialized once. The repository's docs/untrusted-input.md says the same
// for users.
//
// # Loading
//
// Load reads a policy file; Decode reads the policy blocks of a body that
// has other content too (it uses PartialContent and ignores the rest), so
// that prerel.hcl can hold policy blocks next to its own settings: its
// reader adds BlockHeader to the schema it reads the body with, so that
// its own Content accepts the blocks, and hands the same body to Decode.
// CheckNames reports a policy whose name a registered policy has.
//
// Every mistake is an hcl.Diagnostic with its file, line and column, all
// reported at once: a syntax error, an unknown variable, function or
// attribute (with the closest name there is: the attributes of version,
// constraint, a comparator and a version object are checked by reading
// the expression, through for expressions, indexes, splats and
// parse_version, in every branch), an admit that does not give a bool
// (or a refuse_reason that does not give a string), duplicate names, a block with neither admit nor
// command or with both, an unknown select value, and, in CheckNames, a
// name that clashes with a registered policy. The expressions are checked
// when the file is loaded, against values of the right types and against a
// few concrete cases, so that such mistakes show before any case is
// judged; these evaluations have the budget too, and one that goes over
// it is no error, since no case may need that part.
//
// # Speed
//
// The expressions are parsed once, with the file. Compile builds the
// constraint's value once and specializes admit for it: parts that do not
// read version are evaluated once, for expressions over the constraint's
// comparators are unrolled, and && and || with a side known are
// simplified, exactly as HCL would evaluate them; parts that read only the
// version are evaluated once per distinct version, which a policy keeps
// with the version's value (at most 4096 of them). Judging a case then
// evaluates what is left, with HCL, except that this package's functions,
// alltrue, anytrue, the logical operators, == and != on strings and bools,
// and conditionals are evaluated directly on their common cases (known,
// plain values), a standard library function is called without the
// budget's wrapper going through go-cty's checks a second time, and lists
// and strings written out of constants are built once: every other case is HCL's, and the values, diagnostics and steps
// charged are the same.
package hclpolicy
