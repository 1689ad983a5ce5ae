// Package readers holds how the programs other than "terraform init" and
// the update bots read a module's version constraint, each as an
// engine.Policy in the catalogue's "readers" group:
//
//   - [TerraformLS], "terraform-ls": the language server behind the
//     editors, which shows a module's inputs and outputs from the first
//     version of the registry's reverse-sorted list that go-version's
//     Check admits, and reads a version argument go-version refuses as no
//     constraint at all;
//   - [TFUpdate], "tfupdate": minamijoyo/tfupdate, whose `-v latest`
//     replaces the constraint with the newest release, whatever it said;
//   - [OpenTofuEngine], "opentofu-engine": OpenTofu's experimental engine,
//     which resolves a registry module's constraint with the provider
//     installer's reading (go-versions' Ruby-style parser) and lets no
//     prerelease through, not even an exact pin.
//
// Each type's doc gives its rule, the source it was written from (the
// repository, file, function and the version or commit read) and
// examples. terraform-ls and tfupdate are proven equal to their real code
// by this package's tests: small programs under testdata are built inside
// a copy of each program's own module tree, from the Go module proxy, and
// run over the exhaustive domain (every day when they are built, scope 1's
// comparators alone and a quarter of its constraints of two; scope 3 and
// the corpus in the long run). OpenTofu's experimental engine
// resolves registry modules only on OpenTofu's main branch, which the
// module proxy does not serve: it is a reading of the source, with the
// reason in its doc.
//
// Each policy is an engine.VersionReader whose table judges as Match does
// (TestTablesEqualText), and an engine.Selector that selects as the
// program does, ties included.
package readers
