package readers_test

import (
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/readers"
)

// FuzzReaders checks every policy of the package on any input: no panic,
// a refusal is Invalid with a reason, a verdict has a reason and is the
// same twice, the table judges as Match does, and what Select finds in a
// one-version list is a version Match admits.
func FuzzReaders(f *testing.F) {
	for _, s := range [][2]string{
		{">= 2.0.0-beta.1", "2.0.0-beta.2"}, {"", "2.0.0-beta.1"}, {"=> 1.0", "1.0.0"}, {">= v1.0.0", "1.0.0"},
		{">= 1.0.0", "1.0.0.0"}, {"= 1.0.0", "1.0.0+b"}, {"~> 99999999999999999999", "1.0.0"}, {" ", "x"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, constraint, version string) {
		for _, p := range readers.All() {
			m, err := p.Compile(constraint)
			if err != nil {
				if r := engine.Evaluate(p, constraint, version); r.Verdict != engine.Invalid || r.Reason == "" {
					t.Fatalf("%s: %q refused (%v), Evaluate = %+v", p.Name(), constraint, err, r)
				}
				continue
			}
			r := m.Match(version)
			if r.Reason == "" || r.Verdict > engine.Invalid {
				t.Fatalf("%s: %q | %q: %+v", p.Name(), constraint, version, r)
			}
			if again := m.Match(version); again != r {
				t.Fatalf("%s: %q | %q: %+v, then %+v", p.Name(), constraint, version, r, again)
			}
			tm, err := p.(engine.VersionReader).ReadVersions([]string{version}).Compile(constraint)
			if err != nil {
				t.Fatalf("%s: the table refuses %q: %v", p.Name(), constraint, err)
			}
			out := make([]engine.Verdict, 1)
			tm.Verdicts(out)
			if got := tm.Judge(0); got != r || out[0] != r.Verdict {
				t.Fatalf("%s: %q | %q: Match %+v, table %+v, %v", p.Name(), constraint, version, r, got, out[0])
			}
			sel, err := engine.Select(p, constraint, []string{version})
			if err != nil {
				t.Fatalf("%s: Select(%q): %v, Compile accepted it", p.Name(), constraint, err)
			}
			if sel.Found != (r.Verdict == engine.Allow) || sel.Found && sel.Version != version {
				t.Fatalf("%s: %q | %q: %+v, Select = %+v", p.Name(), constraint, version, r, sel)
			}
		}
	})
}
