package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/policies"
)

// runShardsCLI runs compare --shard k/n for every k with args and writes
// each partial report into dir; it returns their paths.
func runShardsCLI(t *testing.T, r *engine.Registry, dir string, n int, args ...string) []string {
	t.Helper()
	paths := make([]string, n)
	for k := 1; k <= n; k++ {
		paths[k-1] = runShardCLI(t, r, dir, k, n, args...)
	}
	return paths
}

// runShardCLI runs compare --shard k/n with args and writes its partial
// report into dir, as runShardsCLI does for every k; it returns its
// path.
func runShardCLI(t *testing.T, r *engine.Registry, dir string, k, n int, args ...string) string {
	t.Helper()
	a := append([]string{"compare", "--shard", fmt.Sprintf("%d/%d", k, n), "--format", "json"}, args...)
	code, out, stderr := runWith(t, r, nil, a...)
	if code != exitOK || stderr != "" {
		t.Fatalf("prerel %s: exit %d, stderr %s", strings.Join(a, " "), code, stderr)
	}
	path := filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.json", k, n))
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// registryOf registers ps in a new registry.
func registryOf(t *testing.T, ps ...engine.Policy) *engine.Registry {
	t.Helper()
	r := engine.NewRegistry()
	for _, p := range ps {
		if err := r.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// prerel merge of the partial reports of compare --shard writes what
// compare writes without --shard, byte for byte, in every format.
func TestMergeShardsEndToEnd(t *testing.T) {
	longtest.Skip(t) // package compare/shard proves the merge every day
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n>= 1.0.0-beta, < 1.0.0\t0.9.0\n>= 1.1.0-beta.2\t1.1.0-beta.3\n"+
		"= 2.0.0-beta.1\t2.0.0-beta.1\n>= 1.0.0\t1.2.0\n~> 1.2\t2.0.0-beta.1\n~> 1.2\t1.9.0\n~> 1.2\tv1.5.0\n")
	tests := []struct {
		name string
		args []string
		ns   []int
	}{
		{"exhaustive scope 1, every policy", []string{"--scope", "1"}, []int{3}},
		{"a file", []string{"--domain", cases, "--policies", "strict,lexical,cargo,hashicorp"}, []int{1, 2, 3, 7}},
		{"random", []string{"--domain", "random", "--count", "1500", "--seed", "5", "--policies", "strict,cargo,masterminds"}, []int{2, 7}},
		{"ranked by count, another reference", []string{"--scope", "1", "--policies", "strict,lexical,cargo", "--rank", "count", "--reference", "cargo"}, []int{3}},
	}
	formats := []string{"json", "text", "markdown"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := map[string]string{}
			for _, f := range formats {
				code, out, stderr := runWith(t, catalogue.New(), nil, append([]string{"compare", "--format", f}, tt.args...)...)
				if code != exitOK {
					t.Fatalf("compare --format %s: exit %d: %s", f, code, stderr)
				}
				want[f] = out
			}
			for _, n := range tt.ns {
				paths := runShardsCLI(t, catalogue.New(), t.TempDir(), n, tt.args...)
				for _, f := range formats {
					merge := []string{"merge", "--format", f}
					if tt.name == "a file" {
						merge = append(merge, "--domain", cases) // the witnesses are checked against it
					}
					code, out, stderr := runWith(t, catalogue.New(), nil, append(merge, paths...)...)
					if code != exitOK || stderr != "" {
						t.Fatalf("N=%d: merge --format %s: exit %d: %s", n, f, code, stderr)
					}
					if out != want[f] {
						t.Errorf("N=%d: merge --format %s differs from compare --format %s (%d and %d bytes)", n, f, f, len(out), len(want[f]))
					}
				}
			}
		})
	}
}

