package hclpolicy_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/longtest"
)

// hostile are admit expressions that, without a budget, take gigabytes
// or minutes to evaluate, with the place of the diagnostic each gives
// (line 2 of the file, this column) and the start of its detail.
var hostile = []struct {
	name, admit string
	col         int
	detail      string
}{
	{"setproduct", `length(setproduct(range(1000), range(1000), range(1000))) > 0`, 18,
		"setproduct: the result would have 3000000000 elements"},
	{"replace", `length(` + strings.Repeat("replace(", 10) + `"aaaaaaaaaa"` + strings.Repeat(`, "a", "aaaaaaaaaa")`, 10) + `) > 0`, 18 + 5*8,
		"replace: the result would be 1100000 bytes long"},
	{"nested-for", `length([for a in range(300) : [for b in range(300) : [for c in range(300) : a + b + c]]]) > 0`, 64,
		"the for expression: the evaluation takes more than"},
	{"nested-for-version", `length([for a in range(300) : [for b in range(300) : [for c in range(300) : a + b + c + version.major]]]) > 0`, 0,
		"the evaluation takes more than"},
	{"format-width", `length(format("%999999999d", 1)) > 0`, 18, "format: the result would be 10000000"},
	{"indent", `length(indent(999999999, "a\nb")) > 0`, 18, "indent: the result would be"},
	{"template", `length(join("", [for i in range(1000) : "${version.text}${join("", [for j in range(1000) : "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"])}"])) > 0`, 0,
		"the evaluation takes more than"},
	{"splat", `length([for i in range(1000) : range(1000)][*][0]) > 0 && length([for i in range(1000) : [for j in range(1000) : range(1000)][*][0]]) > 0`, 0,
		"the evaluation takes more than"},
	{"jsonencode", `length(jsonencode([for i in range(1000) : [for s in [replace("aaaaaaaaaa", "a", "aaaaaaaaaaaaaaaaaaaa")] : [s, s, s, s, s, s, s, s]]])) > 0`, 0,
		"the evaluation takes more than"},
	{"can", `can(length(setproduct(range(1000), range(1000), range(1000)))) || true`, 22,
		"setproduct: the result would have"},
	{"try", `try(length(setproduct(range(1000), range(1000), range(1000))) > 0, true)`, 22,
		"setproduct: the result would have"},
	{"flatten", `length(flatten([for i in range(1000) : [for j in range(1000) : [for k in range(1000) : k]]])) > 0`, 0,
		"the evaluation takes more than"},
	// Work that grows faster than the arguments and the result, charged
	// before the function runs.
	{"distinct", `length(distinct(split(",", join(",", range(300))))) > 0`, 18,
		"distinct, comparing each pair of its 300 elements: the evaluation takes more than"},
	{"tomap", `length(tomap({for i in range(600) : "k${i}" => i})) > 0`, 18,
		"tomap, converting an object of 600 attributes: the evaluation takes more than"},
	{"tolist", `length(tolist([for i in range(1000) : i])) > 0`, 18,
		"tolist, converting a tuple of 1000 elements: the evaluation takes more than"},
	{"concat", `length(concat([for i in range(1000) : i], [1])) > 0`, 18,
		"concat, unifying the types of its 2 arguments and their elements: the evaluation takes more than"},
	{"sort", `length(sort(split(",", join(",", range(1024))))) > length(sort(split(",", join(",", range(1024)))))`, 69,
		"sort, sorting its 1024 elements: the evaluation takes more than"},
	{"regex-pattern", `can(regex(replace(format("%0200d", 0), "0", "[\\pL\\pN\\pS]?"), version.text))`, 15,
		"regex: the pattern is 2400 bytes long, more than the 1024 a pattern may be"},
	{"regex-run", `can(regex(replace(format("%085d", 0), "0", "[\\pL\\pN\\pS]?"), format("%0100000d", 0)))`, 15,
		"regex, running a pattern of about 8862 instructions over 100000 bytes: the evaluation takes more than"},
	// A value made large cheaply, by referring to one list a thousand
	// times, costs its size each time it is passed.
	{"shared-argument", `length(flatten([for y in [for x in [[for i in range(1000) : i]] : [for a in range(1000) : x]] : [for b in range(10) : y]])) > 0`, 26,
		"the argument of flatten: the evaluation takes more than"},
	{"repeated-argument", `length([for x in [[for i in range(1000) : i]] : [for a in range(1000) : length(x)]]) > 0`, 90,
		"the argument of length: the evaluation takes more than"},
	// A number with a huge exponent is as long as its digits.
	{"number-digits", `strlen("${jsondecode("1e100000000")}") > 0`, 21,
		"the result of jsondecode: the evaluation takes more than"},
	// prerel's own functions read what they are handed each time: one
	// list of a thousand comparators handed to satisfies a thousand
	// times took half a second, and more with longer texts.
	{"satisfies-shared", `alltrue([for x in [[for i in range(1000) : ">= 1.0"]] : alltrue([for a in range(1000) : satisfies(x, version)])])`, 99,
		"satisfies, reading "},
	{"satisfies-text", `alltrue([for x in [format(">= 1.0.0-a%0150000d", 0)] : alltrue([for a in range(1000) : satisfies(x, version)])])`, 98,
		"satisfies, reading 1500"},
	{"holds-object", `alltrue([for x in [{op = ">=", version = format("1.0.0-a%0150000d", 0)}] : alltrue([for a in range(1000) : holds(x, version)])])`, 118,
		"holds, reading 1 comparators and 1500"},
	{"compare-text", `alltrue([for x in [format("1.0.0-a%0100000d", 0)] : alltrue([for a in range(1000) : compare(x, version) != 2])])`, 95,
		"compare, reading 1000"},
	{"alltrue-shared", `alltrue([for x in [[for i in range(1000) : version.major > 0]] : alltrue([for a in range(1000) : alltrue(x)])])`, 108,
		"alltrue, looking at its 1000 elements: the evaluation takes more than"},
	// HCL's operators, conditionals, keys and indexes convert and compare
	// what they are handed: one list compared a thousand times took 1.6 s
	// in one evaluation; a number of ten million digits written out as a
	// conditional's result, 19 s.
	{"equal-shared", `alltrue([for x in [[for i in range(1000) : i]] : alltrue([for a in range(1000) : x == x])])`, 97,
		"the operand of ==: the evaluation takes more than"},
	{"conditional-unify", `alltrue([for x in [[for i in range(600) : i]] : alltrue([for y in [split(",", join(",", range(600)))] : alltrue([for a in range(300) : (a > 0 ? x : y)[0] == 0])])])`, 155,
		"the result of the conditional: the evaluation takes more than"},
	{"conditional-number", `(version.is_prerelease ? 1e10000000 : "x") != ""`, 36,
		"the result of the conditional: the evaluation takes more than"},
	{"object-key-number", `length({(1e10000000) = version.major}) > 0`, 19,
		"the key of the object: the evaluation takes more than"},
	{"for-key-number", `length({for i in range(2) : (i > 0 ? i : 1e10000000) => version.major}) > 0`, 0,
		"the evaluation takes more than"},
	{"index-number", `try(tomap({a = version.text})[(1e10000000)], "") != ""`, 41,
		"the index: the evaluation takes more than"},
	{"string-to-number", `alltrue([for s in [format("%0200000d", 1)] : alltrue([for a in range(300) : s + 0 > version.major])])`, 87,
		"the operand of +: the evaluation takes more than"},
	// Go's regexp searches again after each match, and a search may read
	// on to the end of the string while an alternative that would take
	// precedence may still match: twenty thousand searches to the end of
	// twenty thousand bytes took about 9 s in one call.
	{"regex-replace-searches", `regex_replace(format("%020000d", 0), "0*1|0", "x") != version.text`, 11,
		"regex_replace, searching the string again after a match: the evaluation takes more than"},
	{"regexall-searches", `length(regexall("0*1|0", format("%09000d", 0))) > version.major`, 18,
		"regexall, searching the string again after a match: the evaluation takes more than"},
	{"parse-version", `alltrue([for x in [format("1.0.0-a%0100000d", 0)] : alltrue([for a in range(1000) : parse_version(x).major == version.major])])`, 95,
		"parse_version, reading 100007 bytes of text: the evaluation takes more than"},
}

