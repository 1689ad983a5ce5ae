package readers_test

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
	"strings"
	"testing"

	goversion "github.com/hashicorp/go-version"

	prerel "github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/comparetest"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/readers"
)

// The proofs judge every case of a domain with a policy of this package
// and with the program it stands for, run once as a process (a judge
// under testdata, built inside a copy of the program's own module tree by
// testdata/build-judge) that reads the groups on its standard input, and
// require the same verdict for every case and the same selection for
// every group. The everyday run proves the grammar's corners and a
// sample of the exhaustive domain of scope 1 (sampled) when the judge is
// built; the long run
// (PREREL_LONG=1, as CI runs it) proves scope 3 and the corpus, and fails
// when a judge is missing.

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

// edges is a domain of the corners where the three readings differ from
// each other and from the installers: constraints go-version or
// go-versions refuse, "v" prefixes, versions of one, two or four parts,
// build metadata, and lists longer than 12 with versions go-version
// orders equal, which sort.Sort does not keep in list order.
type edges struct{}

var (
	edgeConstraints = []string{
		"", " ", ",", "=> 1.0", "==1.2", "^1.2", "~> 1.2.3.4", ">= v1.0.0", "= v2.0.0-beta.1",
		"01.2", "1.2.x", ">= 0", "!= 1.0.0", "~> 1", "~> 1.0", "~> 1.0.0-beta", ">= 2.0.0-beta.1",
		"= 2.0.0-beta.1", "2.0.0-beta.1", "=2.0.0-beta.1", "= 1.0.0", "= 1.0.0+b", ">= 1.0.0, < 2.0.0",
		">= 1.0.0 < 2.0.0", "1.0.0, 2.0.0", "~> 99999999999999999999", ">= 1.0.0beta", "\t~> 1.0\n",
		">= 0.0.0", ">= 0, >= 0.0.0", "< 1, >= 0", ">= 0, ~> 0",
	}
	edgeVersions = []string{
		"0.9.0", "1.0.0-beta", "1.0.0", "1.0.0+a", "v1.0.0", "1.0.0+b", "1.0", "1", "1.0.0.0",
		"1.1.0", "1.5.0", "2.0.0-beta.1", "2.0.0-beta.2", "v2.0.0-beta.1", "2.0.0", "2.0.0+b",
		"01.0.0", "1.0.0beta", "x", "", " 1.0.0", "99999999999999999999.0.0", "0.0.0", "0.0",
	}
)

func (edges) Info() compare.DomainInfo {
	return compare.DomainInfo{Name: "edges", Description: "the readings' corners", Cases: int64(len(edgeConstraints) * len(edgeVersions))}
}

func (edges) Groups(yield func(compare.Group) bool) error {
	for _, c := range edgeConstraints {
		if !yield(compare.Group{Constraint: strings.NewReplacer(`\t`, "\t", `\n`, "\n").Replace(c), Versions: edgeVersions}) {
			return nil
		}
	}
	return nil
}

// judge returns the path of the judge named name, as
// testdata/build-judge builds it, or skips t (fails it in the long run)
// when it is not built.
func judge(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join("testdata", name)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, e := range entries { // sorted by name, as LC_ALL=C sort does
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	module, err := os.ReadFile(filepath.Join(dir, "module"))
	if err != nil {
		t.Fatal(err)
	}
	_, version, _ := strings.Cut(strings.TrimSpace(string(module)), "@")
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(cache, "prerel", "readers", name+"-"+version+"-"+hex.EncodeToString(h.Sum(nil))[:12], "judge")
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("the %s judge is not built (%s): readers/testdata/build-judge %s builds it, as .ci/run does", name, bin, name)
		if longtest.Enabled() {
			t.Fatalf("%s; the long run (%s=1) needs it", msg, longtest.Env)
		}
		t.Skipf("%s; skipped (the long run fails instead)", msg)
	}
	return bin
}

