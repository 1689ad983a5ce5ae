package hclpolicy_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/policies"
)

// writeFile writes src to a file named name in a new directory and
// returns its path.
func writeFile(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoadErrors checks that each mistake is one error diagnostic with
// its file, line and column, and that no policy is returned.
func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		// at is LINE:COLUMN, summary a part of the summary, detail a part
		// of the detail.
		at, summary, detail string
	}{
		{"index too long", "policy \"a\" {\n  admit = version[1e10000000] == \"\"\n}\n",
			"2:18", "Index too long", "at most 64 digits long written out; this one is about 10000024 digits long"},
		{"syntax error", "policy \"a\" {\n  admit = satisfies(constraint, version) &&\n}\n",
			"2:44", "Invalid expression", ""},
		{"unknown variable", "policy \"a\" {\n  admit = versoin.is_prerelease\n}\n",
			"2:11", "Unknown variable", `Did you mean "version"?`},
		{"unknown function", "policy \"a\" {\n  admit = satisfy(constraint, version)\n}\n",
			"2:11", "Call to unknown function", `Did you mean "satisfies"?`},
		{"unknown attribute", "policy \"a\" {\n  admit = version.stable\n}\n",
			"2:18", "Unsupported attribute", `"stable"`},
		{"unknown attribute in a for expression", "policy \"a\" {\n  admit = anytrue([for c in constraint.comparators : c.operator == \"=\"])\n}\n",
			"2:55", "Unsupported attribute", `"operator"`},
		{"unknown attribute in a branch the checks never take", "policy \"a\" {\n  admit = length(version.prerelease) > 3 ? version.is_prerelase : true\n}\n",
			"2:51", "Unsupported attribute", `version has no attribute named "is_prerelase". Did you mean "is_prerelease"?`},
		{"unknown attribute in try", "policy \"a\" {\n  admit = try(!version.is_prerelase, false)\n}\n",
			"2:23", "Unsupported attribute", `Did you mean "is_prerelease"?`},
		{"unknown attribute of constraint", "policy \"a\" {\n  admit = constraint.names_prerelase\n}\n",
			"2:21", "Unsupported attribute", `constraint has no attribute named "names_prerelase". Did you mean "names_prerelease"?`},
		{"unknown attribute of a comparator in a for expression", "policy \"a\" {\n  admit = version.is_prerelease ? anytrue([for c in constraint.bounds : c.names_prerelase]) : true\n}\n",
			"2:74", "Unsupported attribute", `c (a comparator object) has no attribute named "names_prerelase". Did you mean "names_prerelease"?`},
		{"unknown attribute of a comparator's version", "policy \"a\" {\n  admit = version.is_prerelease ? constraint.bounds[0].version.is_prerelase : true\n}\n",
			"2:63", "Unsupported attribute", `A version object has no attribute named "is_prerelase". Did you mean "is_prerelease"?`},
		{"unknown attribute in a splat", "policy \"a\" {\n  admit = version.is_prerelease ? contains(constraint.comparators[*].oop, \"=\") : true\n}\n",
			"2:69", "Unsupported attribute", `Did you mean "op"?`},
		{"unknown attribute of parse_version", "policy \"a\" {\n  admit = version.is_prerelease ? parse_version(\"1.0.0\").majr == 1 : true\n}\n",
			"2:57", "Unsupported attribute", `Did you mean "major"?`},
		{"unknown function in a branch the checks never take", "policy \"a\" {\n  admit = length(version.prerelease) > 3 ? same_bse(version, \"1.0.0\") : true\n}\n",
			"2:44", "Call to unknown function", `Did you mean "same_base"?`},
		{"admit not a bool", "policy \"a\" {\n  admit = version.text\n}\n",
			"2:11", "admit must be a bool", "gives a string"},
		{"admit a number", "policy \"a\" {\n  admit = compare(version, \"2.0.0\")\n}\n",
			"2:11", "admit must be a bool", "gives a number"},
		{"wrong argument", "policy \"a\" {\n  admit = holds(constraint, version)\n}\n",
			"2:17", "Invalid function argument", "got the constraint object"},
		{"duplicate name", "policy \"a\" {\n  admit = true\n}\npolicy \"a\" {\n  admit = false\n}\n",
			"4:8", "Duplicate policy", "already declared at"},
		{"neither admit nor command", "policy \"a\" {\n  rule = \"nothing\"\n}\n",
			"1:1", "Missing admit or command", ""},
		{"both admit and command", "policy \"a\" {\n  admit   = true\n  command = [\"python3\", \"rule.py\"]\n}\n",
			"3:3", "Both admit and command", ""},
		{"unknown select", "policy \"a\" {\n  admit  = true\n  select = \"oldest\"\n}\n",
			"3:12", "Unknown select value", `"oldest"`},
		{"refuse reads version", "policy \"a\" {\n  admit  = true\n  refuse = version.is_prerelease\n}\n",
			"3:12", "version is not available in refuse", ""},
		{"refuse not a bool", "policy \"a\" {\n  admit  = true\n  refuse = constraint.text\n}\n",
			"3:12", "refuse must be a bool", ""},
		{"refuse_reason not a string", "policy \"a\" {\n  admit         = true\n  refuse        = true\n  refuse_reason = constraint.names_prerelease\n}\n",
			"4:19", "refuse_reason must be a string", ""},
		{"refuse_reason without refuse", "policy \"a\" {\n  admit         = true\n  refuse_reason = \"no\"\n}\n",
			"3:3", "refuse_reason without refuse", ""},
		{"invalid name", "policy \"Cargo_2\" {\n  admit = true\n}\n",
			"1:8", "Invalid policy name", ""},
		{"rule on two lines", "policy \"a\" {\n  admit = true\n  rule  = \"one\\ntwo\"\n}\n",
			"3:11", "Invalid rule", ""},
		{"rule not a string", "policy \"a\" {\n  admit = true\n  rule  = [\"x\"]\n}\n",
			"3:11", "Invalid rule", ""},
		{"rule reads a variable", "policy \"a\" {\n  admit = true\n  rule  = version.text\n}\n",
			"3:11", "Variables not allowed", ""},
		{"unknown attribute in the block", "policy \"a\" {\n  admit = true\n  prefer = \"stable\"\n}\n",
			"3:3", "Unsupported argument", ""},
		{"other content", "policy \"a\" {\n  admit = true\n}\ndefault_policy = \"cargo\"\n",
			"4:1", "Unsupported argument", ""},
		{"no policy", "# nothing here\n",
			"1:1", "No policy in the policy file", ""},
		{"command without Options.Command", "policy \"a\" {\n  command = [\"python3\", \"rule.py\"]\n}\n",
			"2:13", "command policies are not available here", ""},
		{"command not a list of strings", "policy \"a\" {\n  command = \"python3 rule.py\"\n}\n",
			"2:13", "Invalid command", ""},
		{"select in a command policy", "policy \"a\" {\n  command = [\"python3\"]\n  select  = \"fallback\"\n}\n",
			"3:3", "Unexpected select in a command policy", ""},
		{"label missing", "policy {\n  admit = true\n}\n",
			"1:8", "Missing name for policy", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "policies.hcl", tc.src)
			ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
			if ps != nil {
				t.Errorf("got %d policies, want none", len(ps))
			}
			if !diags.HasErrors() {
				t.Fatalf("no error")
			}
			d := diags[0]
			got := diag.Format(d)
			want := path + ":" + tc.at + ": "
			if !strings.HasPrefix(got, want) || !strings.Contains(d.Summary, tc.summary) || !strings.Contains(d.Detail, tc.detail) {
				t.Fatalf("got %s\nwant %s... with summary %q and detail containing %q", got, want, tc.summary, tc.detail)
			}
		})
	}
}

