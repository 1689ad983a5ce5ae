package policies

import (
	"testing"

	"github.com/prerel/prerel/engine"
)

// verdictCase is one row of a policy table: a constraint, a version, the
// verdict, and optionally the exact reason.
type verdictCase struct {
	constraint, version string
	want                engine.Verdict
	reason              string
}

const (
	allow   = engine.Allow
	reject  = engine.Reject
	invalid = engine.Invalid
)

// runTable checks every case through Compile and Match (engine.Evaluate) and
// through Prepare, which must agree.
func runTable(t *testing.T, p interface {
	engine.Policy
	engine.Preparer
}, cases []verdictCase) {
	t.Helper()
	seen := map[[2]string]bool{}
	for _, tc := range cases {
		key := [2]string{tc.constraint, tc.version}
		if seen[key] {
			t.Errorf("%s: duplicate case %q | %q", p.Name(), tc.constraint, tc.version)
		}
		seen[key] = true
		t.Run(tc.constraint+" | "+tc.version, func(t *testing.T) {
			got := engine.Evaluate(p, tc.constraint, tc.version)
			if got.Verdict != tc.want {
				t.Fatalf("%s: %q | %q = %v (%s), want %v", p.Name(), tc.constraint, tc.version, got.Verdict, got.Reason, tc.want)
			}
			if got.Reason == "" {
				t.Errorf("%s: %q | %q: empty reason", p.Name(), tc.constraint, tc.version)
			}
			if tc.reason != "" && got.Reason != tc.reason {
				t.Errorf("%s: %q | %q: reason %q, want %q", p.Name(), tc.constraint, tc.version, got.Reason, tc.reason)
			}
			check, err := p.Prepare(tc.constraint, tc.version)
			if (err != nil) != (tc.want == engine.Invalid) {
				t.Fatalf("%s: Prepare(%q, %q) error %v, want verdict %v", p.Name(), tc.constraint, tc.version, err, tc.want)
			}
			if err == nil {
				if again := check(); again != got {
					t.Errorf("%s: Prepare check %+v, Evaluate %+v", p.Name(), again, got)
				}
			}
		})
	}
}

// invalidCases are refused by the engine's parsers, so every native policy
// answers Invalid.
var invalidCases = []verdictCase{
	{">=", "1.0.0", invalid, ""},
	{">= ", "1.0.0", invalid, ""},
	{"=> 1.0.0", "1.0.0", invalid, ""},
	{">= 1.0.0,", "1.0.0", invalid, ""},
	{">= 1.0.0 < 2.0.0", "1.0.0", invalid, ""},
	{"1.0.0.0", "1.0.0", invalid, ""},
	{">= 01.0.0", "1.0.0", invalid, ""},
	{">= 1.0.0-01", "1.0.0", invalid, ""},
	{"~> x", "1.0.0", invalid, ""},
	{">= 1.0.0", "1.0", invalid, ""},
	{">= 1.0.0", "", invalid, ""},
	{">= 1.0.0", "01.0.0", invalid, ""},
	{">= 1.0.0", "1.0.0-", invalid, ""},
	{">= 1.0.0", "1.0.0-beta.01", invalid, ""},
	{">= 1.0.0", "= 1.0.0", invalid, ""},
	{"", "v", invalid, ""},
	{"", "1.0.0 ", invalid, ""},
	{">=", "x", invalid, ""},
}

func TestInvalid(t *testing.T) {
	for _, p := range All() {
		runTable(t, p.(interface {
			engine.Policy
			engine.Preparer
		}), invalidCases)
	}
}

func TestAll(t *testing.T) {
	want := []string{"strict", "lexical", "cargo"}
	all := All()
	if len(all) != len(want) {
		t.Fatalf("All() has %d policies, want %d", len(all), len(want))
	}
	for i, p := range all {
		if p.Name() != want[i] {
			t.Errorf("All()[%d] = %q, want %q", i, p.Name(), want[i])
		}
		if p.Rule() == "" {
			t.Errorf("%s: empty Rule", p.Name())
		}
		got, ok := engine.Default.Lookup(want[i])
		if !ok {
			t.Errorf("%q is not registered in engine.Default", want[i])
		} else if got != p {
			t.Errorf("engine.Default has %T for %q, want %T", got, want[i], p)
		}
		if _, ok := p.(engine.Judge); !ok {
			t.Errorf("%s does not implement engine.Judge", p.Name())
		}
		if _, ok := p.(engine.Preparer); !ok {
			t.Errorf("%s does not implement engine.Preparer", p.Name())
		}
	}
	// Registration order: ours come in this order, whatever else is there.
	var order []string
	for _, n := range engine.Default.Names() {
		for _, w := range want {
			if n == w {
				order = append(order, n)
			}
		}
	}
	if len(order) != 3 || order[0] != "strict" || order[1] != "lexical" || order[2] != "cargo" {
		t.Errorf("registration order %v, want %v", order, want)
	}
}

