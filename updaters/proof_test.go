package updaters_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	prerel "github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/comparetest"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/updaters"
)

// The proofs judge every case of a domain with a policy of this package
// and with the real implementation it stands for, run once as a process
// that reads the groups on its standard input, and require the same
// verdict for every case (and, where the script selects, the same
// selection). The everyday run proves the grammar's corners and a sample
// of the exhaustive domain of scope 1 (sampled) when the tool is on this
// machine; the long run (PREREL_LONG=1, as CI runs it) proves scope 3 and
// the corpus, and fails when a tool is missing.

// proofDomains returns the domains to prove on.
func proofDomains(t *testing.T) []compare.Domain {
	t.Helper()
	ex, err := compare.Exhaustive(longtest.Pick(compare.MinScope, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !longtest.Enabled() {
		return []compare.Domain{edges{}, comparetest.Sampled(ex, pairEvery)}
	}
	corpus, err := compare.Corpus(prerel.Corpus(), compare.PairByContext)
	if err != nil {
		t.Fatal(err)
	}
	return []compare.Domain{edges{}, ex, corpus}
}

// pairEvery is how sparsely the everyday run samples the constraints of
// two comparators of the exhaustive domain (comparetest.Sampled): one in
// this many.
const pairEvery = 4

// edges is a domain of the grammar's corners, where the three tools read
// differently from each other and from Terraform: operators and layouts
// some refuse, versions of one, two or four numbers, "v" and build
// metadata, leading zeros, prereleases that RubyGems orders by segments,
// a newest release listed with a blank before it, which Renovate's
// candidate filter does not take for a stable release, and a single
// version that is not listed, from which Renovate's lookup proposes.
type edges struct{}

var (
	edgeConstraints = []string{
		"", " ", ",", "1.0,", "1.0,,2", "=> 1.0", "=< 2", "=1.2", "==1.2", "~ 1.2", "^1.2", "~> 1.2.3.4",
		"01.2", "1.2.x", "1.x", "*", "^1.2 || 3.x", "1.2 - 1.4", "< 0", ">= 0", ">= 0.0.0", "> 0",
		"!= 4.2.0", "~> 4.0, != 4.2.0", "~> 4.0, != v4.2.0", "~> 4.0,!= 4.2.0", "~> 4.0 != 4.2.0",
		"~> 0", "~> 0.0", "~> 0.14", "~> 4", "~> 1.0.0-rc9", "~> 1.0-rc9", "~> 1+b", "~> 1.2+b",
		"> 1.0.0-rc9", ">= 1.0.0-0", "1.2", "= 1.2", "v1.2", "= v1.2.0", "= 1.0.0+b", "1.0.0+b.1",
		">= 1.0.0-beta+b", "<= 1.2", "< 1.2", "> 1", ">1.2,<2", ">= 1.2 < 2", "\t~> 1.2\n",
		"~> 99999999999999999999", ">= 1.0.0-01", "1.0.0-alpha..1", "6.0.0-rc.1", ">= 6.0.0-rc.1", "3.0.0",
	}
	edgeVersions = []string{
		"0.0.0", "0.14.9", "0.15.0", "1.0.0-0", "1.0.0-beta", "1.0.0-rc9", "1.0.0-rc10", "1.0.0",
		"1.0.0+b", "v1.0.0", "1.0.1", "1.2.0", "1.2.5", "1.3.0-beta", "1.3.0", "1.4.0", "1.5.0",
		"2.0.0-rc.1", "2.0.0", "3.4.0", "4.0.0", "4.2.0", "v4.2.0", "4.2.6", "5.0.0", "5.0.0+b",
		"1.2", "1", "1.0.0.0", "01.0.0", "1.0.0-01", "1.0.0-", "", " 1.0.0", "6.0.0-rc.1", " 6.0.0",
	}
)

func (edges) Info() compare.DomainInfo {
	return compare.DomainInfo{Name: "edges", Description: "the grammar's corners", Cases: int64(len(edgeConstraints) * len(edgeVersions))}
}

func (edges) Groups(yield func(compare.Group) bool) error {
	for _, c := range edgeConstraints {
		if !yield(compare.Group{Constraint: strings.NewReplacer(`\t`, "\t", `\n`, "\n").Replace(c), Versions: edgeVersions}) {
			return nil
		}
	}
	return nil
}

// missing skips t, or fails it in the long run, for a tool that is not on
// this machine.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if longtest.Enabled() {
		t.Fatalf("%s; the long run (%s=1) needs it: .ci/run installs it", msg, longtest.Env)
	}
	t.Skipf("%s; skipped (the long run fails instead)", msg)
}

