package updaters_test

import (
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/updaters"
)

// FuzzUpdaters checks every policy of the package on any input: no
// panic, a refusal is Invalid with a reason and the table's refusal too,
// a verdict has a reason, is the same twice and is the table's, and what
// Select finds in a one-version list is a version Match admits.
func FuzzUpdaters(f *testing.F) {
	for _, s := range [][2]string{
		{"~> 1.2", "1.5.0"}, {"~> 0.14", "0.15.0"}, {"1.2", "1.2.5"}, {">= 1.0.0-beta", "1.0.0-rc.1"},
		{"~> 4.0, != 4.2.0", "4.2.0"}, {"", "1.0.0"}, {"1.0,,2", "1.0"}, {"^1.2 || 3.x", "3.4.0"},
		{"1.2 - 1.4", "1.3.0"}, {"~> 1.0.0-rc9", "1.0.0-rc10"}, {"= 1.0.0+b", "v1.0.0+b"}, {"< 0", " 0.0.0"},
		{"~> 99999999999999999999", "1.0.0"}, {"~> 9007199254740990", "9007199254740991.0.0"},
		{">= 1.0 ,, < 2", "1.5.0"}, {" 1.0 ,2.0|| ,", "1.0.0"}, {"1.0 2.0, 3 - 4", "3.0.0"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, constraint, version string) {
		for _, p := range updaters.All() {
			m, err := p.Compile(constraint)
			tm, terr := p.(engine.VersionReader).ReadVersions([]string{version}).Compile(constraint)
			if (err == nil) != (terr == nil) || err != nil && err.Error() != terr.Error() {
				t.Fatalf("%s: %q: Compile error %v, the table's %v", p.Name(), constraint, err, terr)
			}
			if err != nil {
				if r := engine.Evaluate(p, constraint, version); r.Verdict != engine.Invalid || r.Reason == "" {
					t.Fatalf("%s: %q refused (%v), Evaluate = %+v", p.Name(), constraint, err, r)
				}
				continue
			}
			r := m.Match(version)
			if r.Reason == "" && r.Verdict != engine.Allow || r.Verdict > engine.Invalid {
				t.Fatalf("%s: %q | %q: %+v", p.Name(), constraint, version, r)
			}
			if again := m.Match(version); again != r {
				t.Fatalf("%s: %q | %q: %+v, then %+v", p.Name(), constraint, version, r, again)
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
			if sel.Found && (sel.Version != version || r.Verdict != engine.Allow) {
				t.Fatalf("%s: %q | %q: %+v, Select = %+v", p.Name(), constraint, version, r, sel)
			}
		}
	})
}
