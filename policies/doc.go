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
// B admits it for "< 2.0.0", and most users do not want that. The
// policies differ only in their prerelease rule: when a prerelease
// version, and a constraint that names a prerelease, are admitted. Each
// type's doc states its rule, where it comes from and examples; All lists
// them in the catalogue's order (strict, the rule Terraform's and
// OpenTofu's provider installer documents, first); docs/policies.md puts
// them side by side, at a glance and case by case.
//
// On a release every policy is exactly B, except lexical, where "~>" with a
// prerelease ("~> 1.2.3-beta") admits prereleases only, as
// hashicorp/go-version does, and core-only, which refuses a constraint that
// names a prerelease.
//
// The empty constraint admits every release under every policy. For a
// prerelease each rule is applied as written: a rule that needs a
// comparator to let a prerelease in (strict, cargo, any-pre) rejects it,
// and a rule that admits what no comparator refuses admits it.
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
// into the other). A constraint is compiled once, for every native
// policy, into the interval its comparators admit together and each
// comparator's interval (the "~>" upper bound precomputed); each rule
// then reads from it, once per constraint, the facts it decides on
// (strict's "=" comparator, the bases of cargo's opt-in comparators,
// linear-tight's "~>" bounds, ga-bound's intervals for the version and
// for its GA release), declared in the rule's own file. The check then
// compares integers only and returns the Result Judge returns, reason
// included, without allocating. A version or constraint whose numbers do
// not fit a key (a MAJOR of 2^24-1 or more, a MINOR or PATCH of 2^20-1 or
// more) is handed to Judge, which stays the definition of each rule. The
// tests prove the compiled form equal to Compile and Match on the
// exhaustive domain at scope 4 and on random cases pushed to the limits
// of the key.
//
// # Adding a rule
//
// A new native rule touches four files. Walked for any-pre:
//
//  1. policies/any_pre.go, the rule: the type AnyPre with its doc (the
//     rule, where it comes from, examples), Name, Rule, Compile
//     (engine.CompileNative), Judge (constant reasons, no allocation),
//     Explain, and ReadVersions (anyPreRule.readVersions); the fast
//     path's nativeRule anyPreRule, with the facts the rule decides once
//     per constraint (anyPreFacts, readAnyPreFacts; noFacts when
//     compiled is enough) and its fast rule (fastAnyPre). A rule that
//     is not a proposal says its catalogue group (strict's and
//     core-only's Group return "installers"); the catalogue reads it.
//  2. policies/register.go: All lists AnyPre{} at its place, which is
//     its place in the catalogue.
//  3. docs/policies.md: the rule's row in "At a glance", its section,
//     and its column "any-pre" in "The same cases under each native
//     policy".
//  4. policies/testdata/verdicts.md: its column "any-pre" in every table;
//     a case that shows the rule best is a new row, in either file, with
//     the pin on the last line of this one changed with it.
//
// The tests then hold the rule to both tables (TestVerdictTables checks
// every cell through Compile and Match and through the version table),
// to its fast path (TestFastPathExhaustive, TestFastPathEdges), to Explain's result, to
// allocation-free judging, and to the containments that hold for every
// native policy. Optional: exact reasons in reasons_test.go; a
// containment with another rule in policies_test.go and under
// Containments above;
// a re-expression in HCL as testdata/designs/hcl-any-pre.hcl, which
// package hclpolicy then proves equal to the rule. A rule that departs
// from B on releases or on the empty constraint names itself in the
// paragraphs of the model above and in TestReleases.
//
// Beyond the four files, one sample changes: the README's main sample
// (compare on the embedded defaults), which shows every policy by design,
// rewritten with PREREL_LONG=1 go test -run TestReadme . -update. The
// tests and golden files that show policies take a fixed list of them
// (catalogue/cataloguetest); those whose point is the whole catalogue
// take catalogue.New and name no policy. testdata/baseline.json, CI's
// drift gate, gates the policies it records: compare --baseline checks
// those and notes the new rule as not in the baseline, until the
// baseline is rewritten with compare --write-baseline to gate it (as
// docs/ci.md says).
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
