// Package policies holds prerel's native prerelease policies, one small type
// each, each an engine.Policy. All lists them; package catalogue registers
// them, with the adapters, into an engine.Registry.
//
// # The model
//
// Every native policy starts from base satisfaction, B(c, v): the version v
// satisfies every comparator of the constraint c by SemVer precedence alone,
// with "~>" read as a range (engine.Comparator.Holds; "~> 1.2" is
// ">= 1.2.0, < 2.0.0"). By precedence alone 2.0.0-beta.1 lies below 2.0.0, so
// B admits it for "< 2.0.0", and most users do not want that. The policies
// differ only in their prerelease rule: when a prerelease version, and a
// constraint that names a prerelease, are admitted.
//
//   - [Strict] ("strict"): a prerelease only when an "=" comparator names
//     exactly that version (Terraform's and OpenTofu's provider installer).
//   - [Lexical] ("lexical"): each comparator on its own; a range comparator
//     passes a prerelease only when it names a prerelease of the same base
//     (hashicorp/go-version).
//   - [Cargo] ("cargo"): B, and a prerelease only when some comparator other
//     than "!=" names a prerelease of the same base (Cargo, npm).
//   - [Linear] ("linear"): B alone, prereleases on the timeline; "~> 1.2"
//     admits 2.0.0-beta.1 (the TF_ALLOW_PRERELEASE proposal).
//   - [LinearTight] ("linear-tight"): as linear, but the upper bound implied
//     by "~>" excludes the next release's prereleases (npm's
//     includePrerelease).
//   - [GABound] ("ga-bound"): a prerelease is judged by its GA release,
//     except by "=", "!=" and comparators that name a prerelease.
//   - [AnyPre] ("any-pre"): B, and a prerelease only when some comparator
//     other than "!=" names a prerelease of any base (OpenTofu's RFC).
//   - [Fallback] ("fallback"): a selection-level policy; the newest release
//     in range, and a prerelease only when no release fits. Pairwise it
//     answers like linear.
//   - [CoreOnly] ("core-only"): a constraint that names a prerelease is
//     invalid; a version is judged by its core (required_version).
//
// On a release every policy is exactly B, except lexical, where "~>" with a
// prerelease ("~> 1.2.3-beta") admits prereleases only, as
// hashicorp/go-version does, and core-only, which refuses a constraint that
// names a prerelease.
//
// The empty constraint admits every release under every policy. For a
// prerelease each rule is applied as written: strict, cargo and any-pre
// reject it (no "=" comparator, no comparator naming a prerelease); lexical,
// linear, linear-tight, ga-bound, fallback and core-only admit it (no
// comparator refuses it).
//
// # Containments
//
// Every version the first policy admits, the second admits too (the tests
// check each on every table pair, exhaustively over a small scope, and in
// FuzzNative):
//
//	strict ⊆ cargo ⊆ any-pre ⊆ linear = fallback (pairwise)
//	lexical ⊆ linear-tight ⊆ linear
//	lexical ⊆ ga-bound
//	core-only ⊆ ga-bound         where the constraint has no "="
//	ga-bound ⊆ core-only         where it names no prerelease and has no "!="
//	any-pre ⊆ core-only          where it names no prerelease
//
// No other containment holds; ga-bound and core-only admit prereleases that
// B refuses ("~> 2.0.0" and ">= 2.0.0" admit 2.0.0-beta), and the tests
// keep a witness for each failing pair.
//
// # Explanations
//
// Every native policy implements engine.Explainer: comparator by comparator
// it says how the comparator was read ("~> 1.2" as ">= 1.2.0, < 2.0.0",
// ">= 1.2" filled to ">= 1.2.0"), whether it held by precedence (or, for
// ga-bound and core-only, for the GA release), which prerelease rule
// applied and why, and ends in the same result as Judge.
//
// A constraint or version the engine's parser refuses is engine.Invalid,
// never a silent reject. Judging a parsed pair does not allocate: each
// verdict carries a constant reason that says which branch of the rule
// decided it. A reason starting with "prerelease:" means the prerelease
// rule decided (for ga-bound and core-only, a comparator judged the GA
// release); any other reject names the comparator the version fails by
// precedence.
//
// # The fast path
//
// Every native policy also implements engine.VersionReader with a
// compiled form of its rule. A version is read once into a precedence
// key, a 128-bit integer whose order is SemVer precedence (the core packed
// into one word, the prerelease, ranked among the table's prereleases,
// into the other). A constraint is compiled once into the interval its
// comparators admit together, each comparator's interval (the "~>" upper
// bound precomputed) and what the rule decides once per constraint:
// strict's "=" comparator, the bases of cargo's opt-in comparators,
// any-pre's opt-in, linear-tight's "~>" bounds, ga-bound's intervals for
// the version and for its GA release. The check then compares integers
// only and returns the Result Judge returns, reason included, without
// allocating. A version or constraint whose numbers do not fit a key (a
// MAJOR of 2^24-1 or more, a MINOR or PATCH of 2^20-1 or more) is handed
// to Judge, which stays the definition of each rule. The tests prove the
// compiled form equal to Compile and Match on the exhaustive domain at
// scope 4 and on random cases pushed to the limits of the key.
//
// # Use
//
// Import the package and evaluate a pair with one policy:
//
//	r := engine.Evaluate(policies.Cargo{}, ">= 1.1.0-beta.2", "1.1.0-beta.3")
//	fmt.Println(r.Verdict, r.Reason) // allow ...
//
// Compile a constraint once to judge many versions, or let engine.Select
// pick the newest admitted version from a list. To look policies up by
// name, register them in a registry of one's own (catalogue.New registers
// every policy prerel ships):
//
//	reg := engine.NewRegistry()
//	for _, p := range policies.All() {
//		reg.Register(p)
//	}
//	p, _ := reg.Lookup("strict")
package policies
