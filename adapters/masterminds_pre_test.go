package adapters

import (
	"fmt"
	"testing"

	semver "github.com/Masterminds/semver/v3"

	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// mastermindsRefusesPrereleases reads the layout of Masterminds' Constraints
// (it answers true where it should), and wherever it answers true Check
// refuses every prerelease version: on constraints of every operator, AND
// groups and "||" alternatives, and generated ones.
func TestMastermindsRefusesPrereleases(t *testing.T) {
	constraints := []string{
		">= 1.0.0", "> 1", "< 2.0", "<= 1.2.3", "= 1.0.0", "1.0.0", "!= 1.0.0", "~1.2", "~> 1.2.3", "^1.2", "^0.0.1",
		"=> 1.0", "=< 2", "1.x", "*", "x", ">= 1.0.0, < 2.0.0", ">= 1.0.0 < 2.0.0", "1.2 - 1.4", "^1.2 || 3.x",
		">= 1.0.0-0", ">= 1.0.0-beta, < 2", "~1.2.3-rc.1", "^1.2 || >= 3.0.0-0", "!= 1.0.0-beta", "1.0.0-0 - 2",
	}
	versions := []string{"0.0.0-0", "1.0.0-0", "1.0.0-beta", "1.2.3-rc.1", "1.2.4-rc.1", "2.0.0-0", "3.0.0-alpha", "1.0.0-beta+b", "v1.2.0-x"}
	// Generated constraints of three seeds every day, twenty in the long
	// run.
	for seed := range longtest.Pick[int64](3, 20) {
		generate.Groups(seed, 64*16, func(c string, vs []string) bool {
			text, _, err := mastermindsPieces(c, nil)
			if err == nil {
				constraints = append(constraints, text)
			}
			versions = append(versions, vs...)
			return true
		})
	}
	var pres []*semver.Version
	for _, text := range versions {
		if v, err := semver.NewVersion(text); err == nil && v.Prerelease() != "" {
			pres = append(pres, v)
		}
	}
	refusing := 0
	for _, text := range constraints {
		cs, err := semver.NewConstraint(text)
		if err != nil {
			continue
		}
		for _, include := range []bool{false, true} {
			c := *cs
			c.IncludePrerelease = include
			if !mastermindsRefusesPrereleases(&c) {
				continue
			}
			refusing++
			for _, v := range pres {
				if c.Check(v) {
					t.Fatalf("%q (IncludePrerelease %v): Check admits %s, the shortcut refuses every prerelease", text, include, v)
				}
			}
		}
	}
	for _, text := range []string{">= 1.0.0", "~1.2, < 2", "^1.2 || 3.x"} {
		cs, err := semver.NewConstraint(text)
		if err != nil || !mastermindsRefusesPrereleases(cs) {
			t.Errorf("%q: mastermindsRefusesPrereleases is false (%v): the layout of Constraints is not Masterminds v3.5.0's", text, err)
		}
	}
	for _, text := range []string{">= 1.0.0-0", "^1.2 || >= 3.0.0-0"} {
		cs, err := semver.NewConstraint(text)
		if err != nil || mastermindsRefusesPrereleases(cs) {
			t.Errorf("%q: mastermindsRefusesPrereleases is true (%v), but a group contains a prerelease", text, err)
		}
	}
	if refusing == 0 {
		t.Error("no constraint refuses prereleases")
	}
}

// Check answers the same for a release whether IncludePrerelease is set
// or not, which lets mastermindsTable.includedColumn take the releases'
// verdicts from the column without it: on constraints of every operator,
// with and without prereleases, and generated ones. And the table of
// masterminds judges as Match on the constraints that include
// prereleases, whose included columns are made that way.
func TestMastermindsIncludedReleases(t *testing.T) {
	constraints := []string{
		">= 1.0.0", "> 1", "< 2.0", "<= 1.2.3", "= 1.0.0", "1.0.0", "!= 1.0.0", "~1.2", "~> 1.2.3", "^1.2", "^0.0.1",
		"=> 1.0", "=< 2", "1.x", "*", "x", ">= 1.0.0, < 2.0.0", "1.2 - 1.4", "^1.2 || 3.x", "~1.2.x", "^0.x",
		">= 1.0.0-0", ">= 1.0.0-beta, < 2", "~1.2.3-rc.1", "^1.2 || >= 3.0.0-0", "!= 1.0.0-beta", "1.0.0-0 - 2",
	}
	versions := []string{"0.0.0", "0.0.1", "1.0.0", "1.0.1", "1.2.0", "1.2.3", "1.2.4", "1.3.0", "1.4.9", "2.0.0", "3.1.0",
		"v1.2.0", "1.0.0+build", "1.0.0-beta", "1.2.3-rc.1", "2.0.0-0"}
	var groups [][]string
	// Generated groups of two seeds every day, ten in the long run.
	for seed := range longtest.Pick[int64](2, 10) {
		generate.Groups(seed, 64*16, func(c string, vs []string) bool {
			constraints = append(constraints, c)
			if text, _, err := mastermindsPieces(c, nil); err == nil {
				constraints = append(constraints, text)
			}
			versions = append(versions, vs...)
			groups = append(groups, append([]string{c}, vs...))
			return true
		})
	}
	var releases []*semver.Version
	for _, text := range versions {
		if v, err := semver.NewVersion(text); err == nil && v.Prerelease() == "" {
			releases = append(releases, v)
		}
	}
	for _, text := range constraints {
		cs, err := semver.NewConstraint(text)
		if err != nil {
			continue
		}
		without, with := *cs, *cs
		without.IncludePrerelease, with.IncludePrerelease = false, true
		for _, v := range releases {
			if a, b := without.Check(v), with.Check(v); a != b {
				t.Fatalf("%q on release %s: Check is %v without IncludePrerelease, %v with it", text, v, a, b)
			}
		}
	}
	// The tables of masterminds and masterminds-pre of one list share
	// its pieces' columns: each is read after the other in turn, so that
	// each finds columns the other made.
	for round, order := range [][]Masterminds{{{}, {IncludePrerelease: true}}, {{IncludePrerelease: true}, {}}} {
		for _, g := range groups {
			c, vs := g[0], g[1:]
			vs = append([]string{fmt.Sprint(round)}, vs...) // a list of its own in each round
			for _, m := range order {
				tm, err := m.ReadVersions(vs).Compile(c)
				if err != nil {
					continue
				}
				out := make([]engine.Verdict, len(vs))
				tm.Verdicts(out)
				mm, err := m.Compile(c)
				if err != nil {
					t.Fatalf("%q: the table compiles it, Compile refuses it: %v", c, err)
				}
				for i, v := range vs {
					if want := mm.Match(v).Verdict; out[i] != want {
						t.Fatalf("%s %q on %q: the table says %v, Match %v", m.Name(), c, v, out[i], want)
					}
				}
			}
		}
	}
}
