package compare_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

func TestWriteBaselineRoundTrip(t *testing.T) {
	r := goldenReport(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "baseline.json")
	if err := os.WriteFile(path, []byte("an older baseline that is much longer than nothing"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compare.WriteBaseline(path, r); err != nil {
		t.Fatal(err)
	}
	back, err := compare.ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r.Baseline()) {
		t.Error("the baseline read back is not the report's stable part")
	}
	for _, c := range back.Classes {
		if c.Witness.AReason != "" || c.Witness.BReason != "" {
			t.Fatalf("the baseline keeps reasons: %+v", c.Witness)
		}
	}
	if r.Classes[0].Witness.AReason == "" {
		t.Error("Baseline cleared the reasons of the report itself")
	}
	if d := compare.Diff(back, r); len(d) != 0 {
		t.Errorf("a report differs from its own baseline: %v", d)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "baseline.json" {
		t.Errorf("the directory holds %v, want only baseline.json", entries)
	}
}

// A failed write leaves the old baseline whole and no temporary file.
func TestWriteBaselineIsAtomic(t *testing.T) {
	r := goldenReport(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "baseline.json")
	// A directory in the way makes the final rename fail.
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "keep"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compare.WriteBaseline(target, r); err == nil {
		t.Fatal("writing over a directory: no error")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("a failed write left %v", entries)
	}
	if err := compare.WriteBaseline(filepath.Join(dir, "missing", "baseline.json"), r); err == nil {
		t.Error("writing into a missing directory: no error")
	}
}

func TestReadBaselineErrors(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"schema":  `{"schema": 99, "domain": {}, "policies": [], "pairs": [], "classes": []}`,
		"unknown": `{"schema": 1, "surprise": true}`,
		"broken":  `{"schema": 1,`,
	} {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := compare.ReadBaseline(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
	}
}

func TestDiff(t *testing.T) {
	base := goldenReport(t).Baseline()
	first := base.Classes[0]
	tests := []struct {
		name   string
		change func(r *compare.Report)
		want   []compare.Change // Text is matched as a prefix
	}{
		{"nothing", func(*compare.Report) {}, nil},
		{"a class appeared", func(r *compare.Report) {
			c := first
			c.Signature = "(any); version V-pre; a allow, b reject"
			c.Witness.Constraint = ""
			r.Classes = append(r.Classes, c)
		}, []compare.Change{{Kind: compare.Appeared, Subject: "class", A: first.A, B: first.B, Signature: "(any); version V-pre; a allow, b reject",
			Text: `linear vs same-base: new class "(any); version V-pre; a allow, b reject" (prerelease rule), 1 case, witness "" with "1.2.0-beta" (linear allow, same-base reject)`}}},
		{"a class disappeared", func(r *compare.Report) { r.Classes = r.Classes[1:] },
			[]compare.Change{{Kind: compare.Disappeared, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" (prerelease rule, 1 case) disappeared; its witness was ">= 1.0.0" with "1.2.0-beta" (linear allow, same-base reject)`}}},
		{"a count changed", func(r *compare.Report) { r.Classes[0].Count = 5 },
			[]compare.Change{{Kind: compare.Changed, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" changed: count 5, was 1`}}},
		{"a cause changed", func(r *compare.Report) { r.Classes[0].Cause = compare.CauseUnknown },
			[]compare.Change{{Kind: compare.Changed, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" changed: cause unknown, was prerelease rule`}}},
		{"a witness changed", func(r *compare.Report) { r.Classes[0].Witness.Version = "1.3.0-beta" },
			[]compare.Change{{Kind: compare.Changed, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" changed: witness ">= 1.0.0" with "1.3.0-beta" (linear allow, same-base reject), was ">= 1.0.0" with "1.2.0-beta" (linear allow, same-base reject)`}}},
		{"a verdict of the witness changed", func(r *compare.Report) { r.Classes[0].Witness.BVerdict = engine.Invalid },
			[]compare.Change{{Kind: compare.Changed, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" changed: witness ">= 1.0.0" with "1.2.0-beta" (linear allow, same-base invalid), was`}}},
		{"a reason changed", func(r *compare.Report) { r.Classes[0].Witness.AReason = "reworded" }, nil},
		{"pair counts changed", func(r *compare.Report) { r.Pairs[1].Agree--; r.Pairs[1].Diverge++ },
			[]compare.Change{{Kind: compare.Changed, Subject: "pair", A: "linear", B: "tilde", Text: "linear vs tilde: 6 diverge, was 5 (13 agree, was 14)"}}},
		{"the domain changed", func(r *compare.Report) { r.Domain.Description = "other"; r.Domain.Cases = 20 },
			[]compare.Change{
				{Kind: compare.Changed, Subject: "domain", Text: `domain changed: now "other", was "test list"`},
				{Kind: compare.Changed, Subject: "domain", Text: "case count changed: now 20, was 19"}}},
		{"a policy appeared", func(r *compare.Report) {
			r.Policies = append(r.Policies, "extra")
			r.Pairs = append(r.Pairs, compare.Pair{A: "no-v", B: "extra", Agree: 19})
		}, []compare.Change{
			{Kind: compare.Appeared, Subject: "policy", Text: "policy extra appeared"},
			{Kind: compare.Appeared, Subject: "pair", A: "no-v", B: "extra", Text: "no-v vs extra appeared: 19 agree, 0 diverge"}}},
		{"a policy disappeared", func(r *compare.Report) { r.Policies = r.Policies[:3]; r.Pairs = r.Pairs[:5] },
			[]compare.Change{
				{Kind: compare.Disappeared, Subject: "policy", Text: "policy no-v disappeared"},
				{Kind: compare.Disappeared, Subject: "pair", A: "tilde", B: "no-v", Text: "tilde vs no-v disappeared"}}},
		{"a selection witness changed", func(r *compare.Report) {
			w := *r.Selection.Pairs[0].Witness
			w.BSelected = "1.0.0"
			r.Selection.Pairs[0].Witness = &w
		},
			[]compare.Change{{Kind: compare.Changed, Subject: "selection pair", A: "linear", B: "same-base",
				Text: `selection linear vs same-base: witness now "~> 1.0" over demo (linear installs v1.3.0-rc.1, same-base installs 1.0.0); was "~> 1.0" over demo (linear installs v1.3.0-rc.1, same-base installs 1.1.0)`}}},
		{"selection disappeared", func(r *compare.Report) { r.Selection = nil },
			[]compare.Change{{Kind: compare.Disappeared, Subject: "selection", Text: "selection disappeared (it had 2 groups)"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := clone(t, base)
			tt.change(cur)
			got := compare.Diff(base, cur)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d changes, want %d:\n%v", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Kind != w.Kind || g.Subject != w.Subject || g.A != w.A || g.B != w.B || g.Signature != w.Signature || !strings.HasPrefix(g.Text, w.Text) {
					t.Errorf("change %d:\n  %+v\nwant\n  %+v", i, g, w)
				}
				if g.String() != g.Text {
					t.Errorf("String() = %q", g.String())
				}
			}
		})
	}
}

// clone deep-copies a report through its JSON form.
func clone(t *testing.T, r *compare.Report) *compare.Report {
	t.Helper()
	var buf strings.Builder
	if err := compare.RenderJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	c, err := compare.DecodeReport(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
