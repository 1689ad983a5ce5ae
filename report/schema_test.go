package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

// baseOnly admits by base satisfaction alone: the simplest native rule.
type baseOnly struct{ name string }

func (p baseOnly) Name() string { return p.name }
func (baseOnly) Rule() string   { return "B(c, v) alone" }
func (p baseOnly) Compile(c string) (engine.Matcher, error) {
	return engine.CompileNative(p, c)
}
func (baseOnly) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	if c.Holds(*v) {
		return engine.Allowed("holds")
	}
	return engine.Rejected("does not hold")
}

// explained is baseOnly with an explanation of its own.
type explained struct{ baseOnly }

func (explained) Explain(constraint, version string) engine.Explanation {
	return engine.Explanation{Steps: []engine.Step{{Subject: "rule", Detail: "B alone"}}, Result: engine.Allowed("said so")}
}

// listPolicy allows the versions listed, and reads any text as a version.
type listPolicy struct{ allow map[string]bool }

func (listPolicy) Name() string                             { return "list" }
func (listPolicy) Rule() string                             { return "the listed versions" }
func (p listPolicy) Compile(string) (engine.Matcher, error) { return p, nil }
func (p listPolicy) Match(v string) engine.Result {
	if p.allow[v] {
		return engine.Allowed("listed")
	}
	return engine.Rejected("not listed")
}

// nilCompiler compiles every constraint to a nil Matcher with no error.
type nilCompiler struct{}

func (nilCompiler) Name() string                           { return "nil-compiler" }
func (nilCompiler) Rule() string                           { return "compiles to nothing" }
func (nilCompiler) Compile(string) (engine.Matcher, error) { return nil, nil }

// refuser refuses every constraint.
type refuser struct{}

func (refuser) Name() string { return "refuser" }
func (refuser) Rule() string { return "refuses everything" }
func (refuser) Compile(string) (engine.Matcher, error) {
	return nil, errors.New("no constraint suits me")
}
func (refuser) Select(string, []string) (engine.Selection, error) {
	return engine.Selection{}, errors.New("no constraint suits me")
}

func TestNewCheckReport(t *testing.T) {
	ps := []engine.Policy{baseOnly{"base"}, refuser{}}
	rep := NewCheckReport(ps, ">= 1.0.0", []string{"1.2.0", "0.9.0", "x"})
	if rep.Schema != CheckSchema || rep.Constraint != ">= 1.0.0" || !reflect.DeepEqual(rep.Policies, []string{"base", "refuser"}) {
		t.Fatalf("header = %q %q %v", rep.Schema, rep.Constraint, rep.Policies)
	}
	want := []struct {
		version  string
		verdicts []engine.Verdict
	}{
		{"1.2.0", []engine.Verdict{engine.Allow, engine.Invalid}},
		{"0.9.0", []engine.Verdict{engine.Reject, engine.Invalid}},
		{"x", []engine.Verdict{engine.Invalid, engine.Invalid}},
	}
	if len(rep.Versions) != len(want) {
		t.Fatalf("%d rows, want %d", len(rep.Versions), len(want))
	}
	for i, w := range want {
		row := rep.Versions[i]
		if row.Version != w.version || len(row.Results) != len(ps) {
			t.Fatalf("row %d = %+v", i, row)
		}
		for j, r := range row.Results {
			if r.Policy != ps[j].Name() || r.Verdict != w.verdicts[j] || r.Reason == "" {
				t.Errorf("%s by %s = %+v, want %v with a reason", w.version, ps[j].Name(), r, w.verdicts[j])
			}
		}
	}
	if got := rep.Versions[0].Results[1].Reason; got != "no constraint suits me" {
		t.Errorf("refusal reason = %q", got)
	}
}

func TestNewSelectReport(t *testing.T) {
	ps := []engine.Policy{baseOnly{"base"}, refuser{}, listPolicy{map[string]bool{}}}
	rep := NewSelectReport(ps, ">= 1.0.0", []string{"1.0.0", "1.5.0", "nope"})
	if rep.Schema != SelectSchema || rep.Constraint != ">= 1.0.0" || len(rep.Available) != 3 || len(rep.Policies) != 3 {
		t.Fatalf("report = %+v", rep)
	}
	tests := []struct {
		policy     string
		selected   string // "" for nil
		err        bool
		unreadable []string
	}{
		{"base", "1.5.0", false, []string{"nope"}},
		{"refuser", "", true, nil},
		{"list", "", false, nil},
	}
	for i, tt := range tests {
		row := rep.Policies[i]
		got := ""
		if row.Selected != nil {
			got = *row.Selected
		}
		var unreadable []string
		for _, u := range row.Unreadable {
			unreadable = append(unreadable, u.Version)
		}
		if row.Policy != tt.policy || got != tt.selected || (row.Error != "") != tt.err || !reflect.DeepEqual(unreadable, tt.unreadable) {
			t.Errorf("row %d = %+v, want %s selecting %q (error %v, unreadable %v)", i, row, tt.policy, tt.selected, tt.err, tt.unreadable)
		}
	}
}