// TestLoadReportsEveryMistake checks that the mistakes of several blocks
// are all reported at once.
func TestLoadReportsEveryMistake(t *testing.T) {
	src := "policy \"a\" {\n  admit = version.nope\n}\npolicy \"b\" {\n  admit = true\n  select = \"x\"\n}\npolicy \"c\" {\n}\n"
	_, diags := hclpolicy.Load(writeFile(t, "p.hcl", src), hclpolicy.Options{})
	if len(diags.Errs()) != 3 {
		t.Fatalf("got %d errors, want 3: %v", len(diags.Errs()), diags)
	}
}

// TestLoadUnreadable checks a file that does not exist and one that is a
// directory.
func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "missing.hcl"), dir} {
		ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
		if ps != nil || len(diags) != 1 || diags[0].Summary != "Cannot read the policy file" {
			t.Errorf("%s: got %d policies, %v", path, len(ps), diags)
		}
	}
}

// TestLoadJSON checks a policy file in HCL's JSON syntax.
func TestLoadJSON(t *testing.T) {
	path := writeFile(t, "p.json", `{"policy": {"j": {"rule": "linear", "admit": "${satisfies(constraint, version)}"}}}`)
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	if got := engine.Evaluate(ps[0], "~> 1.2", "2.0.0-beta.1"); got != engine.Allowed("satisfies(constraint, version) is true") {
		t.Fatalf("got %+v", got)
	}
}

