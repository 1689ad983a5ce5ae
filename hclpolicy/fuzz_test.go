package hclpolicy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/hclread"
)

// fuzzPairs are the cases every decoded policy judges under fuzzing.
var fuzzPairs = [][2]string{
	{">= 1.1.0-beta.2", "1.1.0-beta.3"},
	{"~> 1.2", "2.0.0-beta.1"},
	{">= 1.0.0, != 1.5.0-rc.1, < 2.0.0", "1.5.0-rc.2"},
	{"~> 1.2.3-beta, = 1.2", "v1.2.4+b"},
	{"", "1.0.0"},
	{">=", "1.0.0"},
	{"1.0.0", "1.0"},
}

// expensive lists functions whose arguments can make one evaluation take
// unbounded memory or time (a width of a billion, a product of lists);
// fuzzing skips the inputs that call them, as it skips long inputs.
var expensive = []string{"format", "indent", "setproduct", "range", "chunklist", "strrev", "jsondecode"}

// FuzzDecode decodes arbitrary policy files and judges a few cases with
// every policy they hold: no panic; policies exactly when there is no
// error; the same result from a compiled policy (admit specialized for
// the constraint), from admit evaluated as written, and from Explain;
// the same selection twice.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/designs/*.hcl")
	for _, s := range seeds {
		src, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	for _, s := range specializedCases {
		f.Add("policy \"p\" {\n  admit = " + s + "\n}\n")
	}
	f.Add("policy \"a\" {\n  refuse = constraint.names_prerelease\n  admit = true\n  select = \"fallback\"\n}\n")
	f.Add("policy \"a\" {\n  admit = version.prerelease[0] == \"beta\"\n}\npolicy \"a\" {\n  admit = 1\n}\n")
	f.Add("policy \"a\" {\n  command = [\"x\"]\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			t.Skip("long input")
		}
		for _, name := range expensive {
			if strings.Contains(src, name) {
				t.Skip("expensive function")
			}
		}
		file, diags := hclread.ParseHCL([]byte(src), "fuzz.hcl")
		if diags.HasErrors() {
			return
		}
		ps, diags := Decode(file.Body, Options{Sources: map[string][]byte{"fuzz.hcl": []byte(src)}})
		if diags.HasErrors() != (ps == nil) && len(ps) > 0 {
			t.Fatalf("%d policies with %d errors", len(ps), len(diags.Errs()))
		}
		for _, p := range ps {
			if p.Name() == "" || p.Rule() == "" || strings.ContainsAny(p.Rule(), "\r\n") {
				t.Fatalf("policy %q, rule %q", p.Name(), p.Rule())
			}
			for _, pair := range fuzzPairs {
				got := engine.Evaluate(p, pair[0], pair[1])
				if x := engine.Explain(p, pair[0], pair[1]); x.Result != got {
					t.Fatalf("%q %q: Evaluate %+v, Explain %+v", pair[0], pair[1], got, x.Result)
				}
				if want, ok := asWritten(p, pair[0], pair[1]); ok && want != got {
					t.Fatalf("%q %q: compiled %+v, as written %+v", pair[0], pair[1], got, want)
				}
			}
			versions := []string{"1.0.0", "1.1.0-beta.3", "2.0.0-beta.1", "bad"}
			a, errA := engine.Select(p, ">= 1.0.0-beta", versions)
			b, errB := engine.Select(p, ">= 1.0.0-beta", versions)
			if (errA == nil) != (errB == nil) || a.Version != b.Version || a.Found != b.Found {
				t.Fatalf("selection differs: %+v, %+v", a, b)
			}
		}
	})
}

// asWritten is admit evaluated as written for the pair; ok is false when
// the policy refuses the constraint or cannot read the pair.
func asWritten(p *Policy, constraint, version string) (engine.Result, bool) {
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		return engine.Result{}, false
	}
	cv := constraintValue(c)
	if p.checkRefuse(cv) != nil {
		return engine.Result{}, false
	}
	v, err := engine.ParseVersion(version)
	if err != nil {
		return engine.Result{}, false
	}
	obj := versionValue(v, version)
	return p.judge(p.written(), cv, cachedVersion{obj: obj, arg: predecoded(obj, asVersion)}), true
}
