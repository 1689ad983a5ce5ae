// Package propertytests holds prerel's gopter property suites, run by
// go test. They draw cases from package compare/generate (constraints of up
// to four comparators and versions biased to share a comparator's base) and
// judge them through the policies registered in engine.Default: the native
// policies of package policies and the libraries of package adapters.
//
// # Properties that hold
//
//   - strict agrees with apparentlymart (go-versions MeetingConstraints),
//     except where a named go-versions quirk decides: v-prefix (its parsers
//     refuse a leading "v"), build-metadata (its "=" and "!=" compare build
//     metadata: "= 1.0.0" rejects 1.0.0+def), go-versions-precedence (it
//     orders prereleases by identifier count first: 1.0.0-beta below
//     1.0.0-alpha.1), zero-version (0.0.0 is never in its sets).
//   - lexical agrees with hashicorp (go-version Constraints.Check), except
//     one-part-pessimistic (go-version's "~> 1" has no upper bound; only
//     versions at or above the bound Terraform gives it are excluded) and go-version-precedence (it
//     sorts 1.0.0-alpha.beta below 1.0.0-alpha). Build metadata needs no
//     exclusion: go-version ignores it in "=" as SemVer does.
//   - cargo admits every version strict admits.
//   - strict and cargo agree on release versions; so does lexical, except
//     prerelease-pessimistic (its "~> 1.0.0-beta" admits prereleases only).
//   - "= V" added to a constraint whose other comparators V satisfies by
//     precedence admits V under strict and cargo.
//   - "= V" and the bare "V" admit V under strict, lexical, cargo,
//     hashicorp, masterminds and masterminds-pre, and under apparentlymart
//     and apparentlymart-exact except v-prefix and zero-version.
//   - comparator order never changes a verdict, for every native policy and
//     every adapter (the reverse and every rotation are tried).
//   - parse, print, parse is stable for constraints (also when written
//     without spaces) and versions.
//   - linear admits every version cargo admits (run when a policy named
//     "linear" is registered).
//
// # Divergences
//
// A divergence is a property known not to hold. The test asserts that gopter
// falsifies it and that the shrunk counterexample is the documented witness
// (for the default seed; see divergence_test.go for the list). Among them:
// lexical and cargo agree (witness ">= 0.0.0-alpha" with "< 0.0.0" and
// 0.0.0-alpha), strict and cargo agree, lexical and hashicorp with no
// exclusions, strict and apparentlymart with no exclusions, cargo and either
// masterminds adapter, lexical and terraform-module, terraform-module and
// opentofu-module ("v0.0.0-alpha" with 0.0.0-alpha), and an exact request
// under apparentlymart (0.0.0) and the module installers ("= 0.0.0-alpha").
// Every exclusion of a holding property has a divergence too: the property
// without that one exclusion, falsified by a witness of the quirk it names.
//
// # Seeds and sizes
//
// Every property runs with its own gopter parameters seeded with 1, on one
// worker, so each result is reproducible on its own, whatever else runs.
// Override the seed with the PRERELSEED environment variable or the -seed
// flag, and the number of successful tests each property needs (5000) with
// PRERELTESTS or -tests:
//
//	PRERELSEED=42 go test ./propertytests
//	go test ./propertytests -run TestPropertiesHold -seed=42 -tests=50000
//
// With another seed a divergence must still be falsified, and its shrunk
// witness is logged rather than compared. A failure prints the seed, the
// shrunk and the original counterexample (constraint and version text) and
// each policy's verdict and reason.
package propertytests
