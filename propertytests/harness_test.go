package propertytests

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

const (
	// defaultSeed is the seed every property runs with unless -seed or
	// PRERELSEED says otherwise. The documented witnesses are the ones
	// gopter shrinks to from this seed.
	defaultSeed = 1
	// defaultTests is the number of successful tests a property needs
	// every day; longTests in the long run (longtest).
	defaultTests = 1000
	longTests    = 5000
	// shortTests is the count under -short, the race detector's run.
	shortTests = 200
	// maxComparators bounds the constraints the properties generate.
	maxComparators = 4
)

var (
	seedFlag  = flag.Int64("seed", 0, "gopter seed for every property (default "+strconv.Itoa(defaultSeed)+"; also PRERELSEED)")
	testsFlag = flag.Int("tests", 0, "successful tests each property needs (default "+strconv.Itoa(defaultTests)+", "+strconv.Itoa(longTests)+" with PREREL_LONG=1; also PRERELTESTS)")
)

// seed returns the seed for this run and whether it is the default one.
func seed(t *testing.T) (int64, bool) {
	if *seedFlag != 0 {
		return *seedFlag, *seedFlag == defaultSeed
	}
	if s := os.Getenv("PRERELSEED"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("PRERELSEED=%q: not an integer", s)
		}
		return n, n == defaultSeed
	}
	return defaultSeed, true
}

func tests(t *testing.T) int {
	if *testsFlag > 0 {
		return *testsFlag
	}
	if s := os.Getenv("PRERELTESTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("PRERELTESTS=%q: not a positive integer", s)
		}
		return n
	}
	if testing.Short() {
		return shortTests
	}
	return longtest.Pick(defaultTests, longTests)
}

// parameters returns fresh test parameters, so that every property sees
// the same stream for a seed whatever else runs.
func parameters(t *testing.T) *gopter.TestParameters {
	s, _ := seed(t)
	p := gopter.DefaultTestParametersWithSeed(s)
	p.MinSuccessfulTests = tests(t)
	p.MaxShrinkCount = 1000
	p.Workers = 1
	p.MaxDiscardRatio = 5
	return p
}

// witnessParameters returns the parameters of a divergence: a search
// that stops at its first counterexample, so it keeps the long run's count
// (or minTests, if larger) as its limit in every run, and the documented
// witness is found from the default seed whatever the run.
func witnessParameters(t *testing.T, minTests int) *gopter.TestParameters {
	p := parameters(t)
	p.MinSuccessfulTests = max(p.MinSuccessfulTests, longTests, minTests)
	return p
}

// registry holds the policies the suites judge with: the catalogue.
var registry = catalogue.New()

// policy returns a registered policy, failing the test when it is missing.
func policy(t *testing.T, name string) engine.Policy {
	t.Helper()
	p, ok := registry.Lookup(name)
	if !ok {
		t.Fatalf("policy %q is not registered (registered: %s)", name, strings.Join(registry.Names(), ", "))
	}
	return p
}

// natives are the native policies every native property covers.
var natives = []string{"strict", "lexical", "cargo"}

// adapterNames are the wrapped libraries.
var adapterNames = []string{
	"hashicorp", "apparentlymart", "apparentlymart-exact", "masterminds",
	"masterminds-pre", "terraform-module", "opentofu-module",
}

func verdict(p engine.Policy, c, v string) engine.Result {
	return engine.Evaluate(p, c, v)
}

// exclusion names a quirk a property does not speak about, and says why.
type exclusion struct {
	name    string
	why     string
	applies func(generate.CaseSpec) bool
}

// caseProperty is a property of generated cases. check returns "" when the
// property holds for the case and otherwise says how it fails.
type caseProperty struct {
	name       string
	doc        string
	exclusions []exclusion
	check      func(generate.CaseSpec) string
	// exact draws a version V from generate.Version instead of a case from
	// generate.Case, and checks the two cases "= V" with V and "V" with V.
	exact bool
}

// exactCases returns the cases "= V" and the bare "V", each with V.
func exactCases(v generate.VersionSpec) []generate.CaseSpec {
	var out []generate.CaseSpec
	for _, bare := range []bool{false, true} {
		c := generate.ComparatorSpec{Op: engine.OpEqual, Bare: bare, Precision: 3, Version: v}
		out = append(out, generate.CaseSpec{
			Constraint: generate.ConstraintSpec{Comparators: []generate.ComparatorSpec{c}},
			Version:    v,
		})
	}
	return out
}