// TestPolicyAttributes checks Name, Rule, the default rule, and select.
func TestPolicyAttributes(t *testing.T) {
	src := `policy "one" {
  rule  = "the first"
  admit = satisfies(constraint, version)
}

policy "two" {
  admit  = (satisfies(constraint, version) &&
           !version.is_prerelease)
  select = "fallback"
}
`
	ps, diags := hclpolicy.Load(writeFile(t, "p.hcl", src), hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	if len(ps) != 2 || ps[0].Name() != "one" || ps[1].Name() != "two" {
		t.Fatalf("got %d policies", len(ps))
	}
	if ps[0].Rule() != "the first" || ps[0].Fallback() {
		t.Errorf("one: rule %q, fallback %t", ps[0].Rule(), ps[0].Fallback())
	}
	if want := "admit = (satisfies(constraint, version) && !version.is_prerelease)"; ps[1].Rule() != want || !ps[1].Fallback() {
		t.Errorf("two: rule %q, fallback %t; want %q", ps[1].Rule(), ps[1].Fallback(), want)
	}
	if r := ps[1].NameRange(); r.Start.Line != 6 || r.Start.Column != 8 {
		t.Errorf("two: name at %s", diag.FormatRange(r))
	}
	var _ engine.Selector = ps[1]
}

// TestRuntimeErrorIsInvalid checks that an expression that fails on a
// case makes that case invalid, with the diagnostic as the reason, and
// judges the other cases.
func TestRuntimeErrorIsInvalid(t *testing.T) {
	path := writeFile(t, "p.hcl", "policy \"first-tag\" {\n  admit = version.prerelease[0] == \"beta\"\n}\n")
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	p := ps[0]
	got := engine.Evaluate(p, ">= 1.0.0", "2.0.0")
	want := path + ":2:29: Invalid index; "
	if got.Verdict != engine.Invalid || !strings.HasPrefix(got.Reason, want) {
		t.Fatalf("got %+v, want invalid with a reason starting %q", got, want)
	}
	if got := engine.Evaluate(p, ">= 1.0.0", "2.0.0-beta"); got.Verdict != engine.Allow {
		t.Fatalf("2.0.0-beta: got %+v", got)
	}
	if got := engine.Evaluate(p, ">= 1.0.0", "2.0"); got.Verdict != engine.Invalid || !strings.Contains(got.Reason, "MAJOR.MINOR.PATCH") {
		t.Fatalf("2.0: got %+v", got)
	}
	if got := engine.Evaluate(p, ">= 1.0.0,", "2.0.0"); got.Verdict != engine.Invalid || !strings.Contains(got.Reason, "column 10") {
		t.Fatalf(">= 1.0.0,: got %+v", got)
	}
	sel, err := engine.Select(p, ">= 1.0.0", []string{"1.0.0", "2.0.0-beta", "2.0.0-rc"})
	if err != nil || !sel.Found || sel.Version != "2.0.0-beta" || len(sel.Unreadable) != 1 || sel.Unreadable[0].Version != "1.0.0" {
		t.Fatalf("select: %+v, %v", sel, err)
	}
}

// TestRefuse checks that refuse refuses the whole constraint, with
// refuse_reason as the error, and that an error in refuse refuses it too.
func TestRefuse(t *testing.T) {
	src := `policy "no-pre" {
  refuse        = constraint.names_prerelease
  refuse_reason = "names a prerelease: ${constraint.text}"
  admit         = satisfies(constraint, version.ga)
}

policy "first" {
  refuse = constraint.comparators[0].op == "!="
  admit  = true
}
`
	path := writeFile(t, "p.hcl", src)
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	noPre, first := ps[0], ps[1]
	if _, err := noPre.Compile(">= 1.0.0-beta"); err == nil || err.Error() != "names a prerelease: >= 1.0.0-beta" {
		t.Fatalf("Compile: %v", err)
	}
	if got := engine.Evaluate(noPre, ">= 1.0.0-beta", "1.0.0"); got != (engine.Result{Verdict: engine.Invalid, Reason: "names a prerelease: >= 1.0.0-beta"}) {
		t.Fatalf("got %+v", got)
	}
	if _, err := engine.Select(noPre, ">= 1.0.0-beta", []string{"1.0.0"}); err == nil {
		t.Fatalf("Select of a refused constraint: no error")
	}
	if got := engine.Evaluate(noPre, ">= 1.0.0", "1.0.0-beta"); got.Verdict != engine.Allow {
		t.Fatalf("got %+v", got)
	}
	got := engine.Evaluate(first, "", "1.0.0")
	if want := path + ":8:34: Invalid index"; got.Verdict != engine.Invalid || !strings.HasPrefix(got.Reason, want) {
		t.Fatalf("got %+v, want invalid starting %q", got, want)
	}
}

// TestFallbackSelection checks select = "fallback" on a few lists.
func TestFallbackSelection(t *testing.T) {
	p := design(t, "hcl-fallback")
	for _, tc := range []struct {
		constraint string
		available  []string
		want       string
	}{
		{">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0"},
		{">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1", "1.1.0-beta.2"}, "1.1.0-beta.2"},
		{">= 3.0.0", []string{"1.9.0", "2.1.0-rc.1"}, ""},
		{">= 1.0.0", []string{"1.0.0+a", "1.0.0+b", "bad"}, "1.0.0+a"},
	} {
		sel, err := engine.Select(p, tc.constraint, tc.available)
		if err != nil || sel.Version != tc.want || sel.Found != (tc.want != "") {
			t.Errorf("%q over %v: %+v, %v; want %q", tc.constraint, tc.available, sel, err, tc.want)
		}
	}
}

