package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// selectionWitnessOf is the witness of pair k's selection in the partial
// report at path, as its JSON holds it, or nil.
func selectionWitnessOf(t *testing.T, path string, k int) map[string]any {
	t.Helper()
	var obj map[string]any
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	w, _ := obj["selection"].(map[string]any)["pairs"].([]any)[k].(map[string]any)["witness"].(map[string]any)
	return w
}

// setSelectionWitness writes, in the partial report at path, w as the
// witness of pair k's selection.
func setSelectionWitness(t *testing.T, path string, k int, w map[string]any) {
	t.Helper()
	var obj map[string]any
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	obj["selection"].(map[string]any)["pairs"].([]any)[k].(map[string]any)["witness"] = w
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// keptGroupText is how the errors name the group a selection witness
// names, with what strict and lexical install there.
func keptGroupText(w map[string]any) string {
	return fmt.Sprintf("constraint %q, history %q, where strict installs %q and lexical %q", w["constraint"], w["history"], w["a"], w["b"])
}

// The witness of a pair's selection replaced by another group of the
// same kind (where the pair installs different versions, or says it
// does) that the shard does not keep, the smallest such group of its
// groups, passes every other check and changes the merged report; a
// WitnessCheck refuses it, naming the file, the pair, the forged witness
// and the group the shard keeps, with what each policy installs there.
func TestWitnessCheckRefusesASelectionTheShardDoesNotKeep(t *testing.T) {
	t.Parallel()
	corpus, err := compare.Corpus(prerel.Corpus(), compare.PairByContext)
	if err != nil {
		t.Fatal(err)
	}
	d := limitGroups(corpus, 150).(sliceDomain)
	ps := resolvePolicies(t, "strict", "lexical", "cargo")
	const pair = 0 // strict vs lexical
	whole, err := compare.Run(context.Background(), d, ps, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := render(t, whole).json
	real := whole.Selection.Pairs[pair].Witness
	if real == nil {
		t.Fatal("strict and lexical install the same version in every group")
	}

	dir := t.TempDir()
	var paths []string
	for k, p := range runShards(t, d, ps, compare.Options{}, 2) {
		paths = append(paths, writePartial(t, dir, fmt.Sprintf("shard-%d.json", k+1), p))
	}
	var check WitnessCheck
	for _, p := range paths {
		check.Add(readPartial(t, p))
	}
	if err := check.Check(context.Background(), d, ps); err != nil {
		t.Fatalf("the partial reports of real shards: %v", err)
	}
	// sh is the shard that keeps the run's witness, other the other one.
	sh := 0
	if w := selectionWitnessOf(t, paths[1], pair); w != nil && w["constraint"] == real.Constraint && w["history"] == real.History {
		sh = 1
	}
	kept := selectionWitnessOf(t, paths[sh], pair)
	if kept["constraint"] != real.Constraint || kept["history"] != real.History {
		t.Fatalf("neither shard keeps the run's witness %+v", real)
	}
	otherKept := selectionWitnessOf(t, paths[1-sh], pair)
	if otherKept == nil {
		t.Fatalf("shard %d/2 has no group where strict and lexical install different versions", 2-sh)
	}
	// The witness shard sh keeps once its witness's group has no history
	// (its cases stay, and the groups keep their indexes): the next group
	// of the shard where the pair installs different versions.
	without := sliceDomain{name: "without the witness's history", groups: append([]compare.Group(nil), d.groups...)}
	for i, g := range without.groups {
		if g.Constraint == real.Constraint && g.History == real.History {
			without.groups[i].History = ""
		}
	}
	p, err := RunPartial(context.Background(), without, ps, compare.Options{}, Shard{sh + 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	nextPath := writePartial(t, dir, "next.json", p)
	next := selectionWitnessOf(t, nextPath, pair)
	if next == nil {
		t.Fatalf("shard %d/2 has one group where strict and lexical install different versions", sh+1)
	}
	// A group of shard sh where strict and lexical install the same
	// version, which neither selects itself: engine.Select says what.
	var same map[string]any
	for i, g := range d.groups {
		if i%2 != sh || g.History == "" {
			continue
		}
		picks := make([]string, 2)
		for j, pol := range ps[:2] {
			sel, err := engine.Select(pol, g.Constraint, g.Versions)
			switch {
			case err != nil:
				picks[j] = "(invalid)"
			case !sel.Found:
				picks[j] = "(none)"
			default:
				picks[j] = sel.Version
			}
		}
		if picks[0] == picks[1] && picks[0] != "(none)" {
			same = map[string]any{"constraint": g.Constraint, "history": g.History, "a": picks[0], "b": "(none)"}
			break
		}
	}
	if same == nil {
		t.Fatalf("shard %d/2 has no group where strict and lexical install one version", sh+1)
	}
	swapped := map[string]any{"constraint": kept["constraint"], "history": kept["history"], "a": kept["b"], "b": kept["a"]}

	run := fmt.Sprintf("the run of shard %d/2", sh+1)
	smallest := "the smallest of its groups where strict and lexical install different versions"
	for _, tt := range []struct {
		name   string
		forged map[string]any
		says   string // what the error says after naming the forged witness
	}{
		{"a later group of the shard", next, "is not the witness " + run + " keeps: that is " + smallest + ", " + keptGroupText(kept)},
		{"a group of the other shard", otherKept, "is not a group of " + run + ": the witness it keeps, " + smallest + ", is " + keptGroupText(kept)},
		{"its group with other picks", swapped, "is not the witness " + run + " keeps: that is " + smallest + ", " + keptGroupText(kept)},
		{"a group where the pair installs one version", same, "is not the witness " + run + " keeps: that is " + smallest + ", " + keptGroupText(kept)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			forged := writePartial(t, t.TempDir(), "forged.json", readPartial(t, paths[sh]))
			setSelectionWitness(t, forged, pair, tt.forged)
			parts := []string{forged, paths[1-sh]}

			// Every check before this one passes, and the report is not
			// the run's.
			merged := mustMerge(t, readAll(t, parts)...)
			report, err := merged.Report(context.Background(), ps)
			if err != nil {
				t.Fatalf("the forged partial report is refused before its witnesses are checked: %v", err)
			}
			if got := render(t, report); bytes.Equal(got.json, want) {
				t.Fatal("the forged selection witness does not change the report")
			}

			var check WitnessCheck
			for _, p := range parts {
				check.Add(readPartial(t, p))
			}
			err = check.Check(context.Background(), d, ps)
			if !errors.Is(err, ErrNotKept) {
				t.Fatalf("a selection witness the shard does not keep: %v; want ErrNotKept", err)
			}
			wantErr := fmt.Sprintf("compare: %s: the witness of the selection of strict vs lexical (%s) %s", forged, keptGroupText(tt.forged), tt.says)
			if err.Error() != wantErr {
				t.Errorf("error\n%v\nwant\n%s", err, wantErr)
			}
			if err := check.Check(context.Background(), d, ps); err != nil {
				t.Errorf("a Check after a failed one: %v; want nothing left to check", err)
			}
		})
	}
}

// The policies that select by themselves (engine.Selector) pick among
// the versions they allow as a run has them pick: the selection
// witnesses of the shards of a run of them are the groups the shards
// keep. (The corpus proof of TestMergeShardsGivesTheUnshardedReport runs
// native policies.)
func TestWitnessCheckPassesTheSelectionsOfSelectors(t *testing.T) {
	t.Parallel()
	corpus, err := compare.Corpus(prerel.Corpus(), compare.PairByContext)
	if err != nil {
		t.Fatal(err)
	}
	// 100 groups: 87 selection witnesses in the three shards.
	d := limitGroups(corpus, 100)
	ps := resolvePolicies(t, "strict", "fallback", "hashicorp", "masterminds", "apparentlymart", "go-versions-cargo",
		"renovate", "dependabot", "terraform-module")
	parts := runShards(t, d, ps, compare.Options{}, 3)
	witnesses := 0
	for _, p := range parts {
		for _, w := range p.witnesses {
			if w.selection {
				witnesses++
			}
		}
	}
	if witnesses < 20 {
		t.Fatalf("%d selection witnesses in the shards", witnesses)
	}
	var check WitnessCheck
	for _, p := range parts {
		check.Add(p)
	}
	if err := check.Check(context.Background(), d, ps); err != nil {
		t.Errorf("the partial reports of real shards: %v", err)
	}
}
