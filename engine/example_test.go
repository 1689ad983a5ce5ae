package engine_test

import (
	"fmt"

	"github.com/prerel/prerel/engine"
)

// sameRelease admits a version when the constraint holds for it and,
// for a prerelease, when a comparator names a prerelease of the same
// release: a small rule of the kind package policies holds, written as
// an engine.Judge.
type sameRelease struct{}

func (sameRelease) Name() string { return "same-release" }
func (sameRelease) Rule() string {
	return "a prerelease only where a comparator names one of its release"
}
func (p sameRelease) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(p, constraint)
}

func (sameRelease) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	if !c.Holds(*v) {
		return engine.Rejected("the constraint does not hold")
	}
	if !v.IsPrerelease() {
		return engine.Allowed("a release within the constraint")
	}
	for _, cmp := range c.Comparators() {
		if cmp.NamesPrerelease() && cmp.Version.SameCore(*v) {
			return engine.Allowed("a comparator names a prerelease of " + v.Core().String())
		}
	}
	return engine.Rejected("no comparator names a prerelease of " + v.Core().String())
}

// A constraint is parsed once, with the place of any error.
func ExampleParseConstraint() {
	c, err := engine.ParseConstraint(">= 1.2.0-beta.1, < 2.0.0")
	fmt.Println(c.Len(), "comparators, the first:", c.Comparators()[0], err)
	_, err = engine.ParseConstraint(">= 1.2.0,")
	fmt.Println(err)
	// Output:
	// 2 comparators, the first: >= 1.2.0-beta.1 <nil>
	// constraint ">= 1.2.0,": column 10: expected a comparator after ",", found end of input
}

// Evaluate judges one case: a verdict and its reason.
func ExampleEvaluate() {
	p := sameRelease{}
	for _, v := range []string{"1.2.0-beta.2", "1.3.0-rc.1", "1.3.0"} {
		r := engine.Evaluate(p, ">= 1.2.0-beta.1, < 2.0.0", v)
		fmt.Printf("%s: %s (%s)\n", v, r.Verdict, r.Reason)
	}
	// Output:
	// 1.2.0-beta.2: allow (a comparator names a prerelease of 1.2.0)
	// 1.3.0-rc.1: reject (no comparator names a prerelease of 1.3.0)
	// 1.3.0: allow (a release within the constraint)
}

// Select picks what an installer would install: the newest version the
// policy admits.
func ExampleSelect() {
	available := []string{"1.1.0", "1.2.0-beta.1", "1.2.0-beta.2", "1.3.0-rc.1"}
	s, err := engine.Select(sameRelease{}, ">= 1.2.0-beta.1", available)
	fmt.Println(s, err)
	s, err = engine.Select(sameRelease{}, ">= 1.0.0", available)
	fmt.Println(s, err)
	// Output:
	// 1.2.0-beta.2 <nil>
	// 1.1.0 <nil>
}