// withinLimit runs f and fails the test when it takes longer than limit
// or allocates more than maxAlloc bytes.
func withinLimit(t *testing.T, limit time.Duration, maxAlloc uint64, f func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("still running after %v", limit)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > maxAlloc {
		t.Fatalf("allocated %d MiB, more than %d MiB", got>>20, maxAlloc>>20)
	}
}

// TestBudget loads each hostile policy (an unused block in a file is
// never judged, and loading it must not hang or exhaust memory), then
// judges a case with it, through Explain and Evaluate in turn (two cases,
// one through each, in the long run): each is Invalid, its reason the
// exceeded budget at the expression's place.
func TestBudget(t *testing.T) {
	for k, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			path := writeFile(t, "p.hcl", fmt.Sprintf("policy \"hostile\" {\n  admit = %s\n}\n", h.admit))
			withinLimit(t, 60*time.Second, 512<<20, func() {
				ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
				if diags.HasErrors() {
					t.Error(diag.Format(diags[0]))
					return
				}
				// The first case is judged through Explain, the second
				// through Evaluate: each spends a whole budget, so every
				// day a hostile policy takes one of them in turn, and both
				// in the long run.
				for i, c := range [][2]string{{">= 1.0", "1.2.0"}, {"~> 1.2.0-beta", "1.2.0-rc.1"}} {
					if i != k%2 && !longtest.Enabled() {
						continue
					}
					var r engine.Result
					if i == 0 {
						r = engine.Explain(ps[0], c[0], c[1]).Result
					} else {
						r = engine.Evaluate(ps[0], c[0], c[1])
					}
					place := fmt.Sprintf("%s:2:", path)
					if h.col > 0 {
						place = fmt.Sprintf("%s:2:%d: ", path, h.col)
					}
					if r.Verdict != engine.Invalid || !strings.HasPrefix(r.Reason, place) ||
						!strings.Contains(r.Reason, "Evaluation budget exceeded; ") || !strings.Contains(r.Reason, h.detail) {
						t.Errorf("%q %q: got %v %q, want invalid at %s: %s", c[0], c[1], r.Verdict, r.Reason, place, h.detail)
					}
				}
			})
		})
	}
}