// run checks the property and returns gopter's result. Cases an exclusion
// applies to are discarded, during generation and shrinking alike; hits
// counts them by exclusion.
func (p caseProperty) run(params *gopter.TestParameters) (*gopter.TestResult, map[string]int) {
	hits := map[string]int{}
	excluded := func(c generate.CaseSpec) bool {
		for _, e := range p.exclusions {
			if e.applies(c) {
				hits[e.name]++
				return true
			}
		}
		return false
	}
	if p.exact {
		gen := generate.Version()
		if len(p.exclusions) > 0 {
			gen = gen.SuchThat(func(v generate.VersionSpec) bool {
				for _, c := range exactCases(v) {
					if excluded(c) {
						return false
					}
				}
				return true
			})
		}
		return prop.ForAll(func(v generate.VersionSpec) string {
			for _, c := range exactCases(v) {
				if msg := p.check(c); msg != "" {
					return msg
				}
			}
			return ""
		}, gen).Check(params), hits
	}
	gen := generate.Case(maxComparators)
	if len(p.exclusions) > 0 {
		gen = gen.SuchThat(func(c generate.CaseSpec) bool { return !excluded(c) })
	}
	return prop.ForAll(p.check, gen).Check(params), hits
}

// counterexample renders a falsified result: the shrunk case, the original
// one, and what the check said about the shrunk case.
func counterexample(res *gopter.TestResult) string {
	var b strings.Builder
	for _, a := range res.Args {
		fmt.Fprintf(&b, "\n  shrunk (%d steps): %v", a.Shrinks, a.Arg)
		if c, ok := a.Arg.(generate.CaseSpec); ok {
			fmt.Fprintf(&b, "\n    constraint: %s\n    version:    %s", c.Constraint, c.Version)
		}
		fmt.Fprintf(&b, "\n  original: %v", a.OrigArg)
	}
	for _, l := range res.Labels {
		fmt.Fprintf(&b, "\n  %s", l)
	}
	if res.Error != nil {
		fmt.Fprintf(&b, "\n  error: %v", res.Error)
	}
	return b.String()
}

// requireHolds fails t unless the property passed, printing the seed and
// the shrunk counterexample.
func requireHolds(t *testing.T, name string, res *gopter.TestResult, hits map[string]int) {
	t.Helper()
	s, _ := seed(t)
	if !res.Passed() {
		t.Errorf("property %q %s with seed %d after %d passed tests (rerun with PRERELSEED=%d):%s",
			name, res.Status, s, res.Succeeded, s, counterexample(res))
		return
	}
	msg := fmt.Sprintf("%q holds: %d tests (seed %d)", name, res.Succeeded, s)
	if res.Discarded > 0 {
		var excl []string
		for n, k := range hits {
			excl = append(excl, fmt.Sprintf("%s %d", n, k))
		}
		sort.Strings(excl)
		msg += fmt.Sprintf("; %d cases discarded by exclusions (%s)", res.Discarded, strings.Join(excl, ", "))
	}
	t.Log(msg)
}

// requireFalsified fails t unless gopter falsified the property and shrank
// it to the documented witness. With a seed other than the default the
// witness may differ; it is then reported, not compared.
func requireFalsified(t *testing.T, name, witness string, res *gopter.TestResult) {
	t.Helper()
	s, isDefault := seed(t)
	if res.Status != gopter.TestFailed {
		t.Errorf("divergence %q was not falsified with seed %d: %s after %d tests", name, s, res.Status, res.Succeeded)
		return
	}
	got := fmt.Sprint(res.Args[0].Arg)
	if !isDefault {
		t.Logf("divergence %q with seed %d falsified after %d tests, shrunk to %s", name, s, res.Succeeded, got)
		return
	}
	if got != witness {
		t.Errorf("divergence %q with seed %d shrank to another witness after %d tests:\n  got  %s\n  want %s%s", name, s, res.Succeeded, got, witness, counterexample(res))
		return
	}
	t.Logf("divergence %q falsified after %d tests, shrunk to %s", name, res.Succeeded, got)
}

// describe says what each policy answers for a case, for failure messages.
func describe(c, v string, ps ...engine.Policy) string {
	var b strings.Builder
	fmt.Fprintf(&b, "constraint %q version %q:", c, v)
	for _, p := range ps {
		r := verdict(p, c, v)
		fmt.Fprintf(&b, " %s %s (%s);", p.Name(), r.Verdict, r.Reason)
	}
	return strings.TrimSuffix(b.String(), ";")
}

// agree is the check that two policies give the same verdict.
func agree(a, b engine.Policy) func(generate.CaseSpec) string {
	return func(k generate.CaseSpec) string {
		c, v := k.Constraint.String(), k.Version.String()
		if verdict(a, c, v).Verdict == verdict(b, c, v).Verdict {
			return ""
		}
		return describe(c, v, a, b)
	}
}

// contains is the check that every version a admits, b admits.
func contains(a, b engine.Policy) func(generate.CaseSpec) string {
	return func(k generate.CaseSpec) string {
		c, v := k.Constraint.String(), k.Version.String()
		if verdict(a, c, v).Verdict != engine.Allow || verdict(b, c, v).Verdict == engine.Allow {
			return ""
		}
		return describe(c, v, a, b)
	}
}
