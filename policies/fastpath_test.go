package policies

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// keyVersions are versions around every limit of the precedence key,
// numbers at and past the widths of its fields, and prereleases that
// order every way SemVer orders them: numeric identifiers of one to eight
// bytes, long and short lists, identifiers that begin one another.
var keyVersions = []string{
	"0.0.0", "0.0.0-0", "0.0.0--", "0.0.0-A", "0.0.0-a", "0.0.0-z", "0.0.1", "0.1.0", "1.0.0",
	"1.0.0-0", "1.0.0-1", "1.0.0-9", "1.0.0-10", "1.0.0-255", "1.0.0-256", "1.0.0-65535", "1.0.0-65536",
	"1.0.0-16777216", "1.0.0-4294967296", "1.0.0-72057594037927935", "1.0.0-72057594037927936",
	"1.0.0-9999999999999999", "1.0.0-10000000000000000", "1.0.0-18446744073709551615",
	"1.0.0-18446744073709551616", "1.0.0-99999999999999999999999",
	"1.0.0-alpha", "1.0.0-alpha-", "1.0.0-alpha.0", "1.0.0-alpha.1", "1.0.0-alpha.12", "1.0.0-alpha.beta",
	"1.0.0-alpha0", "1.0.0-alphabet", "1.0.0-alphabeta", "1.0.0-alphabet.1", "1.0.0-alphabeta.1",
	"1.0.0-alphabeta0", "1.0.0-abcdefg", "1.0.0-abcdefg.1", "1.0.0-abcdefgh", "1.0.0-abcdefgh.0",
	"1.0.0-abcdefghi", "1.0.0-a.b.c.d", "1.0.0-a.b.c.d.e", "1.0.0-1.2.3", "1.0.0-1.2.3.4", "1.0.0-1.2.3.4.5", "1.0.0-1.2.3.256",
	"1.0.0-0.0.0.0.0", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0-x.7.z.92",
	"1.0.0-0a", "1.0.0-a-b", "1.0.0--.-",
	"1.0.0+build", "v1.0.0", "1.0.0-beta+exp.sha.5114f85", "1.0.1", "1.1.0", "2.0.0",
	"1.1048574.0", "1.1048575.0", "1.1048576.0", "1.0.1048574", "1.0.1048575", "1.0.1048576",
	"16777214.0.0", "16777214.1048574.1048574", "16777214.1048574.1048574-rc", "16777215.0.0",
	"16777216.0.0", "18446744073709551615.0.0", "0.18446744073709551615.0", "0.0.18446744073709551615",
	"18446744073709551615.18446744073709551615.18446744073709551615",
	"18446744073709551615.18446744073709551615.18446744073709551615-rc",
}

// TestPrecedenceKey: the limits of the key are where the comment on key
// puts them: a version has a key exactly when its numbers fit the key's
// fields, whatever its prerelease, and two versions with keys compare as
// their keys do.
func TestPrecedenceKey(t *testing.T) {
	exact := []struct {
		version string
		want    bool
	}{
		{"1.0.0", true},
		{"16777214.1048574.1048574", true},
		{"16777214.1048574.1048574-rc", true},
		{"16777215.0.0", false},
		{"16777215.0.0-rc", false},
		{"0.1048575.0", false},
		{"0.0.1048575", false},
		{"1.0.0-abcdefgh", true},
		{"1.0.0-abcdefghi", true},
		{"1.0.0-72057594037927936", true},
		{"1.0.0-1.2.3.4.5", true},
		{"1.0.0-99999999999999999999999", true},
	}
	versions := make([]engine.Version, len(exact))
	for i, tc := range exact {
		versions[i] = engine.MustParseVersion(tc.version)
	}
	keys := rank(versions)
	for i, tc := range exact {
		a := &versions[i]
		ka, ok := keys.key(a)
		if ok != tc.want {
			t.Errorf("%s: key exact %v, want %v", tc.version, ok, tc.want)
		}
		if !ok {
			continue
		}
		for j := range versions {
			b := &versions[j]
			kb, ok := keys.key(b)
			if !ok {
				continue
			}
			got := 0
			switch {
			case ka == kb:
			case le(ka, kb):
				got = -1
			default:
				got = 1
			}
			if want := a.Compare(*b); got != want {
				t.Errorf("%s vs %s: keys %x and %x compare %d, precedence %d", a, b, ka, kb, got, want)
			}
		}
	}
}

