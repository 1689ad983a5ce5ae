package adapters

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// tableConstraints are constraints that take each table off its pieces'
// path, or onto its edges, besides those of verdictTests and fuzzSeeds.
var tableConstraints = []string{
	"", " ", ",", ",,", "1.0.0,", ",1.0.0", ">= 1.0.0,,< 2.0.0",
	">= 1.0.0 , < 2.0.0", ">= 1.0.0,< 2.0.0", " >= 1.0.0, < 2.0.0 ",
	"= 1.0.0-beta, >= 1.0.0-alpha", "1.0.0-beta, 1.0.0-beta", "= 1.0.0-beta+b, >= 0.0.0",
	"=2.0.0-beta.1", "=2.0.0-beta.1, =2.0.0-beta.1", "2.0.0-beta.1 2.0.0-beta.2",
	"v1.0.0-beta", "v1.0.0-beta, >= v1.0.0-alpha", ">= v1.0.0-beta,< v2.0.0", "~> v1.0, v1.0.0-beta",
	"!= 0.0.0, < 1.0.0", "= 0.0.0, >= 0.0.0", "0.0.0",
	"~> 1.0.0-beta, ~> 1.0.0-beta", "~> 1, ~> 1.0, ~> 1.0.0",
	strings.Repeat(">= 1.0.0-abcdefghijklmnopqrstuvwxyz, ", 20) + "< 2.0.0",
	strings.Repeat("!= 1.0.0, ", 60) + ">= 0.1.0",
	"> 18446744073709551615.0.0, < 1.0.0",
	">= 1.0.0, 99999999999999999999",
	// The npm-style parser of the module installers: a first piece that
	// does not end with a letter or a digit, or on which it panics.
	"1.0.0-a~,1.0.0-a~99999999999999999999", "1.0.0-,1.0.0", "1.0.0-a~ ,1.0.0",
	"v1.0.0-a~,v1.0.0-beta", "1.0.0 ,v1.0.0-beta", "v1.0.0 ,v1.0.0-beta", "v1.0.0,1.0.0",
	"1.0.0-a~99999999999999999999", "1.0.0-a~99999999999999999999,1.0.0", "v1.0.0-a~99999999999999999999, 1.0.0",
	"1.0.0, v1.0.0-a~99999999999999999999",
}

// tableVersions are versions that take each table onto its edges,
// besides those of verdictTests and fuzzSeeds.
var tableVersions = []string{
	"0.0.0", "0.0.0+b", "0.0.0-0", "0.0.0-beta", "1.0.0", "1.0.0-beta", "1.0.0-beta+b",
	"1.0.0-alpha", "1.0.0-alpha.beta", "2.0.0-beta.1", "2.0.0-beta.1+b", "v2.0.0-beta.1",
	"1.0.0beta", "1.0.0.0-beta", "9223372036854775808.0.0", "99999999999999999999.0.0",
	"1.0.0-99999999999999999999", "", " ", "v", "1.0.0 ",
}

// tableCases are every constraint and every version the tables are
// checked with.
func tableCases() (constraints, versions []string) {
	constraints = append(constraints, tableConstraints...)
	versions = append(versions, tableVersions...)
	for _, tt := range verdictTests {
		constraints = append(constraints, tt.constraint)
		versions = append(versions, tt.version)
	}
	for _, s := range fuzzSeeds {
		constraints = append(constraints, s[0])
		versions = append(versions, s[1])
	}
	return constraints, versions
}

// checkTable compiles constraint with p's own table of versions and with
// the text table, and fails t unless both refuse it with the same error
// or judge every version alike: the same verdict from Verdicts, the same
// result from Judge.
func checkTable(t *testing.T, table engine.VersionTable, p engine.Policy, constraint string, versions []string) {
	t.Helper()
	if msg := tableDiff(table, p, constraint, versions); msg != "" {
		t.Fatal(msg)
	}
}

