package impact_test

import (
	"bufio"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/impact"
	"github.com/prerel/prerel/internal/longtest"
)

// TestLoadCorpus checks the embedded call corpus against the counts of
// its description (testdata/corpus/calls/README.md) and that the
// histories directory holds exactly the histories the calls name.
func TestLoadCorpus(t *testing.T) {
	d, err := impact.LoadCorpus(prerel.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	var modules, providers, withHistory, empty int
	named := map[string]bool{}
	for _, c := range d.Calls {
		switch c.Kind {
		case impact.KindModule:
			modules++
		case impact.KindProvider:
			providers++
		}
		if c.History != "" {
			withHistory++
			named[c.History] = true
		}
		if c.Constraint == "" {
			empty++
		}
	}
	if len(d.Calls) != 6289 || modules != 2900 || providers != 3389 || withHistory != 5222 || empty != 308 || d.Repositories != 119 {
		t.Errorf("%d calls (%d modules, %d providers, %d with a history, %d empty constraints), %d repositories; want 6289 (2900, 3389, 5222, 308), 119",
			len(d.Calls), modules, providers, withHistory, empty, d.Repositories)
	}
	files, err := fs.Glob(prerel.Corpus(), impact.HistoriesDir+"/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !named[path.Base(f)] {
			t.Errorf("%s: no call names it", f)
		}
	}
	if len(files) != len(named) || len(d.Histories) != len(named) || len(named) != 169 {
		t.Errorf("%d history files, %d read, %d named by calls; want 169 each", len(files), len(d.Histories), len(named))
	}
	if h := d.Histories["terraform-null-label.txt"]; h == nil || !h.StripV || h.From != "tags of cloudposse/terraform-null-label" {
		t.Errorf("terraform-null-label.txt: %+v", h)
	}
}

// tally is one class's count by cause, as the independent count keeps it.
type tally struct{ calls, rule, reading int }

// TestCorpusIndependentCount recomputes the per-class counts of the
// embedded corpus for several policies against today's installers by a
// separate route: its own reading of the files, one engine.Select per
// (kind, constraint, history), its own classification and its own
// prerelease stripping, and compares them with impact's, exactly.
func TestCorpusIndependentCount(t *testing.T) {
	longtest.SkipShort(t)
	fsys := prerel.Corpus()
	reg := catalogue.New()
	rows := readCallRows(t, fsys)
	histories := map[string][]string{}
	for _, r := range rows {
		if r["history"] != "" && histories[r["history"]] == nil {
			histories[r["history"]] = offered(t, fsys, r["history"])
		}
	}
	d, err := impact.LoadCorpus(fsys)
	if err != nil {
		t.Fatal(err)
	}
	policies := []string{"cargo", "linear", "core-only", "hashicorp"}
	if testing.Short() || raceEnabled {
		// hashicorp, which parses every version with go-version, takes
		// most of the time.
		policies = policies[:3]
	}
	for _, name := range policies {
		t.Run(name, func(t *testing.T) {
			p, _ := reg.Lookup(name)
			want, without := independentCount(reg, p, rows, histories)
			r, err := runImpact(d, impact.Options{Policy: p, Policies: reg})
			if err != nil {
				t.Fatal(err)
			}
			if r.Data.WithoutHistory != without {
				t.Errorf("without a history: impact %d, independent %d", r.Data.WithoutHistory, without)
			}
			changed := 0
			for _, c := range r.Classes {
				got := tally{calls: c.Calls}
				if c.ByCause != nil {
					got.rule, got.reading = c.ByCause.PrereleaseRule.Calls, c.ByCause.Reading.Calls
				}
				if got != want[string(c.Class)] {
					t.Errorf("%s: impact %+v, independent %+v", c.Class, got, want[string(c.Class)])
				}
				if c.Changed {
					changed += c.Calls
				}
				delete(want, string(c.Class))
			}
			for class, n := range want {
				t.Errorf("independent class %s (%+v) is not in the report", class, n)
			}
			t.Logf("%s against today's installers: %d of %d calls change", name, changed, r.Data.WithHistory)
		})
	}
	// The counts the README, docs/install-today.md and the report quote: linear changes 39 calls
	// of the real corpus, cargo none.
	if want, _ := independentCount(reg, must(reg, "linear"), rows, histories); want["prerelease-later-minor-or-major"].calls != 39 {
		t.Errorf("linear: %d calls prerelease-later-minor-or-major, want 39", want["prerelease-later-minor-or-major"].calls)
	}
}

