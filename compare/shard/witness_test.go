package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// casesOf is the set of the cases of d, written constraint TAB version.
func casesOf(d compare.Domain) map[string]bool {
	out := map[string]bool{}
	d.Groups(func(g compare.Group) bool {
		for _, v := range g.Versions {
			out[g.Constraint+"\t"+v] = true
		}
		return true
	})
	return out
}

// forgeFromAnotherDomain gives, in the partial report at path, one class
// (or, with split, one split) the witness the partial report other keeps
// for the same class, a case of the same shape and verdicts that is not
// among cases; it returns what the error must name of it: the class's
// shape and its pair, or the split's shape.
func forgeFromAnotherDomain(t *testing.T, path string, other []byte, cases map[string]bool, split bool) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj, from map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(other, &from); err != nil {
		t.Fatal(err)
	}
	key := func(m map[string]any) string {
		return fmt.Sprint(m["shape"], m["a_verdict"], m["b_verdict"], m["verdicts"])
	}
	// lists pairs the witnesses of obj with those of from, by list.
	type list struct {
		mine, theirs []any
		names        []string
	}
	var lists []list
	if split {
		lists = append(lists, list{obj["splits"].([]any), from["splits"].([]any), nil})
	} else {
		for i, p := range obj["pairs"].([]any) {
			pm := p.(map[string]any)
			lists = append(lists, list{pm["classes"].([]any), from["pairs"].([]any)[i].(map[string]any)["classes"].([]any),
				[]string{fmt.Sprintf("%s vs %s", pm["a"], pm["b"])}})
		}
	}
	for _, l := range lists {
		theirs := map[string]map[string]any{}
		for _, x := range l.theirs {
			theirs[key(x.(map[string]any))] = x.(map[string]any)
		}
		for _, x := range l.mine {
			mine := x.(map[string]any)
			t2, ok := theirs[key(mine)]
			if !ok || cases[t2["constraint"].(string)+"\t"+t2["version"].(string)] {
				continue
			}
			mine["constraint"], mine["version"] = t2["constraint"], t2["version"]
			out, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			return append([]string{fmt.Sprintf("%q", mine["shape"])}, l.names...)
		}
	}
	t.Fatalf("no class (split %v) kept in both runs with a witness of the other domain only", split)
	return nil
}