// judgedLine is one output line of a script: a verdict letter a version
// and, after tabs, the numbers of the script's further fields (for a
// script that selects, first the index of the selected version, or -1).
type judgedLine struct {
	letters string
	fields  []int
}

func parseJudged(line string) (judgedLine, error) {
	parts := strings.Split(line, "\t")
	l := judgedLine{letters: parts[0]}
	for _, f := range parts[1:] {
		n, err := strconv.Atoi(f)
		if err != nil {
			return judgedLine{}, fmt.Errorf("bad field %q", f)
		}
		l.fields = append(l.fields, n)
	}
	return l, nil
}

// groupCheck compares one thing a script writes about a group, beyond
// the verdicts, with the policy: check is given the group, its number
// (from 0, over every domain) and the script's fields, and returns ""
// when they agree, else an example of the difference.
type groupCheck struct {
	name   string
	fields int // how many fields the script writes, at least
	check  func(g compare.Group, n int, fields []int) string
}

// selectionCheck compares the script's first field, the index of the
// version it selects, with engine.Select, accepting a version the tool
// orders equal (equal tells).
func selectionCheck(p engine.Policy, equal func(a, b string) bool) groupCheck {
	return groupCheck{name: "selections", fields: 1, check: func(g compare.Group, _ int, fields []int) string {
		sel, err := engine.Select(p, g.Constraint, g.Versions)
		if err != nil {
			sel = engine.Selection{}
		}
		if want := fields[0]; want < 0 && !sel.Found || want >= 0 && sel.Found && (sel.Version == g.Versions[want] || equal(sel.Version, g.Versions[want])) {
			return ""
		}
		return fmt.Sprintf("%q: %s selects %s, real %s", g.Constraint, p.Name(), found(sel.Version, sel.Found), at(g.Versions, fields[0]))
	}}
}

// found is v, or "none" when not ok.
func found(v string, ok bool) string {
	if !ok {
		return "none"
	}
	return fmt.Sprintf("%q", v)
}

// at is versions[i] quoted, or "none" for a negative i.
func at(versions []string, i int) string {
	return found(func() string {
		if i < 0 {
			return ""
		}
		return versions[i]
	}(), i >= 0)
}

func letter(v engine.Verdict) byte {
	switch v {
	case engine.Allow:
		return 'a'
	case engine.Reject:
		return 'r'
	}
	return 'i'
}

