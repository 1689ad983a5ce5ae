package updaters_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	prerel "github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/updaters"
)

// The proofs judge every case of a domain with a policy of this package
// and with the real implementation it stands for, run once as a process
// that reads the groups on its standard input, and require the same
// verdict for every case (and, where the script selects, the same
// selection). The everyday run proves the exhaustive domain of scope 1
// when the tool is on this machine; the long run (PREREL_LONG=1, as CI
// runs it) proves scope 3 and the corpus, and fails when a tool is
// missing.

// proofDomains returns the domains to prove on.
func proofDomains(t *testing.T) []compare.Domain {
	t.Helper()
	ex, err := compare.Exhaustive(longtest.Pick(compare.MinScope, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !longtest.Enabled() {
		return []compare.Domain{edges{}, ex}
	}
	corpus, err := compare.Corpus(prerel.Corpus(), compare.PairByContext)
	if err != nil {
		t.Fatal(err)
	}
	return []compare.Domain{edges{}, ex, corpus}
}

// edges is a domain of the grammar's corners, where the three tools read
// differently from each other and from Terraform: operators and layouts
// some refuse, versions of one, two or four numbers, "v" and build
// metadata, leading zeros, and prereleases that RubyGems orders by
// segments.
type edges struct{}

var (
	edgeConstraints = []string{
		"", " ", ",", "1.0,", "1.0,,2", "=> 1.0", "=< 2", "=1.2", "==1.2", "~ 1.2", "^1.2", "~> 1.2.3.4",
		"01.2", "1.2.x", "1.x", "*", "^1.2 || 3.x", "1.2 - 1.4", "< 0", ">= 0", ">= 0.0.0", "> 0",
		"!= 4.2.0", "~> 4.0, != 4.2.0", "~> 4.0, != v4.2.0", "~> 4.0,!= 4.2.0", "~> 4.0 != 4.2.0",
		"~> 0", "~> 0.0", "~> 0.14", "~> 4", "~> 1.0.0-rc9", "~> 1.0-rc9", "~> 1+b", "~> 1.2+b",
		"> 1.0.0-rc9", ">= 1.0.0-0", "1.2", "= 1.2", "v1.2", "= v1.2.0", "= 1.0.0+b", "1.0.0+b.1",
		">= 1.0.0-beta+b", "<= 1.2", "< 1.2", "> 1", ">1.2,<2", ">= 1.2 < 2", "\t~> 1.2\n",
		"~> 99999999999999999999", ">= 1.0.0-01", "1.0.0-alpha..1",
	}
	edgeVersions = []string{
		"0.0.0", "0.14.9", "0.15.0", "1.0.0-0", "1.0.0-beta", "1.0.0-rc9", "1.0.0-rc10", "1.0.0",
		"1.0.0+b", "v1.0.0", "1.0.1", "1.2.0", "1.2.5", "1.3.0-beta", "1.3.0", "1.4.0", "1.5.0",
		"2.0.0-rc.1", "2.0.0", "3.4.0", "4.0.0", "4.2.0", "v4.2.0", "4.2.6", "5.0.0",
		"1.2", "1", "1.0.0.0", "01.0.0", "1.0.0-01", "1.0.0-", "", " 1.0.0",
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

// judgedLine is one output line of a script: a verdict letter a version,
// and the index of the selected version, or -1, when the script selects.
type judgedLine struct {
	letters  string
	selected int
	hasSel   bool
}

func parseJudged(line string) (judgedLine, error) {
	letters, sel, ok := strings.Cut(line, "\t")
	if !ok {
		return judgedLine{letters: line}, nil
	}
	n, err := strconv.Atoi(sel)
	if err != nil {
		return judgedLine{}, fmt.Errorf("bad selection %q", sel)
	}
	return judgedLine{letters, n, true}, nil
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
// its output with p's verdicts and, when the script selects, with
// sameSelection.
func prove(t *testing.T, p engine.Policy, cmd *exec.Cmd, sameSelection func(g compare.Group, got engine.Selection, want int) bool) {
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
		err := eachGroup(domains, func(g compare.Group) error {
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
	var cases, groups, diffs, selDiffs int
	var byLetter [256]int
	var examples []string
	readErr := eachGroup(domains, func(g compare.Group) error {
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
		groups++
		m, cerr := p.Compile(g.Constraint)
		for i, v := range g.Versions {
			cases++
			want := byte('i')
			if cerr == nil {
				want = letter(m.Match(v).Verdict)
			}
			byLetter[got.letters[i]]++
			if want != got.letters[i] {
				diffs++
				if len(examples) < 12 {
					examples = append(examples, fmt.Sprintf("%q %q: %s %c, real %c", g.Constraint, v, p.Name(), want, got.letters[i]))
				}
			}
		}
		if got.hasSel && sameSelection != nil {
			sel, err := engine.Select(p, g.Constraint, g.Versions)
			if err != nil {
				sel = engine.Selection{}
			}
			if !sameSelection(g, sel, got.selected) {
				selDiffs++
				if len(examples) < 12 {
					want := "none"
					if got.selected >= 0 {
						want = g.Versions[got.selected]
					}
					examples = append(examples, fmt.Sprintf("%q: %s selects %q (found %v), real %s", g.Constraint, p.Name(), sel.Version, sel.Found, want))
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
	t.Logf("%s: %d cases in %d groups compared with the real implementation (%d allow, %d reject, %d invalid): %d verdicts differ, %d selections differ",
		p.Name(), cases, groups, byLetter['a'], byLetter['r'], byLetter['i'], diffs, selDiffs)
	if diffs+selDiffs > 0 {
		t.Errorf("%s differs from the real implementation on %d cases and %d selections, e.g.:\n  %s", p.Name(), diffs, selDiffs, strings.Join(examples, "\n  "))
	}
}

func eachGroup(domains []compare.Domain, each func(compare.Group) error) error {
	for _, d := range domains {
		var err error
		gerr := d.Groups(func(g compare.Group) bool {
			err = each(g)
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

// sameIndex accepts a selection of the version at want, or of a version
// the tool orders equal to it (equal tells).
func sameIndex(equal func(a, b string) bool) func(compare.Group, engine.Selection, int) bool {
	return func(g compare.Group, got engine.Selection, want int) bool {
		if want < 0 {
			return !got.Found
		}
		return got.Found && (got.Version == g.Versions[want] || equal(got.Version, g.Versions[want]))
	}
}

// semverDir is where the proof finds node-semver: PREREL_SEMVER_DIR, or
// the node_modules that .ci/run installs into the user's cache.
func semverDir() string {
	if d := os.Getenv("PREREL_SEMVER_DIR"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "prerel", "renovate-semver", "node_modules")
}

func TestRenovateEqualsNodeSemver(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not on PATH")
	}
	dir := semverDir()
	if _, err := os.Stat(filepath.Join(dir, "semver", "package.json")); err != nil {
		missing(t, "node-semver is not installed in %s (npm ci in updaters/testdata/renovate, or set PREREL_SEMVER_DIR)", dir)
	}
	checkSemverVersion(t, dir)
	cmd := exec.Command(node, filepath.Join("testdata", "renovate", "judge.js"), dir)
	prove(t, updaters.Renovate{}, cmd, sameIndex(func(a, b string) bool {
		va, errA := engine.ParseVersion(strings.TrimSpace(a))
		vb, errB := engine.ParseVersion(strings.TrimSpace(b))
		return errA == nil && errB == nil && va.Equal(vb)
	}))
}

// checkSemverVersion fails when the installed node-semver is not the one
// package-lock.json pins.
func checkSemverVersion(t *testing.T, dir string) {
	t.Helper()
	var lock struct {
		Packages map[string]struct{ Version string } `json:"packages"`
	}
	var installed struct{ Version string }
	for _, f := range []struct {
		path string
		into any
	}{
		{filepath.Join("testdata", "renovate", "package-lock.json"), &lock},
		{filepath.Join(dir, "semver", "package.json"), &installed},
	} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, f.into); err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
	}
	if want := lock.Packages["node_modules/semver"].Version; installed.Version != want {
		t.Fatalf("node-semver %s is installed in %s, package-lock.json pins %s", installed.Version, dir, want)
	}
}

func TestDependabotEqualsRubyGems(t *testing.T) {
	t.Parallel()
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		missing(t, "ruby is not on PATH")
	}
	cmd := exec.Command(ruby, filepath.Join("testdata", "dependabot", "judge.rb"))
	prove(t, updaters.Dependabot{}, cmd, sameIndex(func(a, b string) bool {
		va, errA := updaters.ParseGemVersion(a)
		vb, errB := updaters.ParseGemVersion(b)
		return errA == nil && errB == nil && va.Compare(vb) == 0
	}))
}

func TestTerraformModuleVersionsEqualsMasterminds331(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		missing(t, "go is not on PATH")
	}
	bin := filepath.Join(t.TempDir(), "masterminds331")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	build.Dir = filepath.Join("testdata", "masterminds331")
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		missing(t, "cannot build the Masterminds/semver v3.3.1 judge (testdata/masterminds331): %v\n%s", err, out)
	}
	prove(t, updaters.TerraformModuleVersions{}, exec.Command(bin), nil)
}