func TestNewExplainReport(t *testing.T) {
	tests := []struct {
		p    engine.Policy
		c, v string
	}{
		{baseOnly{"base"}, ">= 1.0.0", "1.2.0"},
		{explained{baseOnly{"x"}}, "whatever", "1.0.0"},
		{refuser{}, ">= 1.0.0", "1.0.0"},
	}
	for _, tt := range tests {
		rep := NewExplainReport(tt.p, tt.c, tt.v)
		x := engine.Explain(tt.p, tt.c, tt.v)
		if rep.Schema != ExplainSchema || rep.Policy != tt.p.Name() || rep.Rule != tt.p.Rule() ||
			rep.Constraint != tt.c || rep.Version != tt.v || !reflect.DeepEqual(rep.Steps, x.Steps) ||
			rep.Verdict != x.Result.Verdict || rep.Reason != x.Result.Reason {
			t.Errorf("NewExplainReport(%s, %q, %q) = %+v, engine.Explain gives %+v", tt.p.Name(), tt.c, tt.v, rep, x)
		}
	}
}

// TestReportJSONKeys pins the JSON keys of every report: snake_case, with
// the schema first.
func TestReportJSONKeys(t *testing.T) {
	ps := []engine.Policy{baseOnly{"base"}}
	tests := []struct {
		name   string
		report any
		keys   string
	}{
		{"check", NewCheckReport(ps, ">= 1", []string{"1.0.0"}), "constraint policies schema versions"},
		{"check row", NewCheckReport(ps, ">= 1", []string{"1.0.0"}).Versions[0], "results version"},
		{"policy result", NewPolicyResult(ps[0], engine.Allowed("ok")), "policy reason verdict"},
		{"eval line", NewEvalLine(ps, ">= 1", "1.0.0", []engine.Result{engine.Allowed("ok")}), "constraint results version"},
		{"select", NewSelectReport(ps, ">= 1", []string{"1.0.0"}), "available constraint policies schema"},
		{"select row", NewSelectReport(ps, ">= 1", []string{"x"}).Policies[0], "policy selected unreadable"},
		{"select refusal", NewSelectReport([]engine.Policy{refuser{}}, ">= 1", []string{"1.0.0"}).Policies[0], "error policy selected"},
		{"unreadable", engine.Unreadable{Version: "x", Reason: "why"}, "reason version"},
		{"explain", NewExplainReport(ps[0], ">= 1", "1.0.0"), "constraint policy reason rule schema steps verdict version"},
		{"step", engine.Step{Subject: "a", Detail: "b"}, "detail subject"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.report)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if got := strings.Join(keys, " "); got != tt.keys {
			t.Errorf("%s: keys %q, want %q in %s", tt.name, got, tt.keys, b)
		}
		if strings.HasPrefix(tt.keys, "schema") || strings.Contains(tt.keys, " schema") {
			if !strings.HasPrefix(string(b), `{"schema":1,`) {
				t.Errorf("%s: schema is not first: %s", tt.name, b)
			}
		}
	}
}

// TestNilPolicyReports checks that the reports name a nil policy "" and
// give it, and a policy that compiles to a nil matcher, the engine's
// refusals.
func TestNilPolicyReports(t *testing.T) {
	nilMatcherReason := `policy "nil-compiler" ` + engine.ErrNilMatcher.Error()
	wantInvalid := func(v engine.Verdict, reason, want string) error {
		if v != engine.Invalid || reason != want {
			return fmt.Errorf("got %v %q, want invalid %q", v, reason, want)
		}
		return nil
	}
	tests := []struct {
		name  string
		check func() error
	}{
		{"NewPolicyResult nil policy", func() error {
			if pr := NewPolicyResult(nil, engine.Allowed("x")); pr.Policy != "" || pr.Verdict != engine.Allow {
				return fmt.Errorf("got %+v", pr)
			}
			return nil
		}},
		{"NewCheckReport nil policy and nil matcher", func() error {
			rep := NewCheckReport([]engine.Policy{nil, nilCompiler{}}, ">= 1.0", []string{"1.0.0"})
			if got := strings.Join(rep.Policies, ","); got != ",nil-compiler" {
				return fmt.Errorf("policies %q", got)
			}
			rs := rep.Versions[0].Results
			if err := wantInvalid(rs[0].Verdict, rs[0].Reason, engine.ErrNilPolicy.Error()); err != nil {
				return err
			}
			return wantInvalid(rs[1].Verdict, rs[1].Reason, nilMatcherReason)
		}},
		{"NewSelectReport nil policy", func() error {
			rep := NewSelectReport([]engine.Policy{nil}, ">= 1.0", []string{"1.0.0", "2.0.0"})
			if row := rep.Policies[0]; row.Policy != "" || row.Selected != nil || row.Error != engine.ErrNilPolicy.Error() {
				return fmt.Errorf("row %+v", row)
			}
			return nil
		}},
		{"NewExplainReport nil policy", func() error {
			rep := NewExplainReport(nil, ">= 1.0", "1.0.0")
			if rep.Policy != "" || rep.Rule != "" || rep.Verdict != engine.Invalid || rep.Reason != engine.ErrNilPolicy.Error() {
				return fmt.Errorf("report %+v", rep)
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.check(); err != nil {
				t.Error(err)
			}
		})
	}
}