// TestJudgeAllocs checks that judging a parsed pair does not allocate, on
// every branch of each rule.
func TestJudgeAllocs(t *testing.T) {
	pairs := [][2]string{
		{"", "1.0.0"},
		{"", "1.0.0-beta"},
		{">= 1.0.0, < 2.0.0", "1.5.0"},
		{">= 1.0.0, < 2.0.0", "2.0.0-beta.1"},
		{">= 1.0.0, = 2.0.0-beta", "2.0.0-beta"},
		{">= 1.1.0-beta.2", "1.1.0-rc.1"},
		{">= 1.1.0-beta.2", "2.0.0-beta.1"},
		{"~> 1.2.3-beta", "1.2.4"},
		{"~> 1.2.3", "1.2.2"},
		{"!= 1.0.0-rc", "1.0.0-beta"},
		{"= 1.0.0+abc", "v1.0.0+def"},
	}
	for _, p := range All() {
		j := p.(engine.Judge)
		for _, pair := range pairs {
			c := engine.MustParseConstraint(pair[0])
			v := engine.MustParseVersion(pair[1])
			var r engine.Result
			n := testing.AllocsPerRun(100, func() { r = j.Judge(c, v) })
			if n != 0 {
				t.Errorf("%s: Judge(%q, %q) allocates %v times per run", p.Name(), pair[0], pair[1], n)
			}
			_ = r
		}
	}
}

// TestStrictImpliesCargo checks on every table pair that whatever strict
// admits, cargo admits too.
func TestStrictImpliesCargo(t *testing.T) {
	var all []verdictCase
	all = append(all, strictCases...)
	all = append(all, lexicalCases...)
	all = append(all, cargoCases...)
	for _, tc := range all {
		s := engine.Evaluate(Strict{}, tc.constraint, tc.version)
		c := engine.Evaluate(Cargo{}, tc.constraint, tc.version)
		if s.Verdict == engine.Allow && c.Verdict != engine.Allow {
			t.Errorf("%q | %q: strict allows, cargo says %v (%s)", tc.constraint, tc.version, c.Verdict, c.Reason)
		}
	}
}

func TestSelect(t *testing.T) {
	tests := []struct {
		policy     engine.Policy
		constraint string
		available  []string
		want       string // "" when nothing is selected
	}{
		{Strict{}, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0"},
		{Lexical{}, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0"},
		{Cargo{}, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0"},
		{Strict{}, ">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}, ""},
		{Lexical{}, ">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}, ""},
		{Cargo{}, ">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}, ""},
		{Strict{}, ">= 3.0.0", []string{"1.9.0", "2.1.0-rc.1"}, ""},
		{Strict{}, "~> 1.2.3-beta", []string{"1.2.3-beta", "1.2.3-rc.1", "1.2.3", "1.2.4", "1.3.0-beta"}, "1.2.4"},
		{Lexical{}, "~> 1.2.3-beta", []string{"1.2.3-beta", "1.2.3-rc.1", "1.2.3", "1.2.4", "1.3.0-beta"}, "1.2.3-rc.1"},
		{Cargo{}, "~> 1.2.3-beta", []string{"1.2.3-beta", "1.2.3-rc.1", "1.2.3", "1.2.4", "1.3.0-beta"}, "1.2.4"},
		{Strict{}, "", []string{"1.0.0", "2.0.0-beta.1"}, "1.0.0"},
		{Lexical{}, "", []string{"1.0.0", "2.0.0-beta.1"}, "2.0.0-beta.1"},
		{Cargo{}, "", []string{"1.0.0", "2.0.0-beta.1"}, "1.0.0"},
	}
	for _, tt := range tests {
		sel, err := engine.Select(tt.policy, tt.constraint, tt.available)
		if err != nil {
			t.Errorf("%s: Select(%q): %v", tt.policy.Name(), tt.constraint, err)
			continue
		}
		if sel.Version != tt.want || sel.Found != (tt.want != "") {
			t.Errorf("%s: Select(%q, %v) = %q (found %v), want %q", tt.policy.Name(), tt.constraint, tt.available, sel.Version, sel.Found, tt.want)
		}
	}
}