// TestDecodePolicyBlocksOnly decodes the policy blocks of a body that
// holds other settings too, as prerel.hcl does.
func TestDecodePolicyBlocksOnly(t *testing.T) {
	src := []byte(`default_policy = "my-cargo"

module "vpc" {
  policy = "ga-bound"
}

policy "my-cargo" {
  admit = satisfies(constraint, version) && (!version.is_prerelease || anytrue([
    for c in constraint.comparators : c.names_prerelease && c.op != "!=" && same_base(c.version, version)
  ]))
}
`)
	parser := hclparse.NewParser()
	file, diags := parser.ParseHCL(src, "prerel.hcl")
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	ps, diags := hclpolicy.Decode(file.Body, hclpolicy.Options{Sources: parser.Sources()})
	if diags.HasErrors() || len(ps) != 1 || ps[0].Name() != "my-cargo" {
		t.Fatalf("got %d policies, %v", len(ps), diags)
	}
	if got := engine.Evaluate(ps[0], ">= 1.1.0-beta.2", "1.1.0-beta.3"); got.Verdict != engine.Allow {
		t.Fatalf("got %+v", got)
	}
	if !strings.HasPrefix(ps[0].Rule(), "admit = satisfies(constraint, version)") {
		t.Errorf("rule %q", ps[0].Rule())
	}
	// The file's own reader adds BlockHeader to its schema.
	schema := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "default_policy"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "module", LabelNames: []string{"name"}}, hclpolicy.BlockHeader},
	}
	if _, diags := file.Body.Content(schema); diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	if ps, diags := hclpolicy.Decode(file.Body, hclpolicy.Options{}); diags.HasErrors() || !strings.HasPrefix(ps[0].Rule(), "an HCL admit expression at prerel.hcl:8:") {
		t.Fatalf("without sources: %v, %q", diags, ps[0].Rule())
	}
	if ps, diags := hclpolicy.Decode(nil, hclpolicy.Options{}); ps != nil || diags != nil {
		t.Fatalf("nil body: %v, %v", ps, diags)
	}
}