// prove runs cmd on every group of the domains and compares each line of
// its output with p's verdicts and with each check.
func prove(t *testing.T, p engine.Policy, cmd *exec.Cmd, checks ...groupCheck) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	domains := proofDomains(t)
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(stdin)
		err := eachGroup(domains, func(_ int, g compare.Group) error {
			row, err := json.Marshal(append([]string{g.Constraint}, g.Versions...))
			if err != nil {
				return err
			}
			w.Write(row)
			return w.WriteByte('\n')
		})
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
		stdin.Close()
		werr <- err
	}()
	r := bufio.NewReaderSize(stdout, 1<<20)
	// The counts of each domain; diffs[0] counts the verdicts, diffs[1+i]
	// checks[i].
	type tally struct {
		cases, groups int
		byLetter      [256]int
		diffs         []int
	}
	tallies := make([]tally, len(domains))
	for i := range tallies {
		tallies[i].diffs = make([]int, 1+len(checks))
	}
	var examples []string
	groups := 0
	readErr := eachGroup(domains, func(d int, g compare.Group) error {
		line, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("reading the script's output after %d groups: %v", groups, err)
		}
		got, err := parseJudged(strings.TrimSuffix(line, "\n"))
		if err != nil {
			return err
		}
		if len(got.letters) != len(g.Versions) {
			return fmt.Errorf("constraint %q: %d verdicts for %d versions", g.Constraint, len(got.letters), len(g.Versions))
		}
		n := groups
		groups++
		tl := &tallies[d]
		tl.groups++
		m, cerr := p.Compile(g.Constraint)
		for i, v := range g.Versions {
			tl.cases++
			want := byte('i')
			if cerr == nil {
				want = letter(m.Match(v).Verdict)
			}
			tl.byLetter[got.letters[i]]++
			if want != got.letters[i] {
				tl.diffs[0]++
				if len(examples) < 12 {
					examples = append(examples, fmt.Sprintf("%q %q: %s %c, real %c", g.Constraint, v, p.Name(), want, got.letters[i]))
				}
			}
		}
		for i, c := range checks {
			if len(got.fields) < c.fields {
				return fmt.Errorf("constraint %q: %d fields after the verdicts, the %s need %d", g.Constraint, len(got.fields), c.name, c.fields)
			}
			if ex := c.check(g, n, got.fields); ex != "" {
				tl.diffs[1+i]++
				if len(examples) < 12 {
					examples = append(examples, ex)
				}
			}
		}
		return nil
	})
	if readErr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%v\n%s", readErr, stderr.String())
	}
	if rest, _ := io.ReadAll(r); len(rest) > 0 {
		t.Errorf("the script wrote %d bytes more than one line a group", len(rest))
	}
	if err := <-werr; err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	differ := 0
	total := make([]int, 1+len(checks))
	cases := 0
	for d, tl := range tallies {
		counts := []string{fmt.Sprintf("%d verdicts", tl.diffs[0])}
		for i, c := range checks {
			counts = append(counts, fmt.Sprintf("%d %s", tl.diffs[1+i], c.name))
		}
		for i, n := range tl.diffs {
			total[i] += n
			differ += n
		}
		cases += tl.cases
		t.Logf("%s on %s: %d cases in %d groups (%d allow, %d reject, %d invalid); differ: %s",
			p.Name(), domains[d].Info().Name, tl.cases, tl.groups, tl.byLetter['a'], tl.byLetter['r'], tl.byLetter['i'], strings.Join(counts, ", "))
	}
	if differ > 0 {
		counts := []string{fmt.Sprintf("%d verdicts", total[0])}
		for i, c := range checks {
			counts = append(counts, fmt.Sprintf("%d %s", total[1+i], c.name))
		}
		t.Errorf("%s differs from the real implementation in %d of %d cases: %s differ, e.g.:\n  %s", p.Name(), total[0], cases, strings.Join(counts, ", "), strings.Join(examples, "\n  "))
	}
}

// eachGroup calls each with every group of the domains, and the index of
// its domain.
func eachGroup(domains []compare.Domain, each func(int, compare.Group) error) error {
	for i, d := range domains {
		var err error
		gerr := d.Groups(func(g compare.Group) bool {
			err = each(i, g)
			return err == nil
		})
		if err != nil {
			return err
		}
		if gerr != nil {
			return gerr
		}
	}
	return nil
}

// renovatePackage is updaters/testdata/renovate/package.json: the
// packages the judged modules import, and in its "prerel" field the
// version of renovate judged.
type renovatePackage struct {
	Prerel struct {
		Renovate  string `json:"renovate"`
		Integrity string `json:"integrity"`
	} `json:"prerel"`
	Dependencies map[string]string `json:"dependencies"`
}

func readRenovatePackage(t *testing.T, path string) renovatePackage {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var p renovatePackage
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p
}

// renovateDir is where the proof finds Renovate's package and the
// packages it imports: PREREL_RENOVATE_DIR, or the node_modules that
// testdata/renovate/install puts into the user's cache.
func renovateDir(version string) string {
	if d := os.Getenv("PREREL_RENOVATE_DIR"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "prerel", "renovate-"+version, "node_modules")
}