// tableDiff is checkTable's check: "" when the table agrees with the
// text, otherwise how it differs.
func tableDiff(table engine.VersionTable, p engine.Policy, constraint string, versions []string) string {
	return tableDiffFrom(table, p, constraint, versions, judgeOnText(p, constraint, versions))
}

// onText is what Compile and Match give for a constraint: Compile's
// error, or the result of every version.
type onText struct {
	err     error
	results []engine.Result
}

// judgeOnText judges constraint against versions through the text table.
func judgeOnText(p engine.Policy, constraint string, versions []string) onText {
	tm, err := engine.TextTable(p, versions).Compile(constraint)
	if err != nil {
		return onText{err: err}
	}
	out := onText{results: make([]engine.Result, len(versions))}
	for i := range versions {
		out.results[i] = tm.Judge(i)
	}
	return out
}

// tableDiffFrom is tableDiff with what the text gives judged before.
func tableDiffFrom(table engine.VersionTable, p engine.Policy, constraint string, versions []string, text onText) string {
	fm, ferr := table.Compile(constraint)
	terr := text.err
	if (ferr == nil) != (terr == nil) || ferr != nil && ferr.Error() != terr.Error() {
		return fmt.Sprintf("%s: Compile(%q): the table's error is %v, Compile's %v", p.Name(), constraint, ferr, terr)
	}
	if ferr != nil {
		return ""
	}
	if table.Len() != len(versions) {
		return fmt.Sprintf("%s: the table has %d versions, want %d", p.Name(), table.Len(), len(versions))
	}
	out := make([]engine.Verdict, len(versions))
	for i := range out {
		out[i] = engine.Verdict(255)
	}
	fm.Verdicts(out)
	for i, v := range versions {
		want := text.results[i]
		if out[i] != want.Verdict {
			return fmt.Sprintf("%s: %q | %q: Verdicts gives %s, Match %s (%s)", p.Name(), constraint, v, out[i], want.Verdict, want.Reason)
		}
		if got := fm.Judge(i); got != want {
			return fmt.Sprintf("%s: %q | %q: Judge gives %v, Match %v", p.Name(), constraint, v, got, want)
		}
	}
	return ""
}

// TestTableEqualsText judges every constraint of tableCases against all
// its versions through each adapter's table, once with the pieces kept
// and once with no memo, and requires what Compile and Match give.
func TestTableEqualsText(t *testing.T) {
	longtest.SkipShort(t)
	constraints, versions := tableCases()
	// What the text gives, judged once for both runs.
	text := make([][]onText, len(All()))
	for i, p := range All() {
		for _, c := range constraints {
			text[i] = append(text[i], judgeOnText(p, c, versions))
		}
	}
	for _, memo := range []bool{true, false} {
		name := "memo"
		if !memo {
			name = "no-memo"
			defer func(lo, hi int) { minMemo, maxMemo = lo, hi }(minMemo, maxMemo)
			minMemo, maxMemo = 0, 0
		}
		t.Run(name, func(t *testing.T) {
			for i, p := range All() {
				table := p.(engine.VersionReader).ReadVersions(versions)
				for k, c := range constraints {
					if msg := tableDiffFrom(table, p, c, versions, text[i][k]); msg != "" {
						t.Fatal(msg)
					}
				}
			}
		})
	}
}