// TestCommandBlocks checks that a command block is handed to
// Options.Command with its name, words and place, and that its rule
// replaces the command policy's.
func TestCommandBlocks(t *testing.T) {
	src := "policy \"py\" {\n  rule    = \"from Python\"\n  command = [\"python3\", \"rule.py\"]\n}\n"
	path := writeFile(t, "p.hcl", src)
	var gotName string
	var gotArgv []string
	var gotRange hcl.Range
	opt := hclpolicy.Options{Command: func(name string, argv []string, rng hcl.Range) (engine.Policy, hcl.Diagnostics) {
		gotName, gotArgv, gotRange = name, argv, rng
		return policies.Linear{}, nil
	}}
	ps, diags := hclpolicy.Load(path, opt)
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	p := ps[0]
	if gotName != "py" || strings.Join(gotArgv, " ") != "python3 rule.py" || diag.FormatRange(gotRange) != path+":3:13" {
		t.Fatalf("Command got %q %q %s", gotName, gotArgv, diag.FormatRange(gotRange))
	}
	if p.Name() != "py" || p.Rule() != "from Python" || p.Command() == nil {
		t.Fatalf("policy %q, rule %q", p.Name(), p.Rule())
	}
	if got := engine.Evaluate(p, "~> 1.2", "2.0.0-beta.1"); got.Verdict != engine.Allow {
		t.Fatalf("got %+v", got)
	}
	if x := engine.Explain(p, "~> 1.2", "2.0.0-beta.1"); x.Result.Verdict != engine.Allow || len(x.Steps) == 0 {
		t.Fatalf("explain: %+v", x)
	}
	// A command policy's diagnostics are the file's.
	opt.Command = func(name string, argv []string, rng hcl.Range) (engine.Policy, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{diag.ErrorAt(&rng, "No such program", argv[0])}
	}
	if ps, diags := hclpolicy.Load(path, opt); ps != nil || len(diags) != 1 || diags[0].Summary != "No such program" {
		t.Fatalf("got %v, %v", ps, diags)
	}
}

// TestCheckNames reports a policy named as a registered one, at its label.
func TestCheckNames(t *testing.T) {
	reg := engine.NewRegistry()
	for _, p := range policies.All() {
		if err := reg.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	path := writeFile(t, "p.hcl", "policy \"mine\" {\n  admit = true\n}\n\npolicy \"cargo\" {\n  admit = true\n}\n")
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	diags = hclpolicy.CheckNames(ps, reg)
	if len(diags) != 1 || !strings.HasPrefix(diag.Format(diags[0]), path+":5:8: Policy name already registered; \"cargo\" is the name of a registered policy") {
		t.Fatalf("got %v", diags)
	}
	if err := reg.Register(ps[0]); err != nil {
		t.Fatal(err)
	}
	if diags := hclpolicy.CheckNames(ps[:1], reg); len(diags) != 0 {
		t.Fatalf("a registered policy clashes with itself: %v", diags)
	}
}

// TestExplain checks that an explanation shows the values the expression
// saw, the outcome, the expression laid out to fit, and its parts, and
// gives the verdict Evaluate gives.
func TestExplain(t *testing.T) {
	p := design(t, "hcl-cargo")
	x := engine.Explain(p, ">= 1.1.0-beta.2", "2.0.0-beta.1")
	if x.Result != engine.Evaluate(p, ">= 1.1.0-beta.2", "2.0.0-beta.1") || x.Result.Verdict != engine.Reject {
		t.Fatalf("result %+v", x.Result)
	}
	var got []string
	for _, s := range x.Steps {
		got = append(got, s.Subject+" | "+s.Detail)
	}
	want := []string{
		"policy | written in HCL at ../testdata/designs/hcl-cargo.hcl:3:1",
		`constraint | ">= 1.1.0-beta.2": comparators = [">= 1.1.0-beta.2"]`,
		`version | version("2.0.0-beta.1"): is_prerelease = true`,
		"admit | false: the version is rejected",
		"admit | satisfies(constraint, version) && (",
		"admit |   !version.is_prerelease || anytrue([",
		"admit |     for c in constraint.comparators :",
		`admit |     c.names_prerelease && c.op != "!="`,
		"admit |       && same_base(c.version, version)",
		"admit |   ])",
		"admit | )",
		"admit | satisfies(constraint, version) = true",
		"admit | anytrue([for c in constraint.comparators…version, version)]) = false",
		"admit | [for c in constraint.comparators : c.n….version, version)] = [false]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	x = engine.Explain(design(t, "hcl-core-only"), ">= 1.0.0-beta", "1.0.0")
	refused := slices.ContainsFunc(x.Steps, func(s engine.Step) bool {
		return s.Subject == "refuse" && strings.HasPrefix(s.Detail, "true: the constraint is refused")
	})
	if x.Result.Verdict != engine.Invalid || !refused || slices.ContainsFunc(x.Steps, func(s engine.Step) bool { return s.Subject == "version" }) {
		t.Fatalf("core-only: %+v", x)
	}
	for _, pair := range [][2]string{{">=", "1.0.0"}, {">= 1.0.0", "1.0"}} {
		if x := engine.Explain(p, pair[0], pair[1]); x.Result != engine.Evaluate(p, pair[0], pair[1]) {
			t.Errorf("%q %q: explain %+v", pair[0], pair[1], x.Result)
		}
	}
}