// TestBudgetJSON checks that a policy file in HCL's JSON syntax is held
// to the functions' limits.
func TestBudgetJSON(t *testing.T) {
	path := writeFile(t, "p.hcl.json", `{"policy": {"hostile": {"admit": "${length(setproduct(range(1000), range(1000), range(1000))) > 0}"}}}`)
	withinLimit(t, 60*time.Second, 512<<20, func() {
		ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
		if diags.HasErrors() {
			t.Error(diag.Format(diags[0]))
			return
		}
		r := engine.Evaluate(ps[0], ">= 1.0", "1.2.0")
		if r.Verdict != engine.Invalid || !strings.Contains(r.Reason, "Evaluation budget exceeded; setproduct") {
			t.Errorf("got %+v", r)
		}
	})
}

// TestBudgetRefuse checks that refuse is held to the budget: the
// constraint is refused with the exceeded budget as the reason.
func TestBudgetRefuse(t *testing.T) {
	path := writeFile(t, "p.hcl", "policy \"hostile\" {\n  admit = true\n  refuse = length(setproduct(range(1000), range(1000), range(1000))) > 0\n}\n")
	withinLimit(t, 60*time.Second, 512<<20, func() {
		ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
		if diags.HasErrors() {
			t.Error(diag.Format(diags[0]))
			return
		}
		_, err := ps[0].Compile(">= 1.0")
		if err == nil || !strings.HasPrefix(err.Error(), path+":3:19: Evaluation budget exceeded; setproduct") {
			t.Errorf("got %v", err)
		}
	})
}

