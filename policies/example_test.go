package policies_test

import (
	"errors"
	"fmt"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// A program imports one policy and checks a version against a constraint.
func Example() {
	p := policies.Cargo{}
	for _, v := range []string{"1.1.0-beta.3", "2.0.0-beta.1", "1.2.0", "1.2"} {
		r := engine.Evaluate(p, ">= 1.1.0-beta.2", v)
		fmt.Printf("%-12s %-7v %s\n", v, r.Verdict, r.Reason)
	}
	// Output:
	// 1.1.0-beta.3 allow   prerelease: a comparator with the same base names a prerelease, and every comparator holds
	// 2.0.0-beta.1 reject  prerelease: no comparator with the same base names a prerelease (only other bases do)
	// 1.2.0        allow   release satisfies every comparator
	// 1.2          invalid version "1.2": column 4: expected MAJOR.MINOR.PATCH, found only 2 numeric parts
}

// A few policies the examples compare, one refusing a constraint that
// names a prerelease.
var some = []engine.Policy{policies.Strict{}, policies.Lexical{}, policies.Cargo{}, policies.Linear{}, policies.CoreOnly{}}

// Compile a constraint once and judge many versions with each policy.
func Example_compare() {
	const constraint = "~> 1.2.3-beta"
	versions := []string{"1.2.3-rc.1", "1.2.4", "1.3.0-beta"}
	for _, p := range some {
		m, err := p.Compile(constraint)
		if err != nil {
			fmt.Printf("%-13s refuses it: %v\n", p.Name(), errors.Unwrap(err))
			continue
		}
		fmt.Printf("%-13s", p.Name())
		for _, v := range versions {
			fmt.Printf(" %s=%v", v, m.Match(v).Verdict)
		}
		fmt.Println()
	}
	// Output:
	// strict        1.2.3-rc.1=reject 1.2.4=allow 1.3.0-beta=reject
	// lexical       1.2.3-rc.1=allow 1.2.4=reject 1.3.0-beta=reject
	// cargo         1.2.3-rc.1=allow 1.2.4=allow 1.3.0-beta=reject
	// linear        1.2.3-rc.1=allow 1.2.4=allow 1.3.0-beta=allow
	// core-only     refuses it: prerelease version constraints are not supported
}

// engine.Select picks the version each policy would install from a list.
func Example_select() {
	available := []string{"1.1.0", "1.2.0-beta.1", "1.2.0-rc.1", "1.2.1", "1.3.0-rc.1", "not-a-version"}
	for _, p := range some {
		sel, err := engine.Select(p, "~> 1.2.0-beta.1", available)
		if err != nil {
			fmt.Printf("%-13s refuses the constraint: %v\n", p.Name(), errors.Unwrap(err))
			continue
		}
		fmt.Printf("%-13s %q found=%v unreadable=%d\n", p.Name(), sel.Version, sel.Found, len(sel.Unreadable))
	}
	// Output:
	// strict        "1.2.1" found=true unreadable=1
	// lexical       "1.2.0-rc.1" found=true unreadable=1
	// cargo         "1.2.1" found=true unreadable=1
	// linear        "1.3.0-rc.1" found=true unreadable=1
	// core-only     refuses the constraint: prerelease version constraints are not supported
}

// A program registers the policies it wants in a registry of its own and
// looks them up by name; importing the package registers nothing.
// (catalogue.New returns a registry holding every policy prerel ships.)
func Example_registry() {
	reg := engine.NewRegistry()
	for _, p := range policies.All() {
		if err := reg.Register(p); err != nil {
			fmt.Println(err)
			return
		}
	}
	p, ok := reg.Lookup("strict")
	fmt.Println(ok, p.Rule())
	fmt.Println(engine.Evaluate(p, ">= 1.0.0, = 2.0.0-beta", "2.0.0-beta").Verdict)
	fmt.Println(reg.Register(policies.Strict{}))
	// Output:
	// true a prerelease only when an = comparator names exactly that version; releases by precedence
	// allow
	// register: a policy named "strict" is already registered
}