// A witness replaced by a case of the same class that is not a case of
// the domain the shards ran passes every other check and changes the
// report; a WitnessCheck of that domain refuses it, naming the file and
// the class or split, and passes the partial reports of real shards.
func TestWitnessCheckRefusesACaseOfAnotherDomain(t *testing.T) {
	d := exhaustiveDomain(t, 1)
	cases := casesOf(d)
	ps := resolvePolicies(t, "strict", "cargo", "lexical")
	// Another domain: the first constraints of scope 2, whose versions
	// are those of scope 2.
	otherDomain := limitGroups(exhaustiveDomain(t, 2), 60)
	other, err := RunPartial(context.Background(), otherDomain, ps, compare.Options{}, Shard{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	otherJSON := partialJSONOf(t, other)
	whole, err := compare.Run(context.Background(), d, ps, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := render(t, whole)

	dir := t.TempDir()
	var real []string
	for k, p := range runShards(t, d, ps, compare.Options{}, 3) {
		real = append(real, writePartial(t, dir, fmt.Sprintf("real-%d.json", k+1), p))
	}
	var check WitnessCheck
	for _, path := range real {
		check.Add(readPartial(t, path))
	}
	if err := check.Check(context.Background(), d, ps); err != nil {
		t.Fatalf("the partial reports of real shards: %v", err)
	}

	for _, split := range []bool{false, true} {
		full, err := RunPartial(context.Background(), d, ps, compare.Options{}, Shard{1, 1})
		if err != nil {
			t.Fatal(err)
		}
		path := writePartial(t, dir, fmt.Sprintf("forged-split-%v.json", split), full)
		names := forgeFromAnotherDomain(t, path, otherJSON, cases, split)

		// Every check before this one passes, and the report is not the
		// run's.
		report, err := readPartial(t, path).Report(context.Background(), ps)
		if err != nil {
			t.Fatalf("split %v: the forged partial report is refused before its witnesses are checked: %v", split, err)
		}
		if got := render(t, report); bytes.Equal(got.json, want.json) {
			t.Fatalf("split %v: the forged witness does not change the report", split)
		}

		var check WitnessCheck
		for _, p := range []string{real[0], path} {
			check.Add(readPartial(t, p))
		}
		err = check.Check(context.Background(), d, ps)
		if err == nil || !errors.Is(err, ErrNotInDomain) {
			t.Fatalf("split %v: a witness of another domain: %v; want ErrNotInDomain", split, err)
		}
		for _, s := range append([]string{path, "is not a case of the domain"}, names...) {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("split %v: %v\ndoes not name %s", split, err, s)
			}
		}
		if err := check.Check(context.Background(), d, ps); err != nil {
			t.Errorf("split %v: a Check after a failed one: %v; want nothing left to check", split, err)
		}
	}
}

// Check stops when the context is done, and fails on a domain that fails.
func TestWitnessCheckStops(t *testing.T) {
	d := exhaustiveDomain(t, 1)
	ps := resolvePolicies(t, "strict", "cargo")
	p := runShards(t, d, ps, compare.Options{}, 1)[0]
	path := writePartial(t, t.TempDir(), "p.json", p)
	var check WitnessCheck
	check.Add(readPartial(t, path))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := check.Check(ctx, d, ps); !errors.Is(err, context.Canceled) {
		t.Errorf("Check with a done context: %v", err)
	}
	check.Add(readPartial(t, path))
	if err := check.Check(context.Background(), failingDomain{d}, ps); err == nil || errors.Is(err, ErrNotInDomain) ||
		!strings.Contains(err.Error(), "the domain failed") {
		t.Errorf("Check of a failing domain: %v", err)
	}
}

// failingDomain yields no group and fails.
type failingDomain struct{ compare.Domain }

func (failingDomain) Groups(func(compare.Group) bool) error { return errors.New("the domain failed") }

// historyDomain is the exhaustive domain at scope 1 with every group
// carrying its version list as the history name, so that a run compares
// selection too.
func historyDomain(t *testing.T, name string) sliceDomain {
	t.Helper()
	var groups []compare.Group
	exhaustiveDomain(t, 1).Groups(func(g compare.Group) bool {
		g.History = "exhaustive"
		groups = append(groups, g)
		return true
	})
	return sliceDomain{name: name, groups: groups}
}

// forgeSelection sets, in the partial report at path, the constraint
// (field "constraint") or the history (field "history") of the witness of
// the first pair's selection to value; it returns what that witness was.
func forgeSelection(t *testing.T, path, field, value string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	sel, _ := obj["selection"].(map[string]any)
	if sel == nil {
		t.Fatalf("%s compares no selection", path)
	}
	w, _ := sel["pairs"].([]any)[0].(map[string]any)["witness"].(map[string]any)
	if w == nil {
		t.Fatalf("%s: the first pair selects alike in every group", path)
	}
	was := fmt.Sprint(w[field])
	w[field] = value
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return was
}

// The witness of a selection (the group where a pair installs different
// versions) replaced by a constraint or a history the domain the shards
// ran has no group of passes every other check and changes the report;
// a WitnessCheck of that domain refuses it, naming the file, the pair
// whose selection it is and the forged constraint or history, and passes
// the partial reports of real shards.
func TestWitnessCheckRefusesASelectionOfAnotherGroup(t *testing.T) {
	d := historyDomain(t, "with history")
	ps := resolvePolicies(t, "strict", "cargo")
	whole, err := compare.Run(context.Background(), d, ps, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Selection == nil || whole.Selection.Pairs[0].Diverge == 0 {
		t.Fatal("strict and cargo select alike in every group: no selection witness to forge")
	}
	want := render(t, whole)

	dir := t.TempDir()
	var check WitnessCheck
	for k, p := range runShards(t, d, ps, compare.Options{}, 2) {
		check.Add(readPartial(t, writePartial(t, dir, fmt.Sprintf("real-%d.json", k+1), p)))
	}
	if err := check.Check(context.Background(), d, ps); err != nil {
		t.Fatalf("the partial reports of real shards: %v", err)
	}

	for _, tt := range []struct{ field, value string }{
		// a constraint of no group of the domain, of the shape of one
		{"constraint", ">= 7.7.7"},
		// a constraint of the domain, with a history it has no group of
		{"history", "another history"},
	} {
		full, err := RunPartial(context.Background(), d, ps, compare.Options{}, Shard{1, 1})
		if err != nil {
			t.Fatal(err)
		}
		path := writePartial(t, dir, "forged-"+tt.field+".json", full)
		forgeSelection(t, path, tt.field, tt.value)

		report, err := readPartial(t, path).Report(context.Background(), ps)
		if err != nil {
			t.Fatalf("%s: the forged partial report is refused before its witnesses are checked: %v", tt.field, err)
		}
		if got := render(t, report); bytes.Equal(got.json, want.json) {
			t.Fatalf("%s: the forged selection witness does not change the report", tt.field)
		}

		var check WitnessCheck
		check.Add(readPartial(t, path))
		err = check.Check(context.Background(), d, ps)
		if err == nil || !errors.Is(err, ErrNotInDomain) {
			t.Fatalf("%s: a selection witness of no group of the domain: %v; want ErrNotInDomain", tt.field, err)
		}
		for _, s := range []string{path, "the selection of strict vs cargo", fmt.Sprintf("%s %q", tt.field, tt.value), "is not a group of the domain"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %v\ndoes not name %s", tt.field, err, s)
			}
		}
		if err := check.Check(context.Background(), d, ps); err != nil {
			t.Errorf("%s: a Check after a failed one: %v; want nothing left to check", tt.field, err)
		}
	}
}

// nextWitness finds, in the partial report of shard sh of d at path, a
// class (or, with split, a split) of two cases or more, of a shape that
// starts with shape, whose witness
// another case of the same shard can replace so that the merged report
// differs from want: the witness that shard keeps once the witness's
// own case is taken out of its group. It writes that case in place of
// the witness, and returns what the error must name: the class or
// split, the forged case and the case the shard keeps.
func nextWitness(t *testing.T, d compare.Domain, ps []engine.Policy, sh Shard, path string, others []string, whole *compare.Report, split bool, shape string) []string {
	t.Helper()
	var groups []compare.Group
	d.Groups(func(g compare.Group) bool {
		groups = append(groups, g)
		return true
	})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// entries lists the classes (pair index, object) or splits (-1).
	type entry struct {
		pair int
		m    map[string]any
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	var entries []entry
	if split {
		for _, s := range obj["splits"].([]any) {
			entries = append(entries, entry{-1, s.(map[string]any)})
		}
	} else {
		for i, p := range obj["pairs"].([]any) {
			for _, c := range p.(map[string]any)["classes"].([]any) {
				entries = append(entries, entry{i, c.(map[string]any)})
			}
		}
	}
	same := func(x, y map[string]any) bool {
		return x["shape"] == y["shape"] && x["a_verdict"] == y["a_verdict"] && x["b_verdict"] == y["b_verdict"] && x["verdicts"] == y["verdicts"]
	}
	// The witnesses of the run: a class of two cases that keeps one of
	// them has another case that would change the report.
	kept := map[string]bool{}
	for _, c := range whole.Classes {
		kept[c.Witness.Constraint+"\t"+c.Witness.Version] = true
	}
	for _, s := range whole.Splits {
		kept[s.Witness.Constraint+"\t"+s.Witness.Version] = true
	}
	want := render(t, whole).json
	tries := 0
	for _, e := range entries {
		if e.m["count"].(float64) < 2 || !kept[e.m["constraint"].(string)+"\t"+e.m["version"].(string)] ||
			!strings.HasPrefix(e.m["shape"].(string), shape) {
			continue
		}
		if tries++; tries > 20 {
			break
		}
		c, v := e.m["constraint"].(string), e.m["version"].(string)
		// The domain without the witness, whose groups keep their index.
		without := sliceDomain{name: "without the witness"}
		for _, g := range groups {
			if g.Constraint == c {
				g.Versions = slices.DeleteFunc(slices.Clone(g.Versions), func(x string) bool { return x == v })
			}
			without.groups = append(without.groups, g)
		}
		p, err := RunPartial(context.Background(), without, ps, compare.Options{}, sh)
		if err != nil {
			t.Fatal(err)
		}
		var next map[string]any
		if err := json.Unmarshal(partialJSONOf(t, p), &next); err != nil {
			t.Fatal(err)
		}
		var list []any
		if split {
			list = next["splits"].([]any)
		} else {
			list = next["pairs"].([]any)[e.pair].(map[string]any)["classes"].([]any)
		}
		var w2 map[string]any
		for _, x := range list {
			if same(x.(map[string]any), e.m) {
				w2 = x.(map[string]any)
			}
		}
		if w2 == nil {
			t.Fatalf("%v: the class of two cases has none once its witness is out", e.m)
		}
		e.m["constraint"], e.m["version"] = w2["constraint"], w2["version"]
		out, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		merged := mustMerge(t, append([]*Partial{readPartial(t, path)}, readAll(t, others)...)...)
		report, err := merged.Report(context.Background(), ps)
		if err != nil {
			t.Fatalf("the forged partial report is refused before its witnesses are checked: %v", err)
		}
		if got := render(t, report); !bytes.Equal(got.json, want) {
			kind := fmt.Sprintf("the class %q", e.m["shape"])
			if split {
				kind = fmt.Sprintf("the split %q", e.m["shape"])
			}
			return []string{kind, fmt.Sprintf("(constraint %q, version %q)", w2["constraint"], w2["version"]),
				fmt.Sprintf("constraint %q, version %q", c, v)}
		}
		e.m["constraint"], e.m["version"] = c, v
	}
	t.Fatalf("no class (split %v) of two cases whose next witness changes the report", split)
	return nil
}

// A witness replaced by another case of its class that the shard also
// judged, so that the merged report differs from the run's, passes
// every other check; a WitnessCheck refuses it, naming the file, the
// class or split, the forged case and the case the shard keeps. So it
// does a case of the class that only another shard judged.
func TestWitnessCheckRefusesACaseTheShardDoesNotKeep(t *testing.T) {
	t.Parallel()
	// The first constraints of the exhaustive domain of scope 1, with
	// versions some policies refuse.
	d := sliceDomain{name: "scope 1 and refused versions"}
	exhaustiveDomain(t, 1).Groups(func(g compare.Group) bool {
		g.Versions = append(slices.Clip(g.Versions), "v1.0.0", "v2.0.0", "1.0.0.0", "1.0")
		d.groups = append(d.groups, g)
		return len(d.groups) < 300
	})
	ps := resolvePolicies(t, "strict", "apparentlymart-exact", "core-only", "renovate")
	whole, err := compare.Run(context.Background(), d, ps, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The two shards run once; each subtest forges its own copy.
	var shards [][]byte
	for _, p := range runShards(t, d, ps, compare.Options{}, 2) {
		shards = append(shards, partialJSONOf(t, p))
	}
	for _, tt := range []struct {
		name         string
		split, other bool
		shape        string
		shard        int // the shard whose witness is forged
	}{
		{"class", false, false, "", 2},
		{"class of a refused constraint", false, false, "constraint refused", 2},
		{"class of a refused version", false, false, "version refused", 1},
		{"split", true, false, "", 2},
		{"class of the other shard", false, true, "", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var paths []string
			for k, data := range shards {
				path := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k+1))
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, path)
			}
			forged, other := paths[tt.shard-1], paths[2-tt.shard]
			var names []string
			if tt.other {
				names = otherShardsWitness(t, forged, other)
			} else {
				names = nextWitness(t, d, ps, Shard{tt.shard, 2}, forged, []string{other}, whole, tt.split, tt.shape)
			}
			var check WitnessCheck
			for _, p := range paths {
				check.Add(readPartial(t, p))
			}
			err := check.Check(context.Background(), d, ps)
			if !errors.Is(err, ErrNotKept) {
				t.Fatalf("a witness the shard does not keep: %v; want ErrNotKept", err)
			}
			t.Log(err)
			for _, s := range append([]string{"compare: " + forged + ": the witness of ", fmt.Sprintf("the run of shard %d/2", tt.shard)}, names...) {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%v\ndoes not name %s", err, s)
				}
			}
		})
	}
}