// TestRankedKey: in the ranked space of a table, the table's versions
// compare as their keys do, and so does each of them with a version the
// table does not hold, as a comparator's version.
func TestRankedKey(t *testing.T) {
	var table, others []engine.Version
	for i, text := range keyVersions {
		if i%3 == 0 {
			others = append(others, engine.MustParseVersion(text))
		} else {
			table = append(table, engine.MustParseVersion(text))
		}
	}
	keys := rank(table)
	for _, a := range table {
		ka, aok := keys.key(&a)
		if _, ok := coreKey(a.Major(), a.Minor(), a.Patch()); ok != aok {
			t.Errorf("%s: ranked key exact %v, its core fits %v", a, aok, ok)
		}
		for _, b := range append(append([]engine.Version(nil), table...), others...) {
			kb, bok := keys.key(&b)
			if !aok || !bok {
				continue
			}
			got := 0
			switch {
			case ka == kb:
			case le(ka, kb):
				got = -1
			default:
				got = 1
			}
			if want := a.Compare(b); got != want {
				t.Errorf("%s vs %s: ranked keys %x and %x compare %d, precedence %d", a, b, ka, kb, got, want)
			}
		}
	}
}

// readers are the native policies as fast-path readers.
func readers(t *testing.T) []engine.VersionReader {
	t.Helper()
	var out []engine.VersionReader
	for _, p := range All() {
		r, ok := p.(engine.VersionReader)
		if !ok {
			t.Fatalf("%s does not implement engine.VersionReader", p.Name())
		}
		out = append(out, r)
	}
	return out
}

// sameTables checks that the policy's own table and the text table give
// the same compile error for constraint, and that the own table's Judge
// and Verdicts give the text table's results; it returns a description of
// the first difference.
func sameTables(p engine.Policy, fast, text engine.VersionTable, constraint string, versions []string, out []engine.Verdict) string {
	fm, ferr := fast.Compile(constraint)
	tm, terr := text.Compile(constraint)
	switch {
	case (ferr == nil) != (terr == nil):
		return fmt.Sprintf("%s: %q: compiled error %v, text error %v", p.Name(), constraint, ferr, terr)
	case ferr != nil:
		if ferr.Error() != terr.Error() {
			return fmt.Sprintf("%s: %q: compiled error %q, text error %q", p.Name(), constraint, ferr, terr)
		}
		return ""
	}
	fm.Verdicts(out)
	for i := range versions {
		got, w := fm.Judge(i), tm.Judge(i)
		if got != w {
			return fmt.Sprintf("%s: %q | %q: compiled %v (%s), Match %v (%s)", p.Name(), constraint, versions[i], got.Verdict, got.Reason, w.Verdict, w.Reason)
		}
		if out[i] != w.Verdict {
			return fmt.Sprintf("%s: %q | %q: Verdicts %v, Match %v", p.Name(), constraint, versions[i], out[i], w.Verdict)
		}
	}
	return ""
}

// exhaustiveScope is the scope TestFastPathExhaustive runs: the smallest
// every day, the largest in the long run (longtest).
func exhaustiveScope() int {
	return longtest.Pick(compare.MinScope, compare.MaxScope)
}

