// Package policies holds prerel's native prerelease policies, one small type
// each, each an engine.Policy registered in engine.Default when the package
// is imported.
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
//
// On a release version strict and cargo are exactly B. Lexical is B too,
// except that "~>" with a prerelease ("~> 1.2.3-beta") admits prereleases
// only, as hashicorp/go-version does.
//
// The empty constraint admits every release under every policy. For a
// prerelease each rule is applied as written: strict and cargo reject it (no
// "=" comparator, no comparator naming a prerelease), lexical admits it (no
// comparator refuses it).
//
// A constraint or version the engine's parser refuses is engine.Invalid,
// never a silent reject. Judging a parsed pair does not allocate: each
// verdict carries a constant reason that says which branch of the rule
// decided it. For strict and cargo a reason starting with "prerelease:"
// means B holds and the prerelease rule decided; any other reject names the
// comparator the version fails by precedence.
//
// # Use
//
// Import the package and evaluate a pair with one policy:
//
//	r := engine.Evaluate(policies.Cargo{}, ">= 1.1.0-beta.2", "1.1.0-beta.3")
//	fmt.Println(r.Verdict, r.Reason) // allow ...
//
// Compile a constraint once to judge many versions, or let engine.Select
// pick the newest admitted version from a list. Importing the package for
// its side effect registers the policies by name:
//
//	import _ "github.com/prerel/prerel/policies"
//
//	p, _ := engine.Default.Lookup("strict")
package policies
