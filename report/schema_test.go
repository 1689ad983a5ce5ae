package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// refuser refuses every constraint.
type refuser struct{}

func (refuser) Name() string                    { return "refuser" }
func (refuser) Rule() string                    { return "refuses everything" }
func (refuser) Compile(string) (Matcher, error) { return nil, errors.New("no constraint suits me") }
func (refuser) Select(string, []string) (Selection, error) {
	return Selection{}, errors.New("no constraint suits me")
}

func TestNewCheckReport(t *testing.T) {
	ps := []Policy{baseOnly{"base"}, refuser{}}
	rep := NewCheckReport(ps, ">= 1.0.0", []string{"1.2.0", "0.9.0", "x"})
	if rep.Schema != CheckSchema || rep.Constraint != ">= 1.0.0" || !reflect.DeepEqual(rep.Policies, []string{"base", "refuser"}) {
		t.Fatalf("header = %q %q %v", rep.Schema, rep.Constraint, rep.Policies)
	}
	want := []struct {
		version  string
		verdicts []Verdict
	}{
		{"1.2.0", []Verdict{Allow, Invalid}},
		{"0.9.0", []Verdict{Reject, Invalid}},
		{"x", []Verdict{Invalid, Invalid}},
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
	ps := []Policy{baseOnly{"base"}, refuser{}, listPolicy{map[string]bool{}}}
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
		p    Policy
		c, v string
	}{
		{baseOnly{"base"}, ">= 1.0.0", "1.2.0"},
		{explained{baseOnly{"x"}}, "whatever", "1.0.0"},
		{refuser{}, ">= 1.0.0", "1.0.0"},
	}
	for _, tt := range tests {
		rep := NewExplainReport(tt.p, tt.c, tt.v)
		x := Explain(tt.p, tt.c, tt.v)
		if rep.Schema != ExplainSchema || rep.Policy != tt.p.Name() || rep.Rule != tt.p.Rule() ||
			rep.Constraint != tt.c || rep.Version != tt.v || !reflect.DeepEqual(rep.Steps, x.Steps) ||
			rep.Verdict != x.Result.Verdict || rep.Reason != x.Result.Reason {
			t.Errorf("NewExplainReport(%s, %q, %q) = %+v, Explain gives %+v", tt.p.Name(), tt.c, tt.v, rep, x)
		}
	}
}

// TestReportJSONKeys pins the JSON keys of every report: snake_case, with
// the schema first.
func TestReportJSONKeys(t *testing.T) {
	ps := []Policy{baseOnly{"base"}}
	tests := []struct {
		name   string
		report any
		keys   string
	}{
		{"check", NewCheckReport(ps, ">= 1", []string{"1.0.0"}), "constraint policies schema versions"},
		{"check row", NewCheckReport(ps, ">= 1", []string{"1.0.0"}).Versions[0], "results version"},
		{"policy result", NewPolicyResult(ps[0], Allowed("ok")), "policy reason verdict"},
		{"eval line", NewEvalLine(ps, ">= 1", "1.0.0", []Result{Allowed("ok")}), "constraint results version"},
		{"select", NewSelectReport(ps, ">= 1", []string{"1.0.0"}), "available constraint policies schema"},
		{"select row", NewSelectReport(ps, ">= 1", []string{"x"}).Policies[0], "policy selected unreadable"},
		{"select refusal", NewSelectReport([]Policy{refuser{}}, ">= 1", []string{"1.0.0"}).Policies[0], "error policy selected"},
		{"unreadable", Unreadable{"x", "why"}, "reason version"},
		{"explain", NewExplainReport(ps[0], ">= 1", "1.0.0"), "constraint policy reason rule schema steps verdict version"},
		{"step", Step{"a", "b"}, "detail subject"},
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
