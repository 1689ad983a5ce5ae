package compare_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

var smallCorpus = fstest.MapFS{
	"constraints/a-sources.tsv": {Data: []byte("constraint\tcontexts\tprerelease\textra\n" +
		">= 1.0.0-beta\tmodule\tyes\tx\n" +
		"~> 1.0\tmodule\tno\tx\n" +
		">= 0.12\trequired_version\tno\tx\n")},
	"constraints/b-sources.tsv": {Data: []byte("prerelease\tconstraint\tcontexts\n" +
		"no\t~> 1.0\tprovider\n" +
		"no\tmain\tunknown\n")},
	"versions/core.txt":     {Data: []byte("v0.12.0\nv0.13.0-beta1\nv1.0.0\n")},
	"versions/mod.txt":      {Data: []byte("1.0.0\n1.1.0-rc.1\n1.1.0\n\n1.2.0-beta\n")},
	"versions/provider.txt": {Data: []byte("v1.0.0\r\nv1.0.1\r\n")},
	"histories.tsv": {Data: []byte("history\tkind\trepresentative\n" +
		"core\tcore\tyes\nmod\tmodule\tyes\nprovider\tprovider\tno\n")},
}

func TestCorpusPairing(t *testing.T) {
	type pair struct{ constraint, history string }
	pairs := func(d compare.Domain) []pair {
		var out []pair
		for _, g := range groupsOf(t, d) {
			out = append(out, pair{g.Constraint, g.History})
		}
		return out
	}
	d, err := compare.Corpus(smallCorpus, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []pair{
		{">= 1.0.0-beta", "core"}, {">= 1.0.0-beta", "mod"}, {">= 1.0.0-beta", "provider"},
		{"~> 1.0", "mod"}, // its provider context has no representative history
		{">= 0.12", "core"},
	}
	if got := pairs(d); !equalPairs(got, want) {
		t.Errorf("context pairing:\n  %v\nwant\n  %v", got, want)
	}
	if got := d.Info().Cases; got != 3+4+2+4+3 {
		t.Errorf("%d cases", got)
	}
	all, err := compare.Corpus(smallCorpus, compare.PairAll)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(pairs(all)); got != 4*3 {
		t.Errorf("all pairing: %d groups, want 12", got)
	}
	if !strings.Contains(all.Info().Description, "4 real constraints (1 with a prerelease) x 3 real histories (9 versions)") {
		t.Errorf("description %q", all.Info().Description)
	}
	if _, err := compare.Corpus(smallCorpus, "some"); err == nil {
		t.Error("an unknown pairing: no error")
	}
}

func equalPairs[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCorpusErrors(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"no constraints": {"versions/a.txt": {Data: []byte("1.0.0\n")}},
		"no versions":    {"constraints/a-sources.tsv": {Data: []byte("constraint\tcontexts\tprerelease\n1.0.0\tmodule\tno\n")}},
		"no column": {
			"constraints/a-sources.tsv": {Data: []byte("constraint\tprerelease\n1.0.0\tno\n")},
			"versions/a.txt":            {Data: []byte("1.0.0\n")},
		},
		"short row": {
			"constraints/a-sources.tsv": {Data: []byte("constraint\tcontexts\tprerelease\n1.0.0\tmodule\n")},
			"versions/a.txt":            {Data: []byte("1.0.0\n")},
		},
	} {
		if _, err := compare.Corpus(fsys, ""); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCorpusRunsWithSelection(t *testing.T) {
	d, err := compare.Corpus(smallCorpus, compare.PairAll)
	if err != nil {
		t.Fatal(err)
	}
	r, err := compare.Run(context.Background(), d, []engine.Policy{linear, sameBase, tilde}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Selection == nil || r.Selection.Groups != 12 {
		t.Fatalf("selection %+v, want 12 groups", r.Selection)
	}
	sp := r.Selection.Pairs[0] // linear vs same-base
	if sp.Diverge == 0 || sp.Witness == nil {
		t.Fatalf("linear vs same-base select alike everywhere: %+v", sp)
	}
	w := sp.Witness
	if w.Constraint != "~> 1.0" || w.History != "mod" || w.ASelected != "1.2.0-beta" || w.BSelected != "1.1.0" {
		t.Errorf("witness %+v, want ~> 1.0 over mod: 1.2.0-beta against 1.1.0", *w)
	}
	var versions []string
	for _, g := range groupsOf(t, d) {
		if g.Constraint == w.Constraint && g.History == w.History {
			versions = g.Versions
		}
	}
	for _, side := range []struct {
		p    engine.Policy
		want string
	}{{linear, w.ASelected}, {sameBase, w.BSelected}} {
		sel, err := engine.Select(side.p, w.Constraint, versions)
		got := sel.Version
		switch {
		case err != nil:
			got = compare.InvalidSelected
		case !sel.Found:
			got = compare.NoneSelected
		}
		if got != side.want {
			t.Errorf("%s over %s with %s: witness says %s, engine.Select %s", w.Constraint, w.History, side.p.Name(), side.want, got)
		}
	}
}

// The embedded corpus loads, and its default pairing stays small enough
// to run in well under a minute.
func TestEmbeddedCorpus(t *testing.T) {
	d, err := compare.Corpus(prerel.Corpus(), "")
	if err != nil {
		t.Fatal(err)
	}
	info := d.Info()
	t.Logf("%s: %d cases", info.Description, info.Cases)
	if info.Cases < 500_000 || info.Cases > 2_000_000 {
		t.Errorf("%d cases in the default corpus pairing", info.Cases)
	}
	all, err := compare.Corpus(prerel.Corpus(), compare.PairAll)
	if err != nil {
		t.Fatal(err)
	}
	if all.Info().Cases <= info.Cases {
		t.Errorf("pairing all has %d cases, context %d", all.Info().Cases, info.Cases)
	}
}