func must(reg *engine.Registry, name string) engine.Policy {
	p, _ := reg.Lookup(name)
	return p
}

// readCallRows reads calls.tsv into maps from column name to field.
func readCallRows(t *testing.T, fsys fs.FS) []map[string]string {
	t.Helper()
	f, err := fsys.Open("calls/calls.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var header []string
	var rows []map[string]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = fields
			continue
		}
		row := map[string]string{}
		for i, h := range header {
			row[h] = fields[i]
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// offered reads a history: one leading v stripped, only what the engine
// reads as a version, each version once.
func offered(t *testing.T, fsys fs.FS, name string) []string {
	t.Helper()
	data, err := fs.ReadFile(fsys, "calls/versions/"+name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		v := strings.TrimPrefix(strings.TrimSpace(line), "v")
		if _, err := engine.ParseVersion(v); err == nil && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// choice is what a policy installs, as the independent count sees it.
type choice struct {
	refused bool
	version string // "" for none
}

func choose(p engine.Policy, constraint string, versions []string) choice {
	sel, err := engine.Select(p, constraint, versions)
	if err != nil {
		return choice{refused: true}
	}
	return choice{version: sel.Version}
}

// independentCount counts the classes, with the changed calls by cause,
// and the calls without a history.
func independentCount(reg *engine.Registry, p engine.Policy, rows []map[string]string, histories map[string][]string) (map[string]tally, int) {
	today := map[string]engine.Policy{"module": must(reg, "terraform-module"), "provider": must(reg, "apparentlymart")}
	type key struct{ kind, constraint, history string }
	type answer struct {
		class string
		rule  bool
	}
	memo := map[key]answer{}
	counts := map[string]tally{}
	without := 0
	for _, r := range rows {
		if r["history"] == "" {
			without++
			continue
		}
		k := key{r["kind"], r["constraint"], r["history"]}
		a, ok := memo[k]
		if !ok {
			b, vs := today[k.kind], histories[k.history]
			a.class = classOf(choose(b, k.constraint, vs), choose(p, k.constraint, vs))
			if a.class != "unchanged" {
				c, rel := stripConstraint(k.constraint), releases(vs)
				a.rule = choose(b, c, rel) == choose(p, c, rel)
			}
			memo[k] = a
		}
		tl := counts[a.class]
		tl.calls++
		switch {
		case a.class == "unchanged":
		case a.rule:
			tl.rule++
		default:
			tl.reading++
		}
		counts[a.class] = tl
	}
	for _, c := range impact.Classes {
		if _, ok := counts[string(c)]; !ok {
			counts[string(c)] = tally{}
		}
	}
	return counts, without
}

var semver = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+)(?:-([^+]*))?(?:\+.*)?$`)

// parts returns a version's three numbers and its prerelease.
func parts(v string) ([3]int, string) {
	m := semver.FindStringSubmatch(v)
	var n [3]int
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return n, m[4]
}

// classOf classifies by comparing number triples.
func classOf(b, p choice) string {
	if b.refused || p.refused {
		if b.refused && p.refused {
			return "unchanged"
		}
		return "refused"
	}
	if b.version == p.version {
		return "unchanged"
	}
	if p.version == "" {
		return "none-instead-of-version"
	}
	if b.version == "" {
		return "version-instead-of-none"
	}
	bn, bpre := parts(b.version)
	pn, ppre := parts(p.version)
	if ppre == "" {
		if bpre != "" {
			return "release-instead-of-prerelease"
		}
		return "other-release"
	}
	switch {
	case pn == bn:
		return "prerelease-same-release"
	case slices.Compare(pn[:], bn[:]) < 0:
		return "other-prerelease"
	case pn[0] == bn[0] && pn[1] == bn[1]:
		return "prerelease-later-patch"
	}
	return "prerelease-later-minor-or-major"
}

// prereleasePart matches a comparator version's prerelease.
var prereleasePart = regexp.MustCompile(`(\d)-[0-9A-Za-z.-]+`)

// stripConstraint removes the prereleases of a constraint the engine
// reads as naming one.
func stripConstraint(c string) string {
	parsed, err := engine.ParseConstraint(c)
	if err != nil || !parsed.NamesPrerelease() {
		return c
	}
	return prereleasePart.ReplaceAllString(c, "$1")
}

func releases(vs []string) []string {
	var out []string
	for _, v := range vs {
		if _, pre := parts(v); pre == "" {
			out = append(out, v)
		}
	}
	return out
}
