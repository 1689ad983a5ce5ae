// Package comparetest holds what the tests of several packages take from
// compare's domains.
package comparetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// Sampled is d as an everyday test run proves it when the long run
// proves d whole: every constraint of one comparator, where a one-line
// change to a rule shows, and one in every of the constraints of two
// comparators or more (the first, then each every-th), which on an
// exhaustive domain still has every operator next to every other. Its
// Info counts the cases it keeps.
func Sampled(d compare.Domain, every int) compare.Domain {
	return sampled{d, max(every, 1)}
}

type sampled struct {
	compare.Domain
	every int
}

func (d sampled) Info() compare.DomainInfo {
	info := d.Domain.Info()
	info.Cases = 0
	d.Groups(func(g compare.Group) bool {
		info.Cases += int64(len(g.Versions))
		return true
	})
	info.Name += "-sampled"
	info.Description += fmt.Sprintf(", every comparator alone and one in %d constraints of more", d.every)
	return info
}

func (d sampled) Groups(yield func(compare.Group) bool) error {
	pairs := 0
	return d.Domain.Groups(func(g compare.Group) bool {
		if strings.Contains(g.Constraint, ",") {
			if pairs++; pairs%d.every != 1 && d.every > 1 {
				return true
			}
		}
		return yield(g)
	})
}

// TablesEqualText checks that each policy's own table
// (engine.VersionReader) judges every case of the domains as Compile and
// Match do: the same refusal of the constraint, the same verdict from
// Verdicts and the same result from Judge. A table is read once for each
// version list the domains share. It stops a domain after ten
// differences.
func TablesEqualText(t *testing.T, ps []engine.Policy, domains ...compare.Domain) {
	t.Helper()
	for _, p := range ps {
		r, ok := p.(engine.VersionReader)
		if !ok {
			t.Fatalf("%s does not implement engine.VersionReader", p.Name())
		}
		t.Run(p.Name(), func(t *testing.T) {
			for _, d := range domains {
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