// TestFastPathExhaustive: on the exhaustive domain, every native policy's
// table compiles each constraint as Compile does (the same error for one
// it refuses) and judges every version as Match judges its text, reason
// included, through Judge and Verdicts.
func TestFastPathExhaustive(t *testing.T) {
	scope := exhaustiveScope()
	d, err := compare.Exhaustive(scope)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range readers(t) {
		t.Run(r.Name(), func(t *testing.T) {
			t.Parallel()
			var fast, text engine.VersionTable
			var versions []string
			var out []engine.Verdict
			failures := 0
			err := d.Groups(func(g compare.Group) bool {
				if fast == nil || len(g.Versions) != len(versions) || &g.Versions[0] != &versions[0] {
					versions = g.Versions
					fast, text = engine.ReadVersions(r, versions), engine.TextTable(r, versions)
					out = make([]engine.Verdict, len(versions))
				}
				if diff := sameTables(r, fast, text, g.Constraint, versions, out); diff != "" {
					t.Error(diff)
					failures++
				}
				return failures < 10
			})
			if err != nil {
				t.Fatal(err)
			}
			if fast == nil || fast.Len() != len(versions) {
				t.Fatalf("scope %d: no table read, or a table of the wrong length", scope)
			}
		})
	}
}

// edgeConstraints and edgeVersions reach past the precedence key: numbers
// and prereleases too long for it, "~>" bounds at its limits and with no
// upper bound, text the parser refuses, and core-only's refusals.
var (
	edgeConstraints = []string{
		"", ">= 1.0.0", "!= 1.0.0, != 2.0.0", "!= 1.0.0-beta, != 1.0.0-rc, >= 1.0.0-alpha",
		"> 16777214.1048574.1048574", ">= 16777215", "< 16777215.0.0", "~> 16777213", "~> 16777214",
		"~> 1.1048573.0", "~> 1.1048574.0", "~> 1.1048574", "~> 18446744073709551615",
		"~> 1.18446744073709551615.0", "~> 1.18446744073709551615", "= 1.0.0-abcdefghi",
		">= 1.0.0-abcdefgh", "~> 1.0.0-abcdefg.1", ">= 1.0.0-72057594037927936", "= 1.0.0-72057594037927935",
		">= 1.0.0-alpha, < 1.0.0-alphabetagamma", "~> 1.0.0-beta.1, != 1.0.0-beta.2",
		"= 1.0.0, = 1.0.0+b", ">= 2.0.0, < 1.0.0", ">= 2.0.0-rc, < 1.0.0-rc, != 1.5.0",
		">=", "1.0.0,", "~> 1.2.3.4", "= 01.0.0", "~> 1.2.3.0", ">= 1.2.3.1, < 1.2.4", "= 1.0.0.0-beta",
	}
	edgeVersions = []string{
		"1.0.0", "1.0.0-beta", "1.0.0-abcdefgh", "1.0.0-abcdefghi", "1.0.0-alphabetagamma", "1.0.0-alphabet",
		"1.0.0-72057594037927935", "1.0.0-72057594037927936", "1.0.0-beta.1", "1.0.0-beta.2", "1.0.1-beta",
		"16777214.1048574.1048574", "16777214.1048574.1048574-rc", "16777215.0.0", "16777215.0.0-rc",
		"16777214.0.0", "16777213.9.9", "1.1048574.0", "1.1048575.0-rc", "1.1048575.0",
		"18446744073709551615.0.0", "1.18446744073709551615.0-rc", "1.5.0", "2.0.0-rc",
		"", "1.0", "v", "1.0.0-01", "1.0.0+", "x", "1.2.3.4", "1.2.3.4-rc", "1.2.3.x", "1.0.0.0",
	}
)

// TestFastPathEdges: past the precedence key, where Judge decides, every
// native policy's table, of all the versions or of one alone, agrees with
// Compile and Match.
func TestFastPathEdges(t *testing.T) {
	out := make([]engine.Verdict, len(edgeVersions))
	for _, r := range readers(t) {
		fast, text := engine.ReadVersions(r, edgeVersions), engine.TextTable(r, edgeVersions)
		for _, c := range edgeConstraints {
			if diff := sameTables(r, fast, text, c, edgeVersions, out); diff != "" {
				t.Error(diff)
			}
			for _, v := range edgeVersions {
				if got, want := judgeByTable(r, c, v), engine.Evaluate(r, c, v); got != want {
					t.Errorf("%s: %q | %q: one-version table %+v, Evaluate %+v", r.Name(), c, v, got, want)
				}
			}
		}
	}
}

