package hclpolicy_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/policies"
)

// A Policy has no table of its own: it keeps each version's value
// itself, and a table that read the versions once more measured no
// faster, so the fast path judges it through engine.ReadVersions'
// generic table, over Compile and Match. These tests check that it works
// there.

// tableDiffers compiles constraint with table and with the text table of
// p over versions, and says how they differ: the refusal (error text
// included), a verdict of Verdicts or a result of Judge. It returns ""
// when they agree.
func tableDiffers(p engine.Policy, table engine.VersionTable, constraint string, versions []string) string {
	fm, ferr := table.Compile(constraint)
	tm, terr := engine.TextTable(p, versions).Compile(constraint)
	if (ferr == nil) != (terr == nil) || ferr != nil && ferr.Error() != terr.Error() {
		return fmt.Sprintf("%s: Compile(%q): the table's error is %v, Compile's %v", p.Name(), constraint, ferr, terr)
	}
	if ferr != nil {
		return ""
	}
	out := make([]engine.Verdict, len(versions))
	fm.Verdicts(out)
	for i, v := range versions {
		want := tm.Judge(i)
		if out[i] != want.Verdict {
			return fmt.Sprintf("%s: %q | %q: Verdicts gives %s, Match %s (%s)", p.Name(), constraint, v, out[i], want.Verdict, want.Reason)
		}
		if got := fm.Judge(i); got != want {
			return fmt.Sprintf("%s: %q | %q: Judge gives %+v, Match %+v", p.Name(), constraint, v, got, want)
		}
	}
	return ""
}

// loadAll loads every policy of the HCL files matching pattern.
func loadAll(t *testing.T, pattern string, opt hclpolicy.Options) []*hclpolicy.Policy {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s: %v", pattern, err)
	}
	var ps []*hclpolicy.Policy
	for _, f := range files {
		loaded, diags := hclpolicy.Load(f, opt)
		if diags.HasErrors() {
			t.Fatal(diag.Format(diags[0]))
		}
		ps = append(ps, loaded...)
	}
	return ps
}

// tableGroups bounds the groups TestGenericTable judges in the long run:
// every single comparator of scope 1 and the first pairs; a third of
// them every day.
const tableGroups = 400

// TestGenericTable judges the first exhaustive scope-1 groups through
// the generic table (engine.ReadVersions, one table for them all) of
// every design and example and requires what Compile and Match give.
func TestGenericTable(t *testing.T) {
	longtest.SkipShort(t)
	ps := append(loadAll(t, designsDir+"/*.hcl", hclpolicy.Options{}), loadAll(t, designsDir+"/examples/*.hcl", hclpolicy.Options{})...)
	d, err := compare.Exhaustive(compare.MinScope)
	if err != nil {
		t.Fatal(err)
	}
	limit := longtest.Pick(tableGroups/3, tableGroups)
	for _, p := range ps {
		var table engine.VersionTable
		n := 0
		if err := d.Groups(func(g compare.Group) bool {
			if table == nil {
				table = engine.ReadVersions(p, g.Versions)
			}
			if msg := tableDiffers(p, table, g.Constraint, g.Versions); msg != "" {
				t.Error(msg)
				return false
			}
			n++
			return n < limit
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGenericTableEdges judges, through the generic table, versions the
// engine refuses, an admit that fails on some versions, constraints
// refuse refuses (refuse_reason's text, and a refuse that fails) and
// constraints the engine refuses.
func TestGenericTableEdges(t *testing.T) {
	src := `policy "first-tag" {
  admit = version.prerelease[0] == "beta"
}

policy "no-pre" {
  refuse        = constraint.names_prerelease
  refuse_reason = "names a prerelease: ${constraint.text}"
  admit         = satisfies(constraint, version.ga)
}

policy "first" {
  refuse = constraint.comparators[0].op == "!="
  admit  = true
}
`
	ps, diags := hclpolicy.Load(writeFile(t, "p.hcl", src), hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	versions := []string{"1.0.0", "2.0.0-beta", "2.0.0-rc", "2.0", "", "v1.0.0-beta+b", "x"}
	constraints := []string{">= 1.0.0", ">= 1.0.0-beta", "!= 1.0.0", "", ">= 1.0.0,", "~> 1.0-beta, < 3"}
	for _, p := range ps {
		table := engine.ReadVersions(p, versions)
		if table.Len() != len(versions) {
			t.Fatalf("%s: %d versions, want %d", p.Name(), table.Len(), len(versions))
		}
		for _, c := range constraints {
			if msg := tableDiffers(p, table, c, versions); msg != "" {
				t.Error(msg)
			}
		}
	}
}

// TestGenericTableCommandBlock: a command block judges through the
// generic table as it does through Compile and Match.
func TestGenericTableCommandBlock(t *testing.T) {
	path := writeFile(t, "p.hcl", "policy \"py\" {\n  command = [\"python3\", \"rule.py\"]\n}\n")
	opt := hclpolicy.Options{Command: func(string, []string, hcl.Range) (engine.Policy, hcl.Diagnostics) {
		return policies.Linear{}, nil
	}}
	ps := loadAll(t, path, opt)
	versions := []string{"1.0.0", "2.0.0-beta.1", "1.3.0", "x"}
	table := engine.ReadVersions(ps[0], versions)
	for _, c := range []string{"~> 1.2", ">= 1.0.0, < 2.0.0", "nope"} {
		if msg := tableDiffers(ps[0], table, c, versions); msg != "" {
			t.Error(msg)
		}
	}
}

// TestGenericTableConcurrent judges the same cases from several
// goroutines through one generic table, each compiling its own matchers,
// and checks each result against Compile and Match.
func TestGenericTableConcurrent(t *testing.T) {
	p := design(t, "hcl-ga-bound")
	d, err := compare.Exhaustive(compare.MinScope)
	if err != nil {
		t.Fatal(err)
	}
	var groups []compare.Group
	_ = d.Groups(func(g compare.Group) bool {
		groups = append(groups, g)
		return len(groups) < 60
	})
	table := engine.ReadVersions(p, groups[0].Versions)
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, g := range groups {
				if msg := tableDiffers(p, table, g.Constraint, g.Versions); msg != "" {
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