// TestTableConcurrent judges every constraint of tableCases from several
// goroutines through one table per adapter, each compiling its own
// matchers while the others fill the table's pieces, and requires what
// Compile and Match give.
func TestTableConcurrent(t *testing.T) {
	constraints, versions := tableCases()
	for _, p := range All() {
		// What the text gives, judged once for the four goroutines.
		text := make([]onText, len(constraints))
		for i, c := range constraints {
			text[i] = judgeOnText(p, c, versions)
		}
		table := p.(engine.VersionReader).ReadVersions(versions)
		var wg sync.WaitGroup
		errs := make(chan string, 4)
		// Each goroutine judges every constraint; under -short, the race
		// detector's run, half of them, each half shared by two.
		n := len(constraints)
		if testing.Short() {
			n /= 2
		}
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range n {
					// Each goroutine starts elsewhere in the list.
					k := (i + w*len(constraints)/4) % len(constraints)
					if msg := tableDiffFrom(table, p, constraints[k], versions, text[k]); msg != "" {
						select {
						case errs <- msg:
						default:
						}
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for msg := range errs {
			t.Error(msg)
		}
	}
}

// TestTableEmpty reads no versions: every constraint compiles as Compile
// does and judges nothing.
func TestTableEmpty(t *testing.T) {
	for _, p := range All() {
		table := p.(engine.VersionReader).ReadVersions(nil)
		for _, c := range []string{">= 1.0.0", "", "~> 1.0-beta, != 1.5.0", "v"} {
			checkTable(t, table, p, c, nil)
		}
	}
}

// TestTableRandomText judges random constraint texts, written with every
// operator and spelling the libraries read differently (no space, two
// spaces, a "v", commas with and without spaces, doubled, or missing),
// against one table per adapter, so that pieces are shared between
// constraints, and requires what Compile and Match give.
func TestTableRandomText(t *testing.T) {
	ops := []string{"", "=", "!=", ">", ">=", "<", "<=", "~>", "=>", "^", "~"}
	gaps := []string{"", " ", "  ", "v", " v"}
	vers := []string{"0", "1", "1.0", "1.0.0", "2.0.0", "0.0.0", "1.0.0-beta", "1.0.0-0", "1.0-beta", "2.0.0-rc.1", "1.0.0+b", "1.0.0-beta+b", "1.2.3.4", "1.0.0beta", "1.x", "3"}
	seps := []string{",", ", ", " , ", ",,", " ", ",  "}
	versions := []string{
		"0.0.0", "0.0.0+b", "0.0.0-beta", "1", "1.0", "1.0.0", "1.0.0-0", "1.0.0-a", "1.0.0-beta", "1.0.0-rc.1",
		"1.0.0+b", "1.0.0-beta+b", "v1.0.0-beta", "1.0.0.0-beta", "1.0.0beta", "1.1.0-beta", "1.2.0", "2.0.0-beta", "2.0.0-rc.1", "2.0.0",
	}
	n := 3000
	if testing.Short() {
		n = 300
	}
	tables := make([]engine.VersionTable, len(All()))
	for i, p := range All() {
		tables[i] = p.(engine.VersionReader).ReadVersions(versions)
	}
	r := rand.New(rand.NewSource(1))
	for range n {
		var b strings.Builder
		for i := range 1 + r.Intn(3) {
			if i > 0 {
				b.WriteString(seps[r.Intn(len(seps))])
			}
			b.WriteString(ops[r.Intn(len(ops))] + gaps[r.Intn(len(gaps))] + vers[r.Intn(len(vers))])
		}
		for i, p := range All() {
			checkTable(t, tables[i], p, b.String(), versions)
		}
	}
}

// TestVerdictsAllocateNothing: Verdicts, the hot path, allocates
// nothing.
func TestVerdictsAllocateNothing(t *testing.T) {
	_, versions := tableCases()
	out := make([]engine.Verdict, len(versions))
	for _, p := range All() {
		table := p.(engine.VersionReader).ReadVersions(versions)
		for _, c := range []string{">= 1.0.0-beta, < 2.0.0", "~> 1.2", "= 2.0.0-beta.1", "!= 1.0.0, > 0.1.0"} {
			m, err := table.Compile(c)
			if err != nil {
				t.Fatalf("%s: %q: %v", p.Name(), c, err)
			}
			if n := testing.AllocsPerRun(20, func() { m.Verdicts(out) }); n != 0 {
				t.Errorf("%s: %q: Verdicts allocates %.0f times", p.Name(), c, n)
			}
		}
	}
}
