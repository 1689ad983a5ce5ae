package e2e

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/terraform/registry/registrytest"
)

// pool is the versions a generated history is drawn from.
var pool = []string{
	"0.9.0", "1.0.0-alpha.1", "1.0.0-beta.1", "1.0.0", "1.1.0-rc.1", "1.1.0", "1.2.0-beta.1", "1.2.0",
	"2.0.0-alpha.1", "2.0.0-beta.1", "2.0.0-beta.2", "2.0.0-rc.1", "2.0.0", "2.1.0-beta.1", "2.1.0", "3.0.0-beta.1",
}

// Case is one module call: its constraint and the registry module's
// history.
type Case struct {
	Name, Constraint string
	History          []string
}

// comparator draws one comparator naming a version near the pool.
func comparator(r *rand.Rand) string {
	ops := []string{"", "= ", "!= ", "> ", ">= ", "< ", "<= ", "~> "}
	v := pool[r.IntN(len(pool))]
	if r.IntN(4) == 0 { // a partial version
		v = strings.Join(strings.Split(strings.SplitN(v, "-", 2)[0], ".")[:2], ".")
	}
	return ops[r.IntN(len(ops))] + v
}

// Cases generates n constraint × history cases that both the engine and
// go-version read (init refuses a configuration go-version cannot read
// before choosing anything).
func Cases(seed uint64, n int) []Case {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []Case
	for len(out) < n {
		c := comparator(r)
		if r.IntN(2) == 0 {
			c += ", " + comparator(r)
		}
		if _, err := engine.ParseConstraint(c); err != nil {
			continue
		}
		if _, err := goversion.NewConstraint(c); err != nil {
			continue
		}
		var h []string
		for _, v := range pool {
			if r.IntN(2) == 0 {
				h = append(h, v)
			}
		}
		if len(h) == 0 {
			continue
		}
		out = append(out, Case{Name: fmt.Sprintf("m%d", len(out)), Constraint: c, History: h})
	}
	return out
}

// unresolvable finds the calls init found no version for: none matches
// ("Unresolvable module version constraint"), or none is left once
// today's prerelease check skipped every listed version ("Module has no
// versions").
var unresolvable = regexp.MustCompile(`(no\s+available\s+version\s+of\s+module\s+|Module\s+)"` + regexp.QuoteMeta(registrytest.Host) + `/corp/(m\d+)/aws"(\s+\(main\.tf:\d+\)\s+has\s+no\s+versions)?`)

// InstallBatch writes one root module calling every case's module, runs
// init with bin and returns what it installed by case name, "none" for a
// case init found no version for, and the init's output.
func InstallBatch(t *testing.T, e *registrytest.Env, bin, data string, batch []Case) (map[string]string, string) {
	t.Helper()
	var main strings.Builder
	for _, c := range batch {
		e.Reg.Module(c.Name, c.History...)
		fmt.Fprintf(&main, "module %q {\n  source  = %q\n  version = %q\n}\n\n", c.Name, registrytest.Host+"/corp/"+c.Name+"/aws", c.Constraint)
	}
	e.Write(filepath.Join(e.Root, "main.tf"), main.String())
	out, err := e.Init(bin, data)
	got := registrytest.Installed(t, data)
	if got == nil {
		got = map[string]string{}
	}
	for _, m := range unresolvable.FindAllStringSubmatch(out, -1) {
		switch {
		case m[3] != "":
			got[m[2]] = "none (no versions)"
		case strings.HasPrefix(m[1], "no"):
			got[m[2]] = "none"
		}
	}
	if err != nil && len(unresolvable.FindAllString(out, -1)) == 0 {
		t.Fatalf("init failed for another reason than a module without a version: %v\n%s", err, out)
	}
	return got, out
}

// Differential pushes generated constraint × history cases through
// the patched init, each a module call of its own against the local
// registry, under cargo, linear and ga-bound in turn, and compares what
// it installs with engine.Select. Cases the policy selects no version
// for run in a batch of their own (init stops installing at the first
// failure of a batch, so the others would be left unknown). Without
// prerel.hcl, the same cases install as with the release.
func Differential(t *testing.T, inst Installer) {
	bin := inst.Patched(t)
	pols := catalogue.New()
	const perPolicy = 100
	total, differ := 0, 0
	for i, name := range []string{"cargo", "linear", "ga-bound"} {
		p, _ := pols.Lookup(name)
		today, ok := pols.Lookup(inst.TodayModule)
		if !ok {
			t.Fatalf("no policy %q", inst.TodayModule)
		}
		all := Cases(uint64(i+1), perPolicy)
		var found, none []Case
		want := map[string]string{}
		for _, c := range all {
			sel, err := engine.Select(p, c.Constraint, c.History)
			if err != nil || !sel.Found {
				none = append(none, c)
				want[c.Name] = "none"
				continue
			}
			found = append(found, c)
			want[c.Name] = sel.Version
			if tsel, _ := engine.Select(today, c.Constraint, c.History); tsel.Version != sel.Version {
				differ++
			}
		}
		t.Run(name, func(t *testing.T) {
			e := registrytest.NewEnv(t)
			e.Write(filepath.Join(e.Root, "prerel.hcl"), fmt.Sprintf("default_policy = %q\n", name))
			for j, batch := range [][]Case{found, none} {
				if len(batch) == 0 {
					continue
				}
				got, out := InstallBatch(t, e, bin, filepath.Join(e.Tmp, fmt.Sprint("data", j)), batch)
				for _, c := range batch {
					total++
					if got[c.Name] != want[c.Name] {
						t.Errorf("%s: constraint %q, history %v: the patched init installed %q, engine.Select(%s) selects %q",
							c.Name, c.Constraint, c.History, got[c.Name], name, want[c.Name])
					}
				}
				if t.Failed() {
					t.Logf("init output:\n%s", out)
				}
			}
		})
	}
	t.Logf("%d cases through the patched init; %d of them select another version than today's rule", total, differ)
	if total < 300 {
		t.Errorf("%d cases, want at least 300", total)
	}

	// Without prerel.hcl: the patched init and the release, case by case.
	rel := inst.ReleaseBinary()
	if rel == "" {
		t.Logf("no release %s: the comparison without prerel.hcl is skipped", inst.Release)
		return
	}
	e := registrytest.NewEnv(t)
	all := Cases(99, perPolicy)
	var results [2]map[string]string
	for i, b := range []string{bin, rel} {
		res := map[string]string{}
		remaining := slices.Clone(all)
		// init stops at a module without a version: run again without
		// the ones it named until the rest installs.
		for round := 0; len(remaining) > 0 && round < 50; round++ {
			got, _ := InstallBatch(t, e, b, filepath.Join(e.Tmp, fmt.Sprintf("data-%d-%d", i, round)), remaining)
			var next []Case
			for _, c := range remaining {
				switch v, ok := got[c.Name]; {
				case ok:
					res[c.Name] = v
				default:
					next = append(next, c)
				}
			}
			if len(next) == len(remaining) {
				t.Fatalf("%s: init installed nothing of %d cases", b, len(remaining))
			}
			remaining = next
		}
		results[i] = res
	}
	for _, c := range all {
		if results[0][c.Name] != results[1][c.Name] {
			t.Errorf("without prerel.hcl, %s (%q, %v): patched %q, release %q", c.Name, c.Constraint, c.History, results[0][c.Name], results[1][c.Name])
		}
	}
	t.Logf("%d cases without prerel.hcl: the patched init installs as the release", len(all))
}
