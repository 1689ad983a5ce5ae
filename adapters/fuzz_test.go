package adapters

import (
	"testing"

	"github.com/prerel/prerel/engine"
)

// fuzzSeeds are added to every fuzz target besides the verdict table's
// pairs: odd syntax, huge numbers, the parsers' edge cases.
var fuzzSeeds = [][2]string{
	{"", ""},
	{"v", "v"},
	{"~>", "1"},
	{"=", "="},
	{",", "1.0.0"},
	{">= 1.0.0,", "1.0.0"},
	{"1.*", "1.2.3"},
	{"^1.2", "1.2.3"},
	{"~1.2", "1.2.3"},
	{"1.0.0 - 2.0.0", "1.5.0"},
	{">=1.0.0 <2.0.0 || 3.0.0", "3.0.0"},
	{"1.0.0-beta1 || >2", "2.0.0-beta1"},
	{"~> 0", "0.0.0"},
	{"~> 0.0.0-0", "0.0.0-0"},
	{"< 0.0.0-0", "0.0.0-0"},
	{"!= 0.0.0", "0.0.0"},
	{"> 18446744073709551615.18446744073709551615.18446744073709551615", "18446744073709551615.18446744073709551615.18446744073709551615"},
	{"~> 18446744073709551615.18446744073709551615.0", "18446744073709551615.18446744073709551615.1"},
	{"~> 9223372036854775807", "9223372036854775808.0.0"},
	{"= 1.0.0-" + "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p", "1.0.0-a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p"},
	{"= 1.0.0-01", "1.0.0-01"},
	{"= 1.0.0-x-y-z.--", "1.0.0-x-y-z.--"},
	{"= 1.0.0+build.007", "1.0.0+build.007"},
	{"1.0.0.0.0.0", "1.0.0.0.0.0"},
	{">= 1.0.0-~", "1.0.0-~"},
	{"\t>= 1.0.0\t", "1.0.0"},
	{">= 1.0.0\n", "1.0.0\n"},
	{"V1.0.0", "V1.0.0"},
	{"vv1.0.0", "vv1.0.0"},
	{"= x", "x"},
	{">= 1.0.0, v", "1.0.0"},
	{"=> 1.0.0", "1.0.0"},
	{"=< 1.0.0", "1.0.0"},
	{"~> 1.2.x", "1.2.0"},
	{"1.x.0", "1.0.0"},
}

func addFuzzSeeds(f *testing.F) {
	for _, tt := range verdictTests {
		f.Add(tt.constraint, tt.version)
	}
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1])
	}
}

// checkConsistent is what every fuzz target checks for one adapter: no
// panic, the same verdict from Evaluate twice, from Explain, from Compile
// and Match and from Select on a list holding the version twice, a reason
// on every result, and the same refusal or results from the adapter's
// table of a few versions and of the version alone (checkTable).
func checkConsistent(t *testing.T, p engine.Policy, constraint, version string) {
	versions := []string{version, "1.0.0", version + "-beta", version}
	checkTable(t, p.(engine.VersionReader).ReadVersions(versions), p, constraint, versions)

	r := engine.Evaluate(p, constraint, version)
	if again := engine.Evaluate(p, constraint, version); again != r {
		t.Fatalf("%s: %q | %q: Evaluate gave %v, then %v", p.Name(), constraint, version, r, again)
	}
	if r.Reason == "" {
		t.Fatalf("%s: %q | %q: %s without a reason", p.Name(), constraint, version, r.Verdict)
	}
	if r.Verdict > engine.Invalid {
		t.Fatalf("%s: %q | %q: unknown verdict %d", p.Name(), constraint, version, r.Verdict)
	}

	if x, ok := p.(engine.Explainer); ok {
		e := x.Explain(constraint, version)
		if e.Result != r || len(e.Steps) == 0 {
			t.Fatalf("%s: %q | %q: Explain = %v with %d steps, Evaluate = %v", p.Name(), constraint, version, e.Result, len(e.Steps), r)
		}
	}

	m, compileErr := p.Compile(constraint)
	if compileErr != nil {
		if r.Verdict != engine.Invalid || compileErr.Error() == "" {
			t.Fatalf("%s: Compile(%q) failed with %q, Evaluate = %v", p.Name(), constraint, compileErr, r)
		}
	} else if got := m.Match(version); got != r {
		t.Fatalf("%s: %q | %q: Compile+Match = %v, Evaluate = %v", p.Name(), constraint, version, got, r)
	}

	alone := []string{version}
	checkTable(t, engine.ReadVersions(p, alone), p, constraint, alone)

	sel, err := engine.Select(p, constraint, []string{version, version})
	if compileErr != nil {
		if err == nil {
			t.Fatalf("%s: Select(%q) accepted a constraint Compile refuses", p.Name(), constraint)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: Select(%q): %v, Compile accepted it", p.Name(), constraint, err)
	}
	switch r.Verdict {
	case engine.Allow:
		if !sel.Found || sel.Version != version || len(sel.Unreadable) != 0 {
			t.Fatalf("%s: %q | %q allowed, Select = %+v", p.Name(), constraint, version, sel)
		}
	case engine.Reject:
		if sel.Found || len(sel.Unreadable) != 0 {
			t.Fatalf("%s: %q | %q rejected, Select = %+v", p.Name(), constraint, version, sel)
		}
	case engine.Invalid:
		if sel.Found || len(sel.Unreadable) != 2 || sel.Unreadable[0].Version != version || sel.Unreadable[0].Reason != r.Reason {
			t.Fatalf("%s: %q | %q invalid (%s), Select = %+v", p.Name(), constraint, version, r.Reason, sel)
		}
	}
}

func fuzzOne(f *testing.F, p engine.Policy) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, constraint, version string) {
		checkConsistent(t, p, constraint, version)
	})
}

// FuzzAdapters runs every adapter on each input.
func FuzzAdapters(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, constraint, version string) {
		for _, p := range All() {
			checkConsistent(t, p, constraint, version)
		}
	})
}

func FuzzHashiCorp(f *testing.F)           { fuzzOne(f, HashiCorp{}) }
func FuzzApparentlyMart(f *testing.F)      { fuzzOne(f, ApparentlyMart{}) }
func FuzzApparentlyMartExact(f *testing.F) { fuzzOne(f, ApparentlyMart{Exact: true}) }
func FuzzMasterminds(f *testing.F)         { fuzzOne(f, Masterminds{}) }
func FuzzMastermindsPre(f *testing.F)      { fuzzOne(f, Masterminds{IncludePrerelease: true}) }
func FuzzTerraformModule(f *testing.F)     { fuzzOne(f, ModuleInstaller{}) }
func FuzzOpenTofuModule(f *testing.F)      { fuzzOne(f, ModuleInstaller{OpenTofu: true}) }
func FuzzGoVersionsCargo(f *testing.F)     { fuzzOne(f, GoVersionsCargo{}) }
