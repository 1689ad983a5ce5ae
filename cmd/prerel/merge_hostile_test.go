package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/policies"
)

// rewritePartial rewrites the partial report at path with edit applied to
// its decoded JSON object.
func rewritePartial(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	edit(obj)
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A partial report may come from a job with fewer rights than the merge:
// merge --baseline opens no file a partial report names, and quotes
// nothing of one. A file domain is made again only from merge's own
// --domain.
func TestMergeOpensNoFileAPartialNames(t *testing.T) {
	dir := t.TempDir()
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n>= 1.0.0\t1.2.0\n")
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("root:x:0:0:the-secret-line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := registryOf(t, policies.Strict{}, policies.Cargo{})
	after := registryOf(t, policies.Strict{}, renamed{policies.Lexical{}, "cargo"})
	baseline := filepath.Join(dir, "baseline.json")
	if code, _, stderr := runWith(t, before, nil, "compare", "--domain", cases, "--write-baseline", baseline); code != exitOK {
		t.Fatalf("compare --write-baseline: exit %d: %s", code, stderr)
	}
	for _, named := range []string{secret, "/dev/stdin"} {
		shards := runShardsCLI(t, after, t.TempDir(), 2, "--domain", cases)
		for _, s := range shards {
			rewritePartial(t, s, func(o map[string]any) { o["domain_args"] = []string{"--domain", named} })
		}
		code, _, stderr := runWith(t, after, nil, append([]string{"merge", "--baseline", baseline}, shards...)...)
		if code != exitUsage || strings.Contains(stderr, "the-secret-line") ||
			!strings.Contains(stderr, "give merge --domain with that file") {
			t.Errorf("domain_args naming %s: exit %d, stderr %q", named, code, stderr)
		}
		code, _, stderr = runWith(t, after, nil, append([]string{"merge", "--baseline", baseline, "--domain", cases}, shards...)...)
		if code != exitFinding || strings.Contains(stderr, "the-secret-line") {
			t.Errorf("domain_args naming %s, merge --domain: exit %d, stderr %q", named, code, stderr)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", "--baseline", baseline, "--domain", "exhaustive", "x.json"}, "--domain takes the file of a file domain"},
		{[]string{"merge", "--partial", "--domain", cases, "x.json"}, "--domain applies to the report"},
	} {
		code, _, stderr := runWith(t, catalogue.New(), nil, tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, stderr, tt.want)
		}
	}
}

// hostileSize is the length of a hostile text in a baseline or partial
// report: four times what the output may hold (256 KiB), forty in the
// long run.
var hostileSize = longtest.Pick(1<<20, 10<<20)

// A long description in a baseline or in the partial reports is clipped
// wherever it is quoted: stderr, the report and the step summary stay
// small.
func TestLongInputsAreClipped(t *testing.T) {
	longtest.SkipShort(t)
	dir := t.TempDir()
	long := strings.Repeat("X", hostileSize)
	args := []string{"--scope", "1", "--policies", "strict,cargo"}
	baseline := filepath.Join(dir, "baseline.json")
	if code, _, stderr := runWith(t, catalogue.New(), nil, append([]string{"compare", "--write-baseline", baseline}, args...)...); code != exitOK {
		t.Fatalf("compare --write-baseline: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"description":"`, `"description":"`+long, 1)
	if err := os.WriteFile(baseline, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	const bound = 256 << 10
	check := func(what string, code int, out, stderr, summary string) {
		t.Helper()
		if len(out) > bound || len(stderr) > bound || len(summary) > bound {
			t.Errorf("%s: exit %d, %d bytes out, %d on stderr, %d in the step summary; want at most %d each",
				what, code, len(out), len(stderr), len(summary), bound)
		}
	}
	summary := filepath.Join(dir, "summary.md")
	vars := map[string]string{"GITHUB_STEP_SUMMARY": summary}
	code, out, stderr := runWith(t, catalogue.New(), vars, append([]string{"compare", "--format", "markdown", "--baseline", baseline}, args...)...)
	got, _ := os.ReadFile(summary)
	if code != exitFinding || !strings.Contains(stderr, "domain changed") {
		t.Errorf("compare --baseline: exit %d, stderr %.300q", code, stderr)
	}
	check("a long description in the baseline", code, out, stderr, string(got))

	shards := runShardsCLI(t, catalogue.New(), t.TempDir(), 2, args...)
	for _, s := range shards {
		rewritePartial(t, s, func(o map[string]any) { o["domain"].(map[string]any)["description"] = long })
	}
	// The domain made again from the flags the shards record is not the
	// one the partial reports describe: refused, the description clipped.
	os.Remove(summary)
	code, out, stderr = runWith(t, catalogue.New(), vars, append([]string{"merge", "--format", "markdown"}, shards...)...)
	got, _ = os.ReadFile(summary)
	if code != exitUsage || !strings.Contains(stderr, "made again is exhaustive scope 1") {
		t.Errorf("merge: exit %d, stderr %.300q", code, stderr)
	}
	check("a long description in the partial reports", code, out, stderr, string(got))

	rewritePartial(t, shards[1], func(o map[string]any) { o["domain"].(map[string]any)["description"] = long + "Y" })
	code, out, stderr = runWith(t, catalogue.New(), vars, append([]string{"merge"}, shards...)...)
	if code != exitUsage || !strings.Contains(stderr, "they ran other domains") {
		t.Errorf("merge of two long descriptions: exit %d, stderr %.300q", code, stderr)
	}
	check("two long descriptions in the partial reports", code, out, stderr, "")
}

// forgeWitness gives one class (or, with split, one split) of the
// partial reports at paths the witness the partial report other keeps for
// the same class, a case of the same shape and verdicts that is not among
// cases. It returns the file it changed and what an error must name: the
// class's shape and pair, or the split's shape.
func forgeWitness(t *testing.T, paths []string, other []byte, cases map[string]bool, split bool) (string, []string) {
	t.Helper()
	var from map[string]any
	if err := json.Unmarshal(other, &from); err != nil {
		t.Fatal(err)
	}
	key := func(m map[string]any) string {
		return fmt.Sprint(m["shape"], m["a_verdict"], m["b_verdict"], m["verdicts"])
	}
	witnesses := map[string]map[string]any{}
	for i, p := range from["pairs"].([]any) {
		for _, c := range p.(map[string]any)["classes"].([]any) {
			witnesses[fmt.Sprint(i, key(c.(map[string]any)))] = c.(map[string]any)
		}
	}
	for _, s := range from["splits"].([]any) {
		witnesses["split "+key(s.(map[string]any))] = s.(map[string]any)
	}
	for _, path := range paths {
		var names []string
		rewritePartial(t, path, func(o map[string]any) {
			forge := func(where string, m map[string]any) bool {
				w, ok := witnesses[where+key(m)]
				if !ok || cases[w["constraint"].(string)+"\t"+w["version"].(string)] {
					return false
				}
				m["constraint"], m["version"] = w["constraint"], w["version"]
				return true
			}
			if split {
				for _, s := range o["splits"].([]any) {
					if forge("split ", s.(map[string]any)) {
						names = []string{fmt.Sprintf("the split %q", s.(map[string]any)["shape"])}
						return
					}
				}
				return
			}
			for i, p := range o["pairs"].([]any) {
				pm := p.(map[string]any)
				for _, c := range pm["classes"].([]any) {
					if forge(fmt.Sprint(i), c.(map[string]any)) {
						names = []string{fmt.Sprintf("the class %q", c.(map[string]any)["shape"]), fmt.Sprintf("of %s vs %s", pm["a"], pm["b"])}
						return
					}
				}
			}
		})
		if names != nil {
			return path, names
		}
	}
	t.Fatalf("no class (split %v) kept in both runs with a witness of the other domain only", split)
	return "", nil
}

// A witness replaced by a case of its class that is not a case of the
// domain the shards ran (so that the report would not be the run's) is
// refused: exit 2, the file, the pair and the class named. A file domain
// is checked with merge's own --domain, and refused without it.
func TestMergeRefusesAWitnessOfAnotherDomain(t *testing.T) {
	policyArgs := []string{"--policies", "strict,cargo,lexical"}
	d, err := compare.Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]bool{}
	d.Groups(func(g compare.Group) bool {
		for _, v := range g.Versions {
			cases[g.Constraint+"\t"+v] = true
		}
		return true
	})
	// Another domain: the first constraints of scope 2, with its versions.
	scope2, err := compare.Exhaustive(2)
	if err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	groups := 0
	scope2.Groups(func(g compare.Group) bool {
		for _, v := range g.Versions {
			lines.WriteString(g.Constraint + "\t" + v + "\n")
		}
		groups++
		return groups < 60
	})
	otherCases := writeCases(t, lines.String())
	code, other, stderr := runWith(t, catalogue.New(), nil, append([]string{"compare", "--shard", "1/1", "--domain", otherCases}, policyArgs...)...)
	if code != exitOK {
		t.Fatalf("compare --shard of the other domain: exit %d: %s", code, stderr)
	}
	scope1 := runShardsCLI(t, catalogue.New(), t.TempDir(), 2, append([]string{"--scope", "1"}, policyArgs...)...)
	for _, split := range []bool{false, true} {
		shards := copyShards(t, scope1)
		forged, names := forgeWitness(t, shards, []byte(other), cases, split)
		code, out, stderr := runWith(t, catalogue.New(), nil, append([]string{"merge"}, shards...)...)
		t.Logf("split %v: %s", split, stderr)
		if code != exitUsage || out != "" {
			t.Errorf("split %v: merge of a forged witness: exit %d, stderr %q", split, code, stderr)
		}
		for _, s := range append([]string{"prerel merge: " + forged + ": the witness of ", "is not a case of the domain the shards ran (exhaustive scope 1: "}, names...) {
			if !strings.Contains(stderr, s) {
				t.Errorf("split %v: stderr %q\ndoes not name %s", split, stderr, s)
			}
		}
	}

	shards := runShardsCLI(t, catalogue.New(), t.TempDir(), 2, append([]string{"--domain", otherCases}, policyArgs...)...)
	code, _, stderr = runWith(t, catalogue.New(), nil, append([]string{"merge"}, shards...)...)
	if code != exitUsage || !strings.Contains(stderr, "the witnesses of the partial reports cannot be checked: the shards ran a file domain (--domain "+otherCases+"): give merge --domain with that file") {
		t.Errorf("merge of a file domain without --domain: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runWith(t, catalogue.New(), nil, append([]string{"merge", "--domain", otherCases}, shards...)...); code != exitOK {
		t.Errorf("merge --domain of a file domain: exit %d, stderr %q", code, stderr)
	}
}

// A witness replaced by another case of the same class, one the shard
// judged but does not keep (it keeps the smallest), merged with exit 0
// and a report that was not the run's. It is refused: exit 2, the file,
// the class, the forged case and the case the shard keeps named. So is a
// case of the class that only another shard judged.
func TestMergeRefusesAWitnessTheShardDoesNotKeep(t *testing.T) {
	args := []string{"--scope", "1", "--policies", "strict,apparentlymart-exact"}
	ran := runShardsCLI(t, catalogue.New(), t.TempDir(), 2, args...)
	const class = `the class "> V-pre [=]; version V-pre" (reject, allow) of strict vs apparentlymart-exact`
	for _, tt := range []struct {
		name                string
		constraint, version string // the forged witness
		want                string
	}{
		{"a case of the shard", "> 1.0.0-alpha", "1.0.0-alpha.beta",
			`(constraint "> 1.0.0-alpha", version "1.0.0-alpha.beta") is not the witness the run of shard 2/2 keeps: ` +
				`that is the smallest case of the class in its groups, constraint "> 1.0.0-alpha", version "1.0.0-beta"`},
		{"a case of the other shard", "> 1.0.0-beta", "1.0.0-alpha.beta",
			`(constraint "> 1.0.0-beta", version "1.0.0-alpha.beta") is not a case of the class in the groups of the run of shard 2/2: ` +
				`the witness it keeps, the smallest case of the class in its groups, is constraint "> 1.0.0-alpha", version "1.0.0-beta"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			shards := copyShards(t, ran)
			forged := 0
			rewritePartial(t, shards[1], func(o map[string]any) {
				for _, p := range o["pairs"].([]any) {
					pm := p.(map[string]any)
					for _, c := range pm["classes"].([]any) {
						cm := c.(map[string]any)
						if pm["a"] == "strict" && pm["b"] == "apparentlymart-exact" && cm["shape"] == "> V-pre [=]; version V-pre" &&
							cm["a_verdict"] == "reject" && cm["b_verdict"] == "allow" {
							if cm["constraint"] != "> 1.0.0-alpha" || cm["version"] != "1.0.0-beta" {
								t.Fatalf("shard 2/2 keeps %q | %q for the class", cm["constraint"], cm["version"])
							}
							cm["constraint"], cm["version"] = tt.constraint, tt.version
							forged++
						}
					}
				}
			})
			if forged != 1 {
				t.Fatalf("%d classes forged", forged)
			}
			code, out, stderr := runWith(t, catalogue.New(), nil, append([]string{"merge", "--format", "json"}, shards...)...)
			want := "prerel merge: " + shards[1] + ": the witness of " + class + " " + tt.want + "\n"
			if code != exitUsage || out != "" || stderr != want {
				t.Errorf("merge: exit %d, %d bytes out, stderr\n%s\nwant exit %d and\n%s", code, len(out), stderr, exitUsage, want)
			}
		})
	}
}

// The witness of a pair's selection (the smallest group where the two
// policies install different versions) replaced by another group of the
// same kind that the shard does not keep merged with exit 0 and a report
// that was not the run's. It is refused: exit 2, the file, the pair, the
// forged witness and the group the shard keeps named, with what each
// policy installs there. Each merge checks the witnesses on the whole
// corpus: the everyday run merges the first forgery, the long run both;
// compare/shard's TestWitnessCheckRefusesASelectionTheShardDoesNotKeep
// proves every forgery every day.
func TestMergeRefusesASelectionWitnessTheShardDoesNotKeep(t *testing.T) {
	args := []string{"--domain", "corpus", "--policies", "strict,lexical"}
	shards := runShardsCLI(t, catalogue.New(), t.TempDir(), 2, args...)
	// witnessOf is the selection witness of the partial report at path.
	witnessOf := func(path string) map[string]any {
		var o map[string]any
		data, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(data, &o)
		}
		if err != nil {
			t.Fatal(err)
		}
		w, _ := o["selection"].(map[string]any)["pairs"].([]any)[0].(map[string]any)["witness"].(map[string]any)
		return w
	}
	// The witness of shard 2/2 is forged: replaced by that of shard 1/2,
	// and by its own group with the picks swapped.
	const sh = 1
	kept, other := witnessOf(shards[sh]), witnessOf(shards[1-sh])
	if kept == nil || other == nil {
		t.Fatalf("the shards keep %v and %v", kept, other)
	}
	group := func(w map[string]any) string {
		return fmt.Sprintf("constraint %q, history %q, where strict installs %q and lexical %q", w["constraint"], w["history"], w["a"], w["b"])
	}
	run := fmt.Sprintf("the run of shard %d/2", sh+1)
	smallest := "the smallest of its groups where strict and lexical install different versions"
	for _, tt := range []struct {
		name   string
		forged map[string]any
		says   string
		long   bool // run in the long run only
	}{
		{"a group of the other shard", other, "is not a group of " + run + ": the witness it keeps, " + smallest + ", is " + group(kept), false},
		{"its group with other picks", map[string]any{"constraint": kept["constraint"], "history": kept["history"], "a": kept["b"], "b": kept["a"]},
			"is not the witness " + run + " keeps: that is " + smallest + ", " + group(kept), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long {
				longtest.Skip(t)
			}
			shards := copyShards(t, shards)
			rewritePartial(t, shards[sh], func(o map[string]any) {
				o["selection"].(map[string]any)["pairs"].([]any)[0].(map[string]any)["witness"] = tt.forged
			})
			code, out, stderr := runWith(t, catalogue.New(), nil, append([]string{"merge", "--format", "json"}, shards...)...)
			want := "prerel merge: " + shards[sh] + ": the witness of the selection of strict vs lexical (" + group(tt.forged) + ") " + tt.says + "\n"
			if code != exitUsage || out != "" || stderr != want {
				t.Errorf("merge: exit %d, %d bytes out, stderr\n%s\nwant exit %d and\n%s", code, len(out), stderr, exitUsage, want)
			}
		})
	}
}

// copyShards copies the partial reports at paths into a new directory,
// for a test to forge them, and returns the copies' paths.
func copyShards(t *testing.T, paths []string) []string {
	t.Helper()
	dir := t.TempDir()
	copies := make([]string, len(paths))
	for k, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		copies[k] = filepath.Join(dir, filepath.Base(p))
		if err := os.WriteFile(copies[k], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return copies
}
