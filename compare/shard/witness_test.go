package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
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
	if err := check.Check(context.Background(), d); err != nil {
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
		err = check.Check(context.Background(), d)
		if err == nil || !errors.Is(err, ErrNotInDomain) {
			t.Fatalf("split %v: a witness of another domain: %v; want ErrNotInDomain", split, err)
		}
		for _, s := range append([]string{path, "is not a case of the domain"}, names...) {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("split %v: %v\ndoes not name %s", split, err, s)
			}
		}
		if err := check.Check(context.Background(), d); err != nil {
			t.Errorf("split %v: a Check after a failed one: %v; want nothing left to check", split, err)
		}
	}
}

// Check stops when the context is done, and fails on a domain that fails.
func TestWitnessCheckStops(t *testing.T) {
	d := exhaustiveDomain(t, 1)
	p := runShards(t, d, resolvePolicies(t, "strict", "cargo"), compare.Options{}, 1)[0]
	path := writePartial(t, t.TempDir(), "p.json", p)
	var check WitnessCheck
	check.Add(readPartial(t, path))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := check.Check(ctx, d); !errors.Is(err, context.Canceled) {
		t.Errorf("Check with a done context: %v", err)
	}
	check.Add(readPartial(t, path))
	if err := check.Check(context.Background(), failingDomain{d}); err == nil || errors.Is(err, ErrNotInDomain) ||
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
	if err := check.Check(context.Background(), d); err != nil {
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
		err = check.Check(context.Background(), d)
		if err == nil || !errors.Is(err, ErrNotInDomain) {
			t.Fatalf("%s: a selection witness of no group of the domain: %v; want ErrNotInDomain", tt.field, err)
		}
		for _, s := range []string{path, "the selection of strict vs cargo", fmt.Sprintf("%s %q", tt.field, tt.value), "is not a group of the domain"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %v\ndoes not name %s", tt.field, err, s)
			}
		}
		if err := check.Check(context.Background(), d); err != nil {
			t.Errorf("%s: a Check after a failed one: %v; want nothing left to check", tt.field, err)
		}
	}
}
