package shard

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// forgeWitness gives, in the partial report at path, a class of the first
// pair the witness of another class with the same verdicts and another
// shape, among the classes for which refused says yes; it returns the
// shape of the forged class.
func forgeWitness(t *testing.T, path string, refused bool) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	classes := obj["pairs"].([]any)[0].(map[string]any)["classes"].([]any)
	for i, x := range classes {
		cx := x.(map[string]any)
		isRefused := cx["a_verdict"] == engine.Invalid.String() || cx["b_verdict"] == engine.Invalid.String()
		if isRefused != refused {
			continue
		}
		for _, y := range classes[i+1:] {
			cy := y.(map[string]any)
			if cx["a_verdict"] == cy["a_verdict"] && cx["b_verdict"] == cy["b_verdict"] && cx["shape"] != cy["shape"] {
				cx["constraint"], cx["version"] = cy["constraint"], cy["version"]
				out, err := json.Marshal(obj)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return cx["shape"].(string)
			}
		}
	}
	t.Fatalf("no two classes with the same verdicts (refused %v) in %s", refused, path)
	return ""
}

// A witness replaced by a case of another shape, whose verdicts the
// policies still give, is refused: the file and the class are named,
// when the partial report is read for a class whose shape needs no
// policy, and when the report is built for a class of a refusal.
func TestMergeRefusesAForgedWitness(t *testing.T) {
	d := exhaustiveDomain(t, 1)
	for _, tt := range []struct {
		policies []string
		refused  bool
	}{
		{[]string{"strict", "cargo"}, false},
		{[]string{"strict", "core-only"}, true},
	} {
		ps := resolvePolicies(t, tt.policies...)
		dir := t.TempDir()
		// One shard holds every class: no other shard's witness of the
		// forged class takes its place.
		var paths []string
		for k := 1; k <= 1; k++ {
			p, err := RunPartial(context.Background(), d, ps, compare.Options{}, Shard{K: k, N: 1})
			if err != nil {
				t.Fatal(err)
			}
			paths = append(paths, writePartial(t, dir, "shard-"+string(rune('0'+k))+".json", p))
		}
		shape := forgeWitness(t, paths[0], tt.refused)
		p, err := ReadPartial(paths[0], cliHints)
		if !tt.refused {
			if err == nil || !strings.Contains(err.Error(), paths[0]) || !strings.Contains(err.Error(), shape) ||
				!strings.Contains(err.Error(), "it is not a case of its class") {
				t.Errorf("%v: ReadPartial of a forged witness: %v; want an error naming %s and the class %q", tt.policies, err, paths[0], shape)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tt.policies, err)
		}
		_, err = p.Report(context.Background(), ps)
		if err == nil || !strings.Contains(err.Error(), paths[0]) || !strings.Contains(err.Error(), shape) || !strings.Contains(err.Error(), "it is not a case of its class") {
			t.Errorf("%v: Report with a forged witness of a refusal: %v; want an error naming the class %q", tt.policies, err, shape)
		}
	}
}