// TestRenovateEqualsRenovate proves the renovate policy on Renovate's own
// code, the npm package renovate at the version
// testdata/renovate/package.json pins, run by Node.js: its hashicorp
// versioning's isValid, isVersion and matches for the verdicts, and its
// lookup for the version a dependency is at (Select) and for the update
// it proposes (Propose), with no lock file and with one listed version
// locked (testdata/renovate/judge.mjs).
func TestRenovateEqualsRenovate(t *testing.T) {
	t.Parallel()
	pin := readRenovatePackage(t, filepath.Join("testdata", "renovate", "package.json"))
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not on PATH")
	}
	dir := renovateDir(pin.Prerel.Renovate)
	installed := filepath.Join(dir, "renovate", "package.json")
	if _, err := os.Stat(installed); err != nil {
		missing(t, "Renovate is not installed in %s (testdata/renovate/install, or set PREREL_RENOVATE_DIR)", dir)
	}
	// The package judged is the one pinned, and the packages beside it
	// are at the versions it pins.
	var got struct {
		Version      string            `json:"version"`
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(installed)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%s: %v", installed, err)
	}
	if got.Version != pin.Prerel.Renovate {
		t.Fatalf("renovate %s is installed in %s, testdata/renovate/package.json pins %s", got.Version, dir, pin.Prerel.Renovate)
	}
	for name, v := range pin.Dependencies {
		if got.Dependencies[name] != v {
			t.Errorf("testdata/renovate/package.json installs %s %s, renovate %s pins %q", name, v, got.Version, got.Dependencies[name])
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	r := updaters.Renovate{}
	// proposal is Propose as package resolve calls it: from the locked
	// version, and the version Select finds.
	proposal := func(g compare.Group, locked string) (string, bool) {
		sel, err := engine.Select(r, g.Constraint, g.Versions)
		if err != nil {
			sel = engine.Selection{}
		}
		return r.Propose(g.Constraint, locked, sel.Version, g.Versions)
	}
	same := func(v string, ok bool, versions []string, want int) bool {
		return want < 0 && !ok || want >= 0 && ok && v == versions[want]
	}
	cmd := exec.Command(node, filepath.Join("testdata", "renovate", "judge.mjs"), dir)
	prove(t, r, cmd,
		selectionCheck(r, func(a, b string) bool { return false }),
		groupCheck{name: "proposals with no lock file", fields: 2, check: func(g compare.Group, _ int, f []int) string {
			if v, ok := proposal(g, ""); !same(v, ok, g.Versions, f[1]) {
				return fmt.Sprintf("%q: %s proposes %s with no lock file, real %s", g.Constraint, r.Name(), found(v, ok), at(g.Versions, f[1]))
			}
			return ""
		}},
		groupCheck{name: "proposals from a locked version", fields: 4, check: func(g compare.Group, n int, f []int) string {
			if len(g.Versions) == 0 {
				return ""
			}
			if f[2] != n%len(g.Versions) {
				return fmt.Sprintf("%q: the script locks version %d, the test expects %d", g.Constraint, f[2], n%len(g.Versions))
			}
			locked := g.Versions[f[2]]
			if v, ok := proposal(g, locked); !same(v, ok, g.Versions, f[3]) {
				return fmt.Sprintf("%q locked at %q: %s proposes %s, real %s", g.Constraint, locked, r.Name(), found(v, ok), at(g.Versions, f[3]))
			}
			return ""
		}},
	)
}
func TestDependabotEqualsRubyGems(t *testing.T) {
	t.Parallel()
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		missing(t, "ruby is not on PATH")
	}
	cmd := exec.Command(ruby, filepath.Join("testdata", "dependabot", "judge.rb"))
	prove(t, updaters.Dependabot{}, cmd, selectionCheck(updaters.Dependabot{}, func(a, b string) bool {
		va, errA := updaters.ParseGemVersion(a)
		vb, errB := updaters.ParseGemVersion(b)
		return errA == nil && errB == nil && va.Compare(vb) == 0
	}))
}

func TestTerraformModuleVersionsEqualsMasterminds331(t *testing.T) {
	t.Parallel()
	prove(t, updaters.TerraformModuleVersions{}, exec.Command(masterminds331(t)))
}

// masterminds331 returns the Masterminds/semver v3.3.1 judge of
// testdata/masterminds331, built once for its sources and Go release
// into the user's cache (prerel/updaters/masterminds331-HASH/judge), as
// linking it again takes more CPU than the proof.
func masterminds331(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		missing(t, "go is not on PATH")
	}
	src := filepath.Join("testdata", "masterminds331")
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version())
	for _, name := range []string{"go.mod", "go.sum", "main.go"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	dir := t.TempDir()
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "prerel", "updaters", "masterminds331-"+hex.EncodeToString(h.Sum(nil))[:12])
	}
	bin := filepath.Join(dir, "judge")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Built beside it and renamed, so that a run beside this one never
	// starts half a binary.
	tmp, err := os.CreateTemp(dir, "judge-*")
	if err != nil {
		t.Fatal(err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	build := exec.Command(goTool, "build", "-o", tmp.Name(), ".")
	build.Dir = src
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		missing(t, "cannot build the Masterminds/semver v3.3.1 judge (testdata/masterminds331): %v\n%s", err, out)
	}
	if err := os.Rename(tmp.Name(), bin); err != nil {
		t.Fatal(err)
	}
	return bin
}
