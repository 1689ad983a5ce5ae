package readers_test

import (
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/readers"
)

// Each policy's own table (engine.VersionReader) judges every case as
// Compile and Match do: the same refusal of the constraint, the same
// verdict from Verdicts and the same result from Judge, on the readings'
// corners, the exhaustive domain (scope 1; 2 in the long run) and random
// groups.
func TestTablesEqualText(t *testing.T) {
	ex, err := compare.Exhaustive(longtest.Pick(compare.MinScope, compare.DefaultScope))
	if err != nil {
		t.Fatal(err)
	}
	random, err := compare.Random(7, longtest.Pick(20_000, 200_000))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range readers.All() {
		r, ok := p.(engine.VersionReader)
		if !ok {
			t.Fatalf("%s does not implement engine.VersionReader", p.Name())
		}
		t.Run(p.Name(), func(t *testing.T) {
			for _, d := range []compare.Domain{edges{}, ex, random} {
				tables := map[*string]engine.VersionTable{}
				bad := 0
				err := d.Groups(func(g compare.Group) bool {
					if len(g.Versions) == 0 {
						return true
					}
					table := tables[&g.Versions[0]]
					if table == nil || table.Len() != len(g.Versions) {
						table = r.ReadVersions(g.Versions)
						tables[&g.Versions[0]] = table
					}
					if !tableEqualsText(t, p, table, g) {
						bad++
					}
					return bad < 10
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// tableEqualsText reports whether table judges g as p's Compile and
// Match do, and reports each difference.
func tableEqualsText(t *testing.T, p engine.Policy, table engine.VersionTable, g compare.Group) bool {
	t.Helper()
	m, err := table.Compile(g.Constraint)
	tm, terr := p.Compile(g.Constraint)
	if (err == nil) != (terr == nil) || err != nil && err.Error() != terr.Error() {
		t.Errorf("%q: table error %v, Compile error %v", g.Constraint, err, terr)
		return false
	}
	if err != nil {
		return true
	}
	out := make([]engine.Verdict, len(g.Versions))
	m.Verdicts(out)
	for i, v := range g.Versions {
		want := tm.Match(v)
		if got := m.Judge(i); got != want {
			t.Errorf("%q | %q: Judge %v (%s), Match %v (%s)", g.Constraint, v, got.Verdict, got.Reason, want.Verdict, want.Reason)
			return false
		}
		if out[i] != want.Verdict {
			t.Errorf("%q | %q: Verdicts %v, Match %v (%s)", g.Constraint, v, out[i], want.Verdict, want.Reason)
			return false
		}
	}
	return true
}
