package hclpolicy

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/longtest"
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

// FuzzDecode decodes arbitrary policy files and judges a few cases with
// every policy they hold: no panic; policies exactly when there is no
// error; the same result from a compiled policy (admit specialized for
// the constraint), from admit evaluated as written, and from Explain,
// unless one of them went over its budget (the specialized parts have a
// budget of their own); the same selection twice. Every function is
// allowed: the budget bounds each evaluation (see FuzzBudget).
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
				if x := engine.Explain(p, pair[0], pair[1]); x.Result != got && !overBudget(x.Result) && !overBudget(got) {
					t.Fatalf("%q %q: Evaluate %+v, Explain %+v", pair[0], pair[1], got, x.Result)
				}
				if want, ok := asWritten(p, pair[0], pair[1]); ok && want != got && !overBudget(want) && !overBudget(got) {
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
	if p.checkRefuse(cv, nil) != nil {
		return engine.Result{}, false
	}
	v, err := engine.ParseVersion(version)
	if err != nil {
		return engine.Result{}, false
	}
	obj := versionValue(v, version)
	return p.judge(p.written(), cv, cachedVersion{obj: obj, arg: predecoded(obj, asVersion)}), true
}

// fuzzing reports whether the test binary runs a fuzz target's fuzzing
// (-test.fuzz), not its seed corpus alone.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// overBudget reports whether r is an evaluation over its budget.
func overBudget(r engine.Result) bool {
	return r.Verdict == engine.Invalid && strings.Contains(r.Reason, budgetSummary)
}

// FuzzBudget judges a few cases with admit expressions built from
// arbitrary text, many of them, as the seeds, asking for gigabytes or
// hours: loading and judging each must end within a minute and allocate
// less than 1 GiB, and a case over the budget is invalid with the
// diagnostic at a place in the file.
func FuzzBudget(f *testing.F) {
	for _, s := range []string{
		`length(setproduct(range(1000), range(1000), range(1000))) > 0`,
		`length(replace(replace(replace("aaaaaaaaaa", "a", "aaaaaaaaaa"), "a", "aaaaaaaaaa"), "a", "aaaaaaaaaa")) > 0`,
		`length([for a in range(300) : [for b in range(300) : [for c in range(300) : a + b + c + version.major]]]) > 0`,
		`length(format("%999999999d", 1)) > 0`,
		`strlen(indent(999999999, "a\nb")) > 0`,
		`length(join("", [for i in range(1000) : "${version.text}${join("", [for j in range(1000) : "xxxxxxxx"])}"])) > 0`,
		`length(flatten([for i in range(1000) : [for j in range(1000) : [for k in range(1000) : k]]])) > 0`,
		`can(length(setproduct(range(1000), range(1000), range(1000)))) || true`,
		`length(jsonencode([for i in range(1000) : [for s in [format("%9999s", "")] : [s, s, s, s]]])) > 0`,
		`length(split("", format("%200000s", ""))) > 0`,
		`length(regexall("", format("%200000s", ""))) > 0`,
		`length(concat(range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000))) > 0`,
		`length([for x in range(1000) : version][*].text) > 0`,
		`length(formatlist("%9999s", range(1000))) > 0`,
		`satisfies(constraint, version)`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, admit string) {
		if len(admit) > 1000 {
			t.Skip("long input")
		}
		src := "policy \"p\" {\n  admit = " + admit + "\n}\n"
		file, diags := hclread.ParseHCL([]byte(src), "fuzz.hcl")
		if diags.HasErrors() {
			return
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		ps, diags := Decode(file.Body, Options{Sources: map[string][]byte{"fuzz.hcl": []byte(src)}})
		for _, p := range ps {
			// Three cases under fuzzing and in the long run; one on the
			// seed corpus every day and under -short: each case of a
			// hostile seed spends a whole budget.
			pairs := fuzzPairs[:3]
			if testing.Short() || !longtest.Enabled() && !fuzzing() {
				pairs = pairs[:1]
			}
			for _, pair := range pairs {
				r := engine.Evaluate(p, pair[0], pair[1])
				if overBudget(r) && !strings.HasPrefix(r.Reason, "fuzz.hcl:") {
					t.Fatalf("%q %q: the budget's diagnostic has no place: %s", pair[0], pair[1], r.Reason)
				}
			}
		}
		for _, d := range diags {
			if d.Summary == budgetSummary {
				t.Fatalf("loading reports an exceeded budget: %v", d)
			}
		}
		runtime.ReadMemStats(&after)
		if d := time.Since(start); d > time.Minute {
			t.Fatalf("took %v", d)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<30 {
			t.Fatalf("allocated %d MiB", n>>20)
		}
	})
}