// otherShardsWitness gives, in the partial report at path, the witness
// of a class the partial report at other keeps for the same class with a
// witness after its own; it returns what the error must name: the
// class, the forged case, and the case the shard keeps.
func otherShardsWitness(t *testing.T, path, other string) []string {
	t.Helper()
	var obj, from map[string]any
	for f, o := range map[string]*map[string]any{path: &obj, other: &from} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, o); err != nil {
			t.Fatal(err)
		}
	}
	key := func(m map[string]any) string { return fmt.Sprint(m["shape"], m["a_verdict"], m["b_verdict"]) }
	for i, p := range obj["pairs"].([]any) {
		theirs := map[string]map[string]any{}
		for _, x := range from["pairs"].([]any)[i].(map[string]any)["classes"].([]any) {
			theirs[key(x.(map[string]any))] = x.(map[string]any)
		}
		for _, x := range p.(map[string]any)["classes"].([]any) {
			mine := x.(map[string]any)
			w, ok := theirs[key(mine)]
			// A witness of the other shard that is longer comes after.
			if !ok || len(w["constraint"].(string))+len(w["version"].(string)) <= len(mine["constraint"].(string))+len(mine["version"].(string)) {
				continue
			}
			c, v := mine["constraint"], mine["version"]
			mine["constraint"], mine["version"] = w["constraint"], w["version"]
			out, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{fmt.Sprintf("the class %q", mine["shape"]), fmt.Sprintf("(constraint %q, version %q) is not a case of the class in the groups of the run of shard 2/2", w["constraint"], w["version"]),
				fmt.Sprintf("the witness it keeps, the smallest case of the class in its groups, is constraint %q, version %q", c, v)}
		}
	}
	t.Fatalf("no class both shards keep, with a longer witness in %s", other)
	return nil
}

// readAll reads the partial reports at paths.
func readAll(t *testing.T, paths []string) []*Partial {
	t.Helper()
	var out []*Partial
	for _, p := range paths {
		out = append(out, readPartial(t, p))
	}
	return out
}
