// Package engine is the core of prerel: SemVer versions, Terraform/OpenTofu
// version constraints, the Policy interface with its tri-state Verdict,
// selection of the newest admitted version, and the policy registry.
//
// # Versions
//
// A Version is SemVer 2.0.0, MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD], with an
// optional leading "v" that is remembered for printing. Numbers and numeric
// prerelease identifiers have no leading zeros; identifiers are non-empty
// runs of [0-9A-Za-z-]. Precedence is SemVer section 11 exactly; build
// metadata never affects precedence or equality.
//
// # Constraints
//
// A Constraint is the syntax of Terraform and OpenTofu version constraints:
//
//	constraint = [ comparator { "," comparator } ]   (blank = any version)
//	comparator = [ operator ] version
//	operator   = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~>"   (none means "=")
//	version    = [ "v" ] N [ "." N [ "." N ] ] [ "-" prerelease ] [ "+" build ]
//
// Spaces and tabs may stand around operators and commas. A version in a
// comparator may have one to three numeric parts; missing parts are zero
// (">= 1.2" is ">= 1.2.0") but the written precision is kept, because "~>"
// depends on it:
//
//	~> 1.2.3       >= 1.2.3, < 1.3.0
//	~> 1.2         >= 1.2.0, < 2.0.0
//	~> 1           >= 1.0.0, < 2.0.0
//	~> 1.2.3-beta  >= 1.2.3-beta, < 1.3.0 (the prerelease stays on the lower bound)
//
// Versions of more than three numeric parts (1.2.3.4), which
// hashicorp/go-version reads and with it Terraform's module installer and
// required_version, are read by ParseMultipartVersion and
// ParseMultipartConstraint alone: a missing part counts as zero, and a
// "~>" of more than three parts keeps its last part open and admits only
// versions of at least as many parts, as go-version's does. ParseVersion
// and ParseConstraint read SemVer, and the native policies but core-only
// answer Invalid on such input.
//
// The parser is written for this syntax rather than borrowed from
// apparentlymart/go-versions (whose Ruby-style parser Terraform uses for
// providers): that parser refuses the "v" prefix that real configurations
// write and that hashicorp/go-version and OpenTofu accept, its errors carry
// no position, and it allocates per comparator. The adapters package runs
// the libraries' own parsers, so every difference in accepted syntax shows
// up in the differential reports as an invalid verdict on one side.
//
// Errors are *ParseError values that name the column and the offending text:
//
//	constraint ">= ": column 4: expected a version after ">=", found end of input
//
// # Policies
//
// A Policy compiles a constraint its own way and judges versions given as
// text, returning Allow, Reject or Invalid with a reason. Invalid is kept
// for input the implementation does not accept; it is never a silent
// Reject. Native policies implement Judge over parsed values and get
// Compile from CompileNative; judging a parsed pair does not allocate. A
// Matcher that judges a list faster than one version at a time (one that
// asks another process) also implements BatchMatcher.
//
// A caller that judges many constraints against the same versions reads
// them once into a VersionTable (ReadVersions): a policy that implements
// VersionReader gives its own compiled table, any other the generic one
// over Compile and Match, and both give the same results.
//
// Select picks the newest admitted version from a list; a policy whose
// rule depends on the whole list implements Selector and decides itself,
// and answers pairwise as if the version were the only one available.
// Explain shows a policy's reasoning for one pair, step by step, from its
// Explainer or, for a policy without one, from what Compile and Match
// answered.
// A Registry holds policies by name, in registration order, so that a
// user's own policy appears in every command next to prerel's; there is no
// global one, every user is handed a *Registry.
//
// The JSON forms of the reports of prerel's commands (check, select,
// explain, eval) are package report's: they are the command line's
// schemas, not the engine's.
//
// # Cooldown
//
// SelectCooled stacks a minimum release age (Cooldown) on any policy:
// the policy decides what it admits on the whole list (an Admitter says
// so itself; a Selector that is no PairwiseSelector admits no
// prerelease below a release it selects), then the versions younger than
// the minimum age, counted at Cooldown.Now from their Dates, are held
// back, and the newest admitted version left is selected. So no policy
// falls back to a prerelease because a release was held back (the
// fallback trap of the age-first order, which Cooldown.AgeFirst gives
// for comparisons). An exact pin is exempt (IsExactPin); a version
// without a date is held back unless Cooldown.AllowUndated. Dates is a
// slice beside the versions, nil for an undated history, so that the
// selection without a cooldown costs nothing more.
//
// The package imports the standard library alone, so that a program can
// embed the engine without the rest of prerel.
package engine