// TestBudgetKeepsLegitimateWork checks that work well within the budget
// is not refused: a for expression over five hundred numbers, a string
// of fifty kilobytes.
func TestBudgetKeepsLegitimateWork(t *testing.T) {
	path := writeFile(t, "p.hcl", `policy "fine" {
  admit = length([for i in range(500) : i if i % 2 == 0]) == 250 && strlen(replace(format("%50000s", "x"), " ", "y")) == 50000
}
`)
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	if r := engine.Evaluate(ps[0], ">= 1.0", "1.2.0"); r.Verdict != engine.Allow {
		t.Fatalf("got %+v", r)
	}
}

// TestBudgetOncePerVersion checks that a part of admit that reads only
// the version and goes over the budget is evaluated once for a version,
// not again for each case: judging fifty cases of one version allocates
// less than judging the first did twice over. A case whose verdict does
// not depend on that part (the other operand of && is false) has its
// verdict.
func TestBudgetOncePerVersion(t *testing.T) {
	path := writeFile(t, "p.hcl", "policy \"hostile\" {\n  admit = satisfies(constraint, version) && length([for a in range(300) : [for b in range(300) : a + b + version.major]]) > 0\n}\n")
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	alloc := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	var first engine.Result
	one := alloc(func() { first = engine.Evaluate(ps[0], ">= 1.0", "1.2.0") })
	if first.Verdict != engine.Invalid || !strings.Contains(first.Reason, path+":2:75: Evaluation budget exceeded; the for expression") {
		t.Fatalf("got %+v", first)
	}
	more := alloc(func() {
		for i := range 50 {
			if r := engine.Evaluate(ps[0], fmt.Sprintf(">= 0.%d", i), "1.2.0"); r != first {
				t.Fatalf("case %d: %+v", i, r)
			}
		}
	})
	if more > 2*one {
		t.Errorf("fifty cases allocated %d KiB, the first alone %d KiB", more>>10, one>>10)
	}
	if r := engine.Evaluate(ps[0], ">= 2.0", "1.2.0"); r != engine.Rejected("satisfies(constraint, version) is false") {
		t.Errorf("a case the part does not decide: %+v", r)
	}
}

// TestBudgetJSONFor checks that the for expressions inside a string of
// HCL's JSON syntax are counted as in the native syntax: three nested
// over a list written out, which call no function, go over the budget.
func TestBudgetJSONFor(t *testing.T) {
	list := "[" + strings.Repeat("0, ", 299) + "0]"
	path := writeFile(t, "p.json", `{"policy": {"hostile": {"admit": "${length([for a in `+list+` : [for b in `+list+` : [for c in `+list+` : version.major]]]) > 0 && version.is_prerelease}"}}}`)
	withinLimit(t, 60*time.Second, 512<<20, func() {
		ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
		if diags.HasErrors() {
			t.Error(diag.Format(diags[0]))
			return
		}
		r := engine.Evaluate(ps[0], ">= 1.0", "1.2.0")
		if r.Verdict != engine.Invalid || !strings.HasPrefix(r.Reason, path+":1:") || !strings.Contains(r.Reason, "Evaluation budget exceeded; the for expression") {
			t.Errorf("got %+v", r)
		}
	})
}

// TestBudgetLong judges fifty cases with each hostile policy, each case of
// a constraint and a version of its own, so that nothing is kept from one
// case to the next: every one is invalid with its diagnostic, and all of
// them together take well under two minutes (each case takes at most its
// budget, a few milliseconds on an idle core, or its deadline).
func TestBudgetLong(t *testing.T) {
	longtest.Skip(t)
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			path := writeFile(t, "p.hcl", fmt.Sprintf("policy \"hostile\" {\n  admit = %s\n}\n", h.admit))
			withinLimit(t, 120*time.Second, 4<<30, func() {
				ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
				if diags.HasErrors() {
					t.Error(diag.Format(diags[0]))
					return
				}
				for i := range 50 {
					c, v := fmt.Sprintf(">= 0.%d", i), fmt.Sprintf("1.%d.%d-beta.%d", i, i%7, i)
					if r := engine.Evaluate(ps[0], c, v); r.Verdict != engine.Invalid || !strings.Contains(r.Reason, h.detail) {
						t.Errorf("%q %q: got %v %q, want invalid: %s", c, v, r.Verdict, r.Reason, h.detail)
						return
					}
				}
			})
		})
	}
}
