package policies_test

import (
	"context"
	"fmt"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// releasesOnly is a policy of one's own: every release in range by SemVer
// precedence, never a prerelease, not even one requested exactly.
type releasesOnly struct{}

// Name is the name the policy is registered, listed and asked for by.
func (releasesOnly) Name() string { return "releases-only" }

// Rule is the one-line rule "prerel policies" lists.
func (releasesOnly) Rule() string { return "releases in range by precedence; never a prerelease" }

// Compile reads the constraint with the engine's parser; Judge decides.
func (p releasesOnly) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(p, constraint)
}

// Judge is the rule over parsed values.
func (releasesOnly) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	switch {
	case v.IsPrerelease():
		return engine.Rejected("prerelease: never admitted")
	case !c.Holds(*v):
		return engine.Rejected("release out of range")
	}
	return engine.Allowed("release in range")
}

// Writing your own policy: implement engine.Policy (here with
// engine.CompileNative and a Judge), register it, and every part of prerel
// runs it: the check machinery (engine.Evaluate, engine.Select,
// engine.Explain) and the compare machinery (compare.Run and its report).
// Registering it in the registry a prerel CLI is built with (catalogue.New
// and then Register, in its main) puts it in every command of that CLI.
func Example_ownPolicy() {
	reg := engine.NewRegistry()
	for _, p := range []engine.Policy{releasesOnly{}, policies.Strict{}, policies.Fallback{}} {
		if err := reg.Register(p); err != nil {
			fmt.Println(err)
			return
		}
	}
	own, _ := reg.Lookup("releases-only")

	// Check: one pair, and a selection from a list.
	r := engine.Evaluate(own, "= 2.0.0-beta.1", "2.0.0-beta.1")
	fmt.Println("check:", r.Verdict, "-", r.Reason)
	for _, p := range reg.All() {
		sel, err := engine.Select(p, ">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("select %-13s %q\n", p.Name(), sel.Version)
	}
	for _, step := range engine.Explain(own, ">= 1.0.0", "1.2.0").Steps {
		fmt.Printf("explain %s: %s\n", step.Subject, step.Detail)
	}

	// Compare: every policy of the registry over a tiny domain.
	d, err := compare.Lines("tiny", []byte("= 2.0.0-beta.1\t2.0.0-beta.1\n>= 1.0.0\t1.1.0-beta.1\n>= 1.0.0\t1.2.0\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := compare.Run(context.Background(), d, reg.All(), compare.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range report.Pairs {
		fmt.Printf("compare %s/%s: %d agree, %d diverge\n", p.A, p.B, p.Agree, p.Diverge)
	}
	for _, c := range report.Classes {
		w := c.Witness
		fmt.Printf("witness %s/%s: %s | %s: %v/%v (%s)\n", c.A, c.B, w.Constraint, w.Version, w.AVerdict, w.BVerdict, c.Cause)
	}
	// Output:
	// check: reject - prerelease: never admitted
	// select releases-only ""
	// select strict        ""
	// select fallback      "1.1.0-beta.1"
	// explain policy: releases-only does not explain its rule step by step; this is what it answered
	// explain Compile: accepted the constraint
	// explain Match: allow: release in range
	// compare releases-only/strict: 2 agree, 1 diverge
	// compare releases-only/fallback: 1 agree, 2 diverge
	// compare strict/fallback: 2 agree, 1 diverge
	// witness releases-only/strict: = 2.0.0-beta.1 | 2.0.0-beta.1: reject/allow (prerelease rule)
	// witness releases-only/fallback: = 2.0.0-beta.1 | 2.0.0-beta.1: reject/allow (prerelease rule)
	// witness releases-only/fallback: >= 1.0.0 | 1.1.0-beta.1: reject/allow (prerelease rule)
	// witness strict/fallback: >= 1.0.0 | 1.1.0-beta.1: reject/allow (prerelease rule)
}