// TestFastPathAllocations: judging a table's versions, into verdicts or
// one at a time, does not allocate.
func TestFastPathAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	versions := []string{"1.0.0", "1.1.0-beta.3", "2.0.0-beta.1", "1.0.0-abcdefghi", "16777215.0.0", "x"}
	out := make([]engine.Verdict, len(versions))
	for _, r := range readers(t) {
		table := engine.ReadVersions(r, versions)
		for _, c := range []string{">= 1.0.0, != 1.5.0, < 2.0.0", ">= 1.1.0-beta.2, ~> 1.1", "~> 16777214"} {
			m, err := table.Compile(c)
			if err != nil {
				continue // core-only refuses prerelease constraints
			}
			if n := testing.AllocsPerRun(100, func() { m.Verdicts(out) }); n != 0 {
				t.Errorf("%s: Verdicts for %q: %v allocations", r.Name(), c, n)
			}
			if n := testing.AllocsPerRun(100, func() { _ = m.Judge(1) }); n != 0 {
				t.Errorf("%s: Judge for %q: %v allocations", r.Name(), c, n)
			}
		}
	}
}

// TestFastPathConcurrent: a table and its matchers are used from several
// goroutines at once (run it with -race).
func TestFastPathConcurrent(t *testing.T) {
	versions := make([]string, 0, 64)
	for i := 0; i < 32; i++ {
		versions = append(versions, "1."+strconv.Itoa(i)+".0", "1."+strconv.Itoa(i)+".0-rc.1")
	}
	for _, r := range readers(t) {
		table := engine.ReadVersions(r, versions)
		m, err := table.Compile(">= 1.3.0, < 1.20.0")
		if err != nil {
			t.Fatal(err)
		}
		want := make([]engine.Verdict, len(versions))
		m.Verdicts(want)
		done := make(chan string)
		for g := 0; g < 4; g++ {
			go func() {
				out := make([]engine.Verdict, len(versions))
				m.Verdicts(out)
				for i := range out {
					if out[i] != want[i] || m.Judge(i).Verdict != want[i] {
						done <- fmt.Sprintf("%s: %s: verdict %v, want %v", r.Name(), versions[i], out[i], want[i])
						return
					}
				}
				done <- ""
			}()
		}
		for g := 0; g < 4; g++ {
			if msg := <-done; msg != "" {
				t.Error(msg)
			}
		}
	}
}

// BenchmarkVerdicts judges the versions of the exhaustive domain at the
// default scope against a few constraints, through each native policy's
// own table ("compiled") and through the text table that parses every
// version and calls Match ("text"), and reports the time per version.
func BenchmarkVerdicts(b *testing.B) {
	d, err := compare.Exhaustive(compare.DefaultScope)
	if err != nil {
		b.Fatal(err)
	}
	var versions []string
	_ = d.Groups(func(g compare.Group) bool {
		versions = g.Versions
		return false
	})
	constraints := []string{">= 1.0.0, < 2.0.0", "~> 1.0.0-beta", ">= 1.0.0-alpha, != 1.1.0", "= 2.0.0-beta"}
	out := make([]engine.Verdict, len(versions))
	for _, p := range All() {
		for _, kind := range []string{"compiled", "text"} {
			table := engine.ReadVersions(p, versions)
			if kind == "text" {
				table = engine.TextTable(p, versions)
			}
			var matchers []engine.TableMatcher
			for _, c := range constraints {
				if m, err := table.Compile(c); err == nil {
					matchers = append(matchers, m)
				}
			}
			b.Run(p.Name()+"/"+kind, func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					matchers[i%len(matchers)].Verdicts(out)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(versions)), "ns/version")
			})
		}
	}
}
