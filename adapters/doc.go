// Package adapters wraps the real version libraries as engine.Policy values,
// so that what Terraform, OpenTofu and other tools actually do can be put
// side by side with the native policies. All lists them in this order;
// package catalogue registers them, after the native policies, into an
// engine.Registry:
//
//	hashicorp             hashicorp/go-version NewConstraint, NewVersion, Constraints.Check
//	apparentlymart        apparentlymart/go-versions ParseRubyStyleMulti, ParseVersion,
//	                      MeetingConstraints(spec).Has (Terraform's and OpenTofu's provider installer)
//	apparentlymart-exact  the same with MeetingConstraintsExact
//	masterminds           Masterminds/semver/v3 NewConstraint, NewVersion, Constraints.Check
//	masterminds-pre       the same with IncludePrerelease
//	terraform-module      Terraform's module installer filter, from go-version and go-versions
//	opentofu-module       the same with OpenTofu's retry on "v" prefixes
//	go-versions-cargo     the cargo rule built in go-versions' set algebra from the
//	                      ParseRubyStyleMulti spec tree, as the provider installer would ship it
//
// go-versions-cargo is the one adapter whose rule is not a library's own:
// it is Cargo's prerelease rule written with go-versions' sets (AtLeast,
// OlderThan, Only, Intersection, Union, WithoutUnrequestedPrereleases) over
// the constraint as the provider installer parses it, so that a proposal to
// Terraform can be compared with the native cargo policy it implements.
// Its tests prove it against cargo on the exhaustive domain: every
// divergence is a way go-versions reads the text (a "v" prefix, build
// metadata in "=" and "!=", its prerelease precedence, 0.0.0), none the
// prerelease rule.
//
// # Exact behaviour
//
// An adapter reports what its library does with the input a user gives it,
// quirks included; it never corrects one. Each type's documentation lists
// the library calls it makes and the quirks to expect, and the package's
// tests pin every one of them with literal expectations taken from running
// the library, so a library upgrade that changes behaviour fails them. The
// versions are those pinned in go.mod: hashicorp/go-version v1.9.0,
// apparentlymart/go-versions v1.0.3, Masterminds/semver/v3 v3.5.0.
//
// Input a library refuses, constraint or version, is engine.Invalid with
// the library's error text as the reason, prefixed by the call that refused
// it; it is never a silent Reject. The one exception is Terraform's own: the
// module installers exclude a prerelease when the second parser refuses
// the constraint, and the adapters report that as Reject, as it happens.
// go-versions panics on numbers that do not fit in uint64; every library
// call runs under recover, and a panic is Invalid with a reason that says
// which call panicked and why. Nothing in this package panics on any
// input.
//
// Reasons say what the library was asked and what it answered, for example
// "go-version Check: false (\">= 1.0.0\" refuses it)" or
// "go-versions MeetingConstraints: not in set (prerelease not requested
// exactly)".
//
// # Syntax
//
// hashicorp, apparentlymart* and the module installers hand the constraint
// text to their library as written, so each shows its own syntax: go-version
// accepts a "v" prefix and versions of any number of parts, go-versions'
// Ruby-style parser refuses "v" and more than one space after an operator.
// The empty constraint "" is refused by go-version's NewConstraint, so
// hashicorp answers Invalid; the module installers read it as a module call
// without a version argument (the empty Constraints, which every version
// passes); go-versions reads it as the empty intersection (all versions).
//
// Masterminds reads "~>" and partial versions differently from Terraform
// ("~> 1.2" is its tilde, < 1.3.0; "<= 1.2" is an x-range that admits
// 1.2.5). The masterminds adapters therefore translate the constraint, read
// with engine.ParseConstraint, into explicit three-part comparators with
// the Terraform meaning (see MastermindsConstraint): "~> 1.2.3" becomes
// ">=1.2.3, <1.3.0", "~> 1.2" becomes ">=1.2.0, <2.0.0", "<= 1.2" becomes
// "<=1.2.0", the "v" prefix is dropped and "" becomes "*". Only the
// prerelease rule then differs.
//
// # Selection and explanations
//
// Every adapter implements engine.Selector: versions are ordered by the
// library's own precedence (go-version's, go-versions' or Masterminds'
// GreaterThan), keeping the first of equal ones as Terraform's installer
// loop does, and versions the library cannot read are listed as
// Unreadable. Every adapter implements engine.Explainer: each step names a
// library call and what it answered, and the result is the one Evaluate
// gives.
//
// # Fast path
//
// Every adapter implements engine.VersionReader. ReadVersions parses each
// version once with the library's own parser (go-version's NewVersion,
// go-versions' ParseVersion, Masterminds' NewVersion), keeping its error
// for the Invalid result Match gives; the tables of the adapters that
// read versions alike (hashicorp and the module installers; masterminds
// and masterminds-pre) and read the same list in turn share its versions
// and its pieces' answers. Compile reads the constraint as
// Compile does, one comma-separated piece at a time as the libraries read
// it (the masterminds adapters: one translated comparator at a time), and
// the table keeps each piece it has met with the library's answer for
// every version, computed once with the library's own calls; Verdicts
// combines the pieces' answers as the library combines its pieces,
// without allocating. A constraint the go-versions or Masterminds
// adapters cannot take piece by piece (the empty constraint, blank text,
// a translation that is too long, a piece the library refuses alone) is
// compiled whole, as Compile does, and judged with the library's check.
// Judge gives Match's result, reason included, for the version the table
// read. Every quirk above holds on the fast path too: the tests prove the
// tables equal to Compile and Match on the exhaustive domain, on random
// constraints and on the fuzz seeds, and BenchmarkTable reports the
// speed-up.
package adapters