// --partial merges any of the shards into one partial report, which
// merges again with the others into the same report.
func TestMergePartialFlag(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--scope", "1", "--policies", "strict,cargo,lexical"}
	paths := runShardsCLI(t, catalogue.New(), dir, 5, args...)
	_, want, _ := runWith(t, catalogue.New(), nil, append([]string{"compare", "--format", "json"}, args...)...)
	partial := func(name string, parts ...string) string {
		code, out, stderr := runWith(t, catalogue.New(), nil, append([]string{"merge", "--partial"}, parts...)...)
		if code != exitOK || stderr != "" {
			t.Fatalf("merge --partial: exit %d: %s", code, stderr)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := partial("a.json", paths[4], paths[0])
	b := partial("b.json", paths[2], partial("c.json", paths[1]))
	code, out, stderr := runWith(t, catalogue.New(), nil, "merge", "--format", "json", b, paths[3], a)
	if code != exitOK || out != want {
		t.Errorf("merge of merged partial reports: exit %d, %d bytes, want %d: %s", code, len(out), len(want), stderr)
	}
	for _, flag := range [][]string{{"--format", "json"}, {"--show-all"}, {"--baseline", paths[0]}, {"--write-baseline", filepath.Join(dir, "b")}} {
		code, out, stderr := runWith(t, catalogue.New(), nil, append(append([]string{"merge", "--partial"}, flag...), paths...)...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, flag[0]+" applies to the report, and --partial writes a partial report") {
			t.Errorf("merge --partial %s: exit %d, stdout %.40q, stderr %q", flag[0], code, out, stderr)
		}
	}
}

// merge --baseline and --write-baseline do what compare does on the
// unsharded run: the same report, the same drift on stderr, the same exit
// status, the same baseline.
func TestMergeBaseline(t *testing.T) {
	dir := t.TempDir()
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n>= 1.1.0-beta.2\t1.1.0-beta.3\n= 2.0.0-beta.1\t2.0.0-beta.1\n>= 1.0.0\t1.2.0\n")
	before := registryOf(t, policies.Strict{}, policies.Cargo{})
	after := registryOf(t, policies.Strict{}, renamed{policies.Lexical{}, "cargo"})
	baseline := filepath.Join(dir, "baseline.json")
	if code, _, stderr := runWith(t, before, nil, "compare", "--domain", cases, "--write-baseline", baseline); code != exitOK {
		t.Fatalf("compare --write-baseline: exit %d: %s", code, stderr)
	}
	wantBaseline, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}

	for _, n := range []int{1, 2, 3} {
		shards := runShardsCLI(t, before, t.TempDir(), n, "--domain", cases)
		code, _, stderr := runWith(t, before, nil, append([]string{"merge", "--baseline", baseline, "--domain", cases}, shards...)...)
		if code != exitOK || stderr != "prerel merge: the run matches the baseline "+baseline+"\n" {
			t.Errorf("N=%d, the same policies: exit %d, stderr %q", n, code, stderr)
		}
		written := filepath.Join(dir, fmt.Sprintf("written-%d.json", n))
		code, _, stderr = runWith(t, before, nil, append([]string{"merge", "--write-baseline", written, "--domain", cases}, shards...)...)
		got, err := os.ReadFile(written)
		if code != exitOK || err != nil || string(got) != string(wantBaseline) {
			t.Errorf("N=%d: merge --write-baseline: exit %d, %v, %s; the baseline differs from compare's: %v", n, code, err, stderr, string(got) != string(wantBaseline))
		}

		// cargo now behaves like lexical
		shards = runShardsCLI(t, after, t.TempDir(), n, "--domain", cases)
		for _, format := range []string{"text", "json"} {
			wantCode, wantOut, wantErr := runWith(t, after, nil, "compare", "--domain", cases, "--baseline", baseline, "--format", format)
			code, out, stderr := runWith(t, after, nil, append([]string{"merge", "--baseline", baseline, "--domain", cases, "--format", format}, shards...)...)
			if wantCode != exitFinding || code != wantCode || out != wantOut ||
				stderr != strings.ReplaceAll(wantErr, "prerel compare:", "prerel merge:") {
				t.Errorf("N=%d, --format %s, a drift: merge exit %d, compare %d\nmerge stderr:\n%s\ncompare stderr:\n%s\nthe same report: %v",
					n, format, code, wantCode, stderr, wantErr, out == wantOut)
			}
		}
	}
}

// A shard appends nothing to the GitHub step summary; the merge appends
// the report, as compare does.
func TestMergeStepSummary(t *testing.T) {
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	vars := map[string]string{"GITHUB_STEP_SUMMARY": summary}
	args := []string{"--scope", "1", "--policies", "strict,cargo"}
	code, _, stderr := runWith(t, catalogue.New(), vars, append([]string{"compare", "--shard", "1/1"}, args...)...)
	if code != exitOK {
		t.Fatalf("compare --shard: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(summary); err == nil {
		t.Fatal("compare --shard wrote the step summary")
	}
	paths := runShardsCLI(t, catalogue.New(), dir, 2, args...)
	if code, _, stderr := runWith(t, catalogue.New(), vars, append([]string{"merge"}, paths...)...); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	_, want, _ := runWith(t, catalogue.New(), nil, append([]string{"compare", "--format", "markdown"}, args...)...)
	got, err := os.ReadFile(summary)
	if err != nil || string(got) != want {
		t.Errorf("the step summary of merge (%v) is not compare's Markdown report", err)
	}
}

// What merge cannot merge, and the flags compare --shard refuses, are
// bad usage or input: exit 2, with the file named.
func TestMergeRefuses(t *testing.T) {
	longtest.SkipShort(t)
	dir := t.TempDir()
	args := []string{"--scope", "1", "--policies", "strict,cargo,lexical"}
	s := runShardsCLI(t, catalogue.New(), dir, 3, args...)
	other := func(name string, k, n int, args ...string) string {
		p := runShardCLI(t, catalogue.New(), t.TempDir(), k, n, args...)
		path := filepath.Join(dir, name)
		if err := os.Rename(p, path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	first, err := os.ReadFile(s[0])
	if err != nil {
		t.Fatal(err)
	}
	_, report, _ := runWith(t, catalogue.New(), nil, append([]string{"compare", "--format", "json"}, args...)...)
	scope2 := other("scope2.json", 2, 3, "--scope", "2", "--policies", "strict,cargo,lexical")
	seed1 := other("seed1.json", 1, 2, "--domain", "random", "--count", "300", "--seed", "1", "--policies", "strict,cargo")
	seed2 := other("seed2.json", 2, 2, "--domain", "random", "--count", "300", "--seed", "2", "--policies", "strict,cargo")
	policies2 := other("policies.json", 2, 3, "--scope", "1", "--policies", "strict,cargo")
	truncated := write("truncated.json", string(first[:len(first)/3]))
	notPartial := write("report.json", report)
	missing := filepath.Join(dir, "missing.json")
	noCargo := registryOf(t, policies.Strict{}, policies.Lexical{})
	changed := registryOf(t, policies.Strict{}, policies.Lexical{}, renamed{policies.Lexical{}, "cargo"})
	tests := []struct {
		name     string
		registry *engine.Registry
		args     []string
		stderr   string
	}{
		{"no partial reports", nil, []string{"merge"}, "merge needs the partial reports to merge"},
		{"a missing shard", nil, []string{"merge", s[0], s[2]}, "shard 2/3 is missing: the report of the run needs all 3 shards"},
		{"two missing shards", nil, []string{"merge", s[1]}, "shards 1/3, 3/3 are missing: the report of the run needs all 3 shards, and " + s[1] + " holds shard 2/3"},
		{"a shard twice", nil, []string{"merge", s[0], s[1], s[2], s[1]}, "shard 2/3 is given twice: in " + s[1] + " and in " + s[1]},
		{"another scope", nil, []string{"merge", s[0], scope2, s[2]}, s[0] + " and " + scope2 + " are not shards of one run: they ran other domains"},
		{"another seed", nil, []string{"merge", seed1, seed2}, seed1 + " and " + seed2 + " are not shards of one run: they ran other domains"},
		{"other policies", nil, []string{"merge", s[0], policies2, s[2]}, "they compare other policies, or the same in another order"},
		{"a truncated file", nil, []string{"merge", s[0], s[1], truncated}, truncated + ":1:"},
		{"a report", nil, []string{"merge", notPartial}, notPartial + ": a report or baseline, not a partial report"},
		{"a file that does not exist", nil, []string{"merge", s[0], missing}, missing},
		{"a policy this prerel lacks", noCargo, append([]string{"merge"}, s...), "the partial reports compare strict, cargo, lexical: "},
		{"a policy that changed", changed, append([]string{"merge"}, s...), "the policy cargo is not the policy of that name the shards ran"},
		{"compare --shard --format text", nil, []string{"compare", "--scope", "1", "--shard", "1/2", "--format", "text"}, "--shard writes a partial report, which is JSON"},
		{"compare --shard --baseline", nil, []string{"compare", "--scope", "1", "--shard", "1/2", "--baseline", s[0]}, "--baseline applies to the report of the whole run: give it to prerel merge"},
		{"compare --shard --write-baseline", nil, []string{"compare", "--scope", "1", "--shard", "1/2", "--write-baseline", missing}, "--write-baseline applies to the report of the whole run"},
		{"compare --shard --show-all", nil, []string{"compare", "--scope", "1", "--shard", "1/2", "--show-all"}, "--show-all applies to the report of the whole run"},
		{"compare --shard 3/2", nil, []string{"compare", "--scope", "1", "--shard", "3/2"}, "shard 3/2: the shard must be from 1 to 2"},
		{"compare --shard 2", nil, []string{"compare", "--scope", "1", "--shard", "2"}, `shard "2": expected K/N`},
		{"compare --shard empty", nil, []string{"compare", "--scope", "1", "--shard", ""}, `invalid argument "" for "--shard" flag: shard "": expected K/N`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.registry
			if r == nil {
				r = catalogue.New()
			}
			code, out, stderr := runWith(t, r, nil, tt.args...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stdout %.60q, stderr %q; want exit 2 and %q", code, out, stderr, tt.stderr)
			}
			if strings.Contains(stderr, "compare: compare:") || strings.Contains(stderr, "merge: compare:") {
				t.Errorf("stderr %q names the package", stderr)
			}
		})
	}
}

// merge --baseline on a run whose verdicts changed makes a file domain
// again from merge's own --domain; when it cannot, it says why.
func TestMergeBaselineNeedsTheDomain(t *testing.T) {
	dir := t.TempDir()
	cases := filepath.Join(dir, "cases.tsv")
	if err := os.WriteFile(cases, []byte(">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n>= 1.0.0\t1.2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := registryOf(t, policies.Strict{}, policies.Cargo{})
	after := registryOf(t, policies.Strict{}, renamed{policies.Lexical{}, "cargo"})
	baseline := filepath.Join(dir, "baseline.json")
	if code, _, stderr := runWith(t, before, nil, "compare", "--domain", cases, "--write-baseline", baseline); code != exitOK {
		t.Fatalf("compare --write-baseline: exit %d: %s", code, stderr)
	}
	shards := runShardsCLI(t, after, dir, 2, "--domain", cases)
	if err := os.WriteFile(cases, []byte(">= 1.0.0\t1.2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runWith(t, after, nil, append([]string{"merge", "--baseline", baseline}, shards...)...)
	if code != exitUsage || !strings.Contains(stderr, "the shards ran a file domain (--domain "+cases+"): give merge --domain with that file") {
		t.Errorf("merge --baseline without --domain: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runWith(t, after, nil, append([]string{"merge", "--baseline", baseline, "--domain", cases}, shards...)...)
	if code != exitUsage || !strings.Contains(stderr, "the domain --domain "+cases+" made again is file") {
		t.Errorf("merge --baseline after the cases changed: exit %d, stderr %q", code, stderr)
	}
}

// Shards of a run with a policy file merge with the same policy file; a
// merge without it, or with another policy under the same name, is
// refused. The domain is a file of a few dozen cases (smallDomain): the
// policy in HCL is specialised for each constraint it judges.
func TestMergeWithAPolicyFile(t *testing.T) {
	longtest.SkipShort(t)
	dir := t.TempDir()
	const file = "../../testdata/designs/hcl-cargo.hcl"
	cases := smallDomain(t)
	args := []string{"--domain", cases, "--policy-file", file, "--policies", "strict,hcl-cargo,cargo"}
	_, want, _ := runWith(t, catalogue.New(), nil, append([]string{"compare", "--format", "json"}, args...)...)
	paths := runShardsCLI(t, catalogue.New(), dir, 2, args...)
	code, out, stderr := runWith(t, catalogue.New(), nil, append([]string{"merge", "--domain", cases, "--format", "json", "--policy-file", file}, paths...)...)
	if code != exitOK || out != want {
		t.Errorf("merge --policy-file: exit %d, the report of compare: %v: %s", code, out == want, stderr)
	}
	code, _, stderr = runWith(t, catalogue.New(), nil, append([]string{"merge", "--domain", cases}, paths...)...)
	if code != exitUsage || !strings.Contains(stderr, "give merge the --policy-file and --policy-cmd the shards had") {
		t.Errorf("merge without the policy file: exit %d, stderr %q", code, stderr)
	}
	other := writePolicyFile(t, dir, "other.hcl", `policy "hcl-cargo" {
  rule  = "every version"
  admit = true
}
`)
	code, _, stderr = runWith(t, catalogue.New(), nil, append([]string{"merge", "--domain", cases, "--policy-file", other}, paths...)...)
	if code != exitUsage || !strings.Contains(stderr, "the policy hcl-cargo is not the policy of that name the shards ran") {
		t.Errorf("merge with another hcl-cargo: exit %d, stderr %q", code, stderr)
	}
}

// merge --baseline of shards that ran more policies than the baseline
// records checks the drift of the baseline's policies and notes the
// others after the answer; shards that ran fewer drift.
func TestMergeBaselinePolicies(t *testing.T) {
	dir := t.TempDir()
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n>= 1.1.0-beta.2\t1.1.0-beta.3\n>= 1.0.0\t1.2.0\n")
	reg := registryOf(t, policies.Strict{}, policies.Lexical{}, policies.Cargo{}, policies.Linear{})
	baseline := filepath.Join(dir, "baseline.json")
	if code, _, stderr := runWith(t, reg, nil, "compare", "--domain", cases, "--policies", "strict,cargo", "--write-baseline", baseline); code != exitOK {
		t.Fatalf("compare --write-baseline: exit %d: %s", code, stderr)
	}
	matches := "prerel merge: the run matches the baseline " + baseline + "\n"
	tests := []struct {
		name     string
		policies string // the shards'
		code     int
		stderr   string // exactly, or its start when the run drifts
	}{
		{"the baseline's", "strict,cargo", exitOK, matches},
		{"two more", "strict,lexical,cargo,linear", exitOK,
			matches + "prerel merge: note: not in the baseline " + baseline + ": lexical, linear; compare --write-baseline without --baseline gates every policy\n"},
		{"one fewer: drift", "strict,linear", exitFinding, "prerel merge: the run differs from the baseline " + baseline + " in "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shards := runShardsCLI(t, reg, t.TempDir(), 2, "--domain", cases, "--policies", tt.policies)
			code, _, stderr := runWith(t, reg, nil, append([]string{"merge", "--baseline", baseline, "--domain", cases}, shards...)...)
			ok := stderr == tt.stderr
			if tt.code == exitFinding {
				ok = strings.HasPrefix(stderr, tt.stderr) && !strings.Contains(stderr, "note:")
			}
			if code != tt.code || !ok {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and\n%s", code, stderr, tt.code, tt.stderr)
			}
		})
	}
}