// judged is one output line of a judge.
type judged struct {
	Letters string `json:"v"`
	// Sel is the selection: an index into the list (terraform-ls), or the
	// version as the program writes it (tfupdate), or null.
	Sel     json.RawMessage `json:"sel"`
	Written *string         `json:"written"`
	Err     string          `json:"err"`
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

// prove runs the judge bin on every group of the domains and compares
// each line of its output with p's verdicts and, with sameSelection, with
// p's selection; sameSelection returns "" when they agree, and otherwise
// what differs.
func prove(t *testing.T, p engine.Policy, bin string, sameSelection func(g compare.Group, got engine.Selection, line judged) string) {
	t.Helper()
	cmd := exec.Command(bin)
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
	note := func(format string, args ...any) {
		if len(examples) < 12 {
			examples = append(examples, fmt.Sprintf(format, args...))
		}
	}
	readErr := eachGroup(domains, func(g compare.Group) error {
		text, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("reading the judge's output after %d groups: %v", groups, err)
		}
		var line judged
		if err := json.Unmarshal([]byte(text), &line); err != nil {
			return fmt.Errorf("the judge's line %q: %v", text, err)
		}
		if len(line.Letters) != len(g.Versions) {
			return fmt.Errorf("constraint %q: %d verdicts for %d versions", g.Constraint, len(line.Letters), len(g.Versions))
		}
		groups++
		m, cerr := p.Compile(g.Constraint)
		for i, v := range g.Versions {
			cases++
			want := byte('i')
			if cerr == nil {
				want = letter(m.Match(v).Verdict)
			}
			byLetter[line.Letters[i]]++
			if want != line.Letters[i] {
				diffs++
				note("%q %q: %s %c, real %c", g.Constraint, v, p.Name(), want, line.Letters[i])
			}
		}
		sel, err := engine.Select(p, g.Constraint, g.Versions)
		if err != nil {
			sel = engine.Selection{}
		}
		if d := sameSelection(g, sel, line); d != "" {
			selDiffs++
			note("%q %q: %s", g.Constraint, g.Versions, d)
		}
		return nil
	})
	if readErr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%v\n%s", readErr, stderr.String())
	}
	if rest, _ := io.ReadAll(r); len(rest) > 0 {
		t.Errorf("the judge wrote %d bytes more than one line a group", len(rest))
	}
	if err := <-werr; err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	t.Logf("%s: %d cases in %d groups compared with the real code (%d allow, %d reject, %d invalid): %d verdicts differ, %d selections differ",
		p.Name(), cases, groups, byLetter['a'], byLetter['r'], byLetter['i'], diffs, selDiffs)
	if diffs+selDiffs > 0 {
		t.Errorf("%s differs from the real code on %d cases and %d selections, e.g.:\n  %s", p.Name(), diffs, selDiffs, strings.Join(examples, "\n  "))
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

// TestTerraformLSEqualsTerraformLS proves the terraform-ls policy against
// terraform-ls's own (Client).GetMatchingModuleVersion.
func TestTerraformLSEqualsTerraformLS(t *testing.T) {
	t.Parallel()
	bin := judge(t, "terraform-ls")
	prove(t, readers.TerraformLS{}, bin, func(g compare.Group, got engine.Selection, line judged) string {
		var i int
		if err := json.Unmarshal(line.Sel, &i); err != nil {
			return fmt.Sprintf("bad selection %s", line.Sel)
		}
		switch {
		case i < 0 && !got.Found:
			return ""
		case i >= 0 && got.Found && got.Version == g.Versions[i]:
			return ""
		case i < 0:
			return fmt.Sprintf("selects %q, terraform-ls none", got.Version)
		}
		return fmt.Sprintf("selects %q (found %v), terraform-ls %q", got.Version, got.Found, g.Versions[i])
	})
}

// TestTFUpdateEqualsTFUpdate proves the tfupdate policy against tfupdate's
// own release.Latest, and that its module updater writes that version in
// place of every constraint.
func TestTFUpdateEqualsTFUpdate(t *testing.T) {
	t.Parallel()
	bin := judge(t, "tfupdate")
	prove(t, readers.TFUpdate{}, bin, func(g compare.Group, got engine.Selection, line judged) string {
		var latest *string
		if err := json.Unmarshal(line.Sel, &latest); err != nil {
			return fmt.Sprintf("bad selection %s", line.Sel)
		}
		if latest == nil {
			if got.Found {
				return fmt.Sprintf("selects %q, tfupdate finds no release", got.Version)
			}
			return ""
		}
		if !got.Found {
			return fmt.Sprintf("selects none, tfupdate %q", *latest)
		}
		// tfupdate writes go-version's String() of the version it picked.
		v, err := goversion.NewVersion(got.Version)
		if err != nil || v.String() != *latest {
			return fmt.Sprintf("selects %q, tfupdate %q", got.Version, *latest)
		}
		switch {
		case line.Err != "":
			return fmt.Sprintf("tfupdate module failed: %s", line.Err)
		case g.Constraint == "" && line.Written != nil:
			return fmt.Sprintf("tfupdate module wrote %q into a call without a version argument", *line.Written)
		case g.Constraint != "" && (line.Written == nil || *line.Written != *latest):
			return fmt.Sprintf("tfupdate module left the version argument %v, not %q", line.Written, *latest)
		}
		return ""
	})
}
