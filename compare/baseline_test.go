package compare_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/engine"
)

func TestWriteBaselineRoundTrip(t *testing.T) {
	r := goldenReport(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "baseline.json")
	if err := os.WriteFile(path, []byte("an older baseline that is much longer than nothing"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compare.WriteBaseline(path, r); err != nil {
		t.Fatal(err)
	}
	back, err := compare.ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r.Baseline()) {
		t.Error("the baseline read back is not the report's stable part")
	}
	for _, c := range back.Classes {
		if c.Witness.AReason != "" || c.Witness.BReason != "" {
			t.Fatalf("the baseline keeps reasons: %+v", c.Witness)
		}
	}
	if r.Classes[0].Witness.AReason == "" {
		t.Error("Baseline cleared the reasons of the report itself")
	}
	if d := compare.Diff(back, r); len(d) != 0 {
		t.Errorf("a report differs from its own baseline: %v", d)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "baseline.json" {
		t.Errorf("the directory holds %v, want only baseline.json", entries)
	}
}

// A failed write leaves the old baseline whole and no temporary file.
func TestWriteBaselineIsAtomic(t *testing.T) {
	r := goldenReport(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "baseline.json")
	// A directory in the way makes the final rename fail.
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "keep"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compare.WriteBaseline(target, r); err == nil {
		t.Fatal("writing over a directory: no error")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("a failed write left %v", entries)
	}
	if err := compare.WriteBaseline(filepath.Join(dir, "missing", "baseline.json"), r); err == nil {
		t.Error("writing into a missing directory: no error")
	}
}

func TestReadBaselineErrors(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"schema":  `{"schema": 99, "domain": {}, "policies": [], "pairs": [], "classes": []}`,
		"unknown": `{"schema": 1, "surprise": true}`,
		"broken":  `{"schema": 1,`,
	} {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := compare.ReadBaseline(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
	}
}

func TestDiff(t *testing.T) {
	base := goldenReport(t).Baseline()
	first := base.Classes[0]
	tests := []struct {
		name   string
		change func(r *compare.Report)
		want   []compare.Change // Text is matched as a prefix
	}{
		{"nothing", func(*compare.Report) {}, nil},
		{"a class appeared", func(r *compare.Report) {
			c := first
			c.Signature = "(any); version V-pre; a allow, b reject"
			c.Witness.Constraint = ""
			r.Classes = append(r.Classes, c)
		}, []compare.Change{{Kind: compare.Appeared, Subject: "class", A: first.A, B: first.B, Signature: "(any); version V-pre; a allow, b reject",
			Text: `linear vs same-base: new class "(any); version V-pre; a allow, b reject" (prerelease rule), 1 case, witness "" with "1.2.0-beta" (linear allow, same-base reject)`}}},
		{"a class disappeared", func(r *compare.Report) { r.Classes = r.Classes[1:] },
			[]compare.Change{{Kind: compare.Disappeared, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" (prerelease rule, 1 case) disappeared; its witness was ">= 1.0.0" with "1.2.0-beta" (linear allow, same-base reject)`}}},
		{"a count changed", func(r *compare.Report) { r.Classes[0].Count = 5 },
			[]compare.Change{{Kind: compare.Changed, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" changed: count 5, was 1`}}},
		{"a cause changed", func(r *compare.Report) { r.Classes[0].Cause = compare.CauseUnknown },
			[]compare.Change{{Kind: compare.Changed, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" changed: cause unknown, was prerelease rule`}}},
		{"a witness changed", func(r *compare.Report) { r.Classes[0].Witness.Version = "1.3.0-beta" },
			[]compare.Change{{Kind: compare.Changed, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" changed: witness ">= 1.0.0" with "1.3.0-beta" (linear allow, same-base reject), was ">= 1.0.0" with "1.2.0-beta" (linear allow, same-base reject)`}}},
		{"a verdict of the witness changed", func(r *compare.Report) { r.Classes[0].Witness.BVerdict = engine.Invalid },
			[]compare.Change{{Kind: compare.Changed, Subject: "class", A: first.A, B: first.B, Signature: first.Signature,
				Text: `linear vs same-base: class ">= V [>]; version V-pre; a allow, b reject" changed: witness ">= 1.0.0" with "1.2.0-beta" (linear allow, same-base invalid), was`}}},
		{"a reason changed", func(r *compare.Report) { r.Classes[0].Witness.AReason = "reworded" }, nil},
		{"pair counts changed", func(r *compare.Report) { r.Pairs[1].Agree--; r.Pairs[1].Diverge++ },
			[]compare.Change{{Kind: compare.Changed, Subject: "pair", A: "linear", B: "tilde", Text: "linear vs tilde: 6 diverge, was 5 (13 agree, was 14)"}}},
		{"the domain changed", func(r *compare.Report) { r.Domain.Description = "other"; r.Domain.Cases = 20 },
			[]compare.Change{
				{Kind: compare.Changed, Subject: "domain", Text: `domain changed: now "other", was "test list"`},
				{Kind: compare.Changed, Subject: "domain", Text: "case count changed: now 20, was 19"}}},
		{"a policy appeared", func(r *compare.Report) {
			r.Policies = append(r.Policies, "extra")
			r.Pairs = append(r.Pairs, compare.Pair{A: "no-v", B: "extra", Agree: 19})
		}, []compare.Change{
			{Kind: compare.Appeared, Subject: "policy", Text: "policy extra appeared"},
			{Kind: compare.Appeared, Subject: "pair", A: "no-v", B: "extra", Text: "no-v vs extra appeared: 19 agree, 0 diverge"}}},
		{"a policy disappeared", func(r *compare.Report) { r.Policies = r.Policies[:3]; r.Pairs = r.Pairs[:5] },
			[]compare.Change{
				{Kind: compare.Disappeared, Subject: "policy", Text: "policy no-v disappeared"},
				{Kind: compare.Disappeared, Subject: "pair", A: "tilde", B: "no-v", Text: "tilde vs no-v disappeared"}}},
		{"a selection witness changed", func(r *compare.Report) {
			w := *r.Selection.Pairs[0].Witness
			w.BSelected = "1.0.0"
			r.Selection.Pairs[0].Witness = &w
		},
			[]compare.Change{{Kind: compare.Changed, Subject: "selection pair", A: "linear", B: "same-base",
				Text: `selection linear vs same-base: witness now "~> 1.0" over demo (linear installs v1.3.0-rc.1, same-base installs 1.0.0); was "~> 1.0" over demo (linear installs v1.3.0-rc.1, same-base installs 1.1.0)`}}},
		{"selection disappeared", func(r *compare.Report) { r.Selection = nil },
			[]compare.Change{{Kind: compare.Disappeared, Subject: "selection", Text: "selection disappeared (it had 2 groups)"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := clone(t, base)
			tt.change(cur)
			got := compare.Diff(base, cur)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d changes, want %d:\n%v", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Kind != w.Kind || g.Subject != w.Subject || g.A != w.A || g.B != w.B || g.Signature != w.Signature || !strings.HasPrefix(g.Text, w.Text) {
					t.Errorf("change %d:\n  %+v\nwant\n  %+v", i, g, w)
				}
				if g.String() != g.Text {
					t.Errorf("String() = %q", g.String())
				}
			}
		})
	}
}

// clone deep-copies a report through its JSON form.
func clone(t *testing.T, r *compare.Report) *compare.Report {
	t.Helper()
	var buf strings.Builder
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	c, err := compare.DecodeReport(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A baseline is written to the file a symbolic link names, keeping the
// link and the file's mode, and never over a directory, FIFO or device.
func TestWriteBaselineTargets(t *testing.T) {
	r := goldenReport(t)
	dir := t.TempDir()
	mustWrite := func(path, text string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	isBaseline := func(path string) {
		t.Helper()
		if _, err := compare.ReadBaseline(path); err != nil {
			t.Errorf("%s does not hold the baseline: %v", path, err)
		}
	}

	t.Run("symbolic link", func(t *testing.T) {
		shared := filepath.Join(dir, "shared")
		if err := os.Mkdir(shared, 0o755); err != nil {
			t.Fatal(err)
		}
		real := filepath.Join(shared, "real.json")
		mustWrite(real, "old", 0o640)
		link := filepath.Join(dir, "link.json")
		if err := os.Symlink(filepath.Join("shared", "real.json"), link); err != nil {
			t.Fatal(err)
		}
		if err := compare.WriteBaseline(link, r); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
		}
		isBaseline(real)
		if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
			t.Errorf("the linked file's mode is %v, want 0640", fi.Mode().Perm())
		}
	})
	t.Run("dangling symbolic link", func(t *testing.T) {
		link := filepath.Join(dir, "dangling.json")
		if err := os.Symlink("created.json", link); err != nil {
			t.Fatal(err)
		}
		if err := compare.WriteBaseline(link, r); err != nil {
			t.Fatal(err)
		}
		isBaseline(filepath.Join(dir, "created.json"))
	})
	t.Run("private file", func(t *testing.T) {
		priv := filepath.Join(dir, "priv.json")
		mustWrite(priv, "x", 0o600)
		if err := compare.WriteBaseline(priv, r); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(priv); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want 0600", fi.Mode().Perm())
		}
		isBaseline(priv)
	})
	t.Run("new file", func(t *testing.T) {
		umask := syscall.Umask(0o027)
		defer syscall.Umask(umask)
		path := filepath.Join(dir, "new.json")
		if err := compare.WriteBaseline(path, r); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0666 less the umask 027: 0640", fi.Mode().Perm())
		}
	})

	fifo := filepath.Join(dir, "fifo1")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	devLink := filepath.Join(dir, "devnull.json")
	if err := os.Symlink("/dev/null", devLink); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "somedir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	pipe := fmt.Sprintf("/proc/self/fd/%d", pw.Fd()) // as /dev/stdout is to a pipe
	refused := []struct {
		name, path, want string
	}{
		{"directory", sub, sub + " is a directory"},
		{"directory with a slash", sub + "/", sub + "/ is a directory"},
		{"FIFO", fifo, fifo + " is not a regular file (it is a FIFO or pipe)"},
		{"device", "/dev/null", "/dev/null is not a regular file (it is a character device)"},
		{"link to a device", devLink, devLink + " is not a regular file (it is a character device)"},
		{"pipe", pipe, pipe + " is not a regular file (it is a FIFO or pipe)"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			withTimeout(t, func() { err = compare.WriteBaseline(tt.path, r) })
			var te *compare.TargetError
			if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want a TargetError starting %q", err, tt.want)
			}
			if strings.Contains(err.Error(), ".tmp") {
				t.Errorf("the error names a temporary file: %v", err)
			}
			if _, err := compare.CheckBaselineTarget(tt.path); err == nil {
				t.Error("CheckBaselineTarget accepts it")
			}
		})
	}
	missing := filepath.Join(dir, "missing", "b.json")
	err = compare.WriteBaseline(missing, r)
	if want := "cannot write " + missing + ": the directory " + filepath.Dir(missing) + " does not exist"; err == nil ||
		!strings.HasPrefix(err.Error(), want) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing directory: %v, want %q", err, want)
	}
	if _, err := os.Stat(filepath.Dir(missing)); err == nil {
		t.Error("the missing directory was created")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
	if entries, _ := os.ReadDir(sub); len(entries) != 0 {
		t.Errorf("writing over a directory left %v in it", entries)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temporary file is left: %s", e.Name())
		}
	}
}

// A directory that cannot be written to gives an error that names the
// baseline, not the temporary file.
func TestWriteBaselineUnwritableDirectory(t *testing.T) {
	// No one creates files in /proc.
	proc := "/proc/self/b.json"
	err := compare.WriteBaseline(proc, goldenReport(t))
	if err == nil || !strings.HasPrefix(err.Error(), "cannot write "+proc+": ") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("error %v, want one naming %s and no temporary file", err, proc)
	}
	if os.Geteuid() == 0 {
		t.Skip("root writes to any directory")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "b.json")
	err = compare.WriteBaseline(path, goldenReport(t))
	if want := "cannot write " + path + ": permission denied"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// Every way a baseline can be corrupt or not a baseline gets an error
// with a place where there is one.
func TestReadBaselineCorrupt(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "the file is empty: not a report or baseline"},
		{"blank", " \n\t\n", "the file is empty"},
		{"truncated", "{\"schema\":1,", ":1:13: the file ends in the middle of the report"},
		{"truncated on line 3", "{\n  \"schema\": 1,\n  \"domain\": {", ":3:14: the file ends in the middle"},
		{"syntax", "{\n  \"schema\": 1,\n  \"domain\" {}\n}", ":3:12: malformed JSON: invalid character '{'"},
		{"wrong type", "{\n  \"schema\": \"one\"\n}", `:2:18: "schema" is a JSON string, expected int`},
		{"trailing data", `{"schema":1,"domain":{"name":"x","description":"x","cases":1},"policies":["a","b"],"pairs":[],"classes":[]}{"x":1}`, ":1:108: data after the end of the report"},
		{"no domain or policies", `{"schema":1}`, "not a report or baseline written by prerel compare: it has no domain, 0 policies, no pairs, no classes"},
		{"no schema", `{}`, "no schema"},
		{"a JSON array", `[]`, "is a JSON array"},
		{"unknown field", `{"schema": 1, "surprise": true}`, `unknown field "surprise"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := compare.ReadBaseline(path)
			if err == nil || !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one naming %s and saying %q", err, path, tt.want)
			}
			if _, err := compare.DecodeReport(strings.NewReader(tt.text)); err == nil {
				t.Error("DecodeReport accepts it")
			}
		})
	}
}

// Drift is told by the cases a file holds, not by its name, and a pair is
// the same pair whichever policy was given first.
func TestDiffIgnoresFileNameAndPolicyOrder(t *testing.T) {
	text := []byte(">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n~> 1.2\t2.0.0-beta\n>= v1.0.0\tv1.1.0-beta\n= 1.0.0-beta\t1.0.0-beta\n")
	run := func(name string, data []byte, ps ...engine.Policy) *compare.Report {
		t.Helper()
		d, err := compare.Lines(name, data)
		if err != nil {
			t.Fatal(err)
		}
		r, err := compare.Run(context.Background(), d, ps, compare.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	base := run("div.tsv", text, linear, sameBase, noV)
	path := filepath.Join(t.TempDir(), "b.json")
	if err := compare.WriteBaseline(path, base); err != nil {
		t.Fatal(err)
	}
	saved, err := compare.ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, cur := range map[string]*compare.Report{
		"another spelling of the path": run("./div.tsv", text, linear, sameBase, noV),
		"an absolute path":             run("/ci/checkout/div.tsv", text, linear, sameBase, noV),
		"policies in another order":    run("div.tsv", text, noV, sameBase, linear),
	} {
		if d := compare.Diff(saved, cur); len(d) != 0 {
			t.Errorf("%s: %d changes: %v", name, len(d), d)
		}
		dr, err := compare.ComputeDrift(context.Background(), nil, saved, cur, nil)
		if err != nil || !dr.Matches || !dr.Exact {
			t.Errorf("%s: drift %+v, %v; want an exact match", name, dr, err)
		}
	}
	other := run("div.tsv", append([]byte(">= 1.0.0\t1.0.0\n"), text[:len(text)-1]...), linear, sameBase, noV)
	if d := compare.Diff(saved, other); len(d) == 0 || !strings.HasPrefix(d[0].Text, "domain changed: the file holds other cases") {
		t.Errorf("other cases: %v", d)
	}
	// A baseline written before domains had digests still reads, and
	// says why a new path differs.
	old := clone(t, saved)
	old.Domain.Digest = ""
	if d := compare.Diff(old, run("div.tsv", text, linear, sameBase, noV)); len(d) != 0 {
		t.Errorf("an older baseline of the same path: %v", d)
	}
	d := compare.Diff(old, run("./div.tsv", text, linear, sameBase, noV))
	if len(d) != 1 || !strings.Contains(d[0].Text, "written by an older prerel") || !strings.Contains(d[0].Text, "--write-baseline") {
		t.Errorf("an older baseline of another path: %v", d)
	}
}

// A drift lists its first MaxDriftChanges changes and counts the rest.
func TestDriftChangesAreCapped(t *testing.T) {
	base := goldenReport(t).Baseline()
	cur := clone(t, base)
	for i := range compare.MaxDriftChanges + 50 {
		c := cur.Classes[0]
		c.Signature = fmt.Sprintf("made up %d; a allow, b reject", i)
		cur.Classes = append(cur.Classes, c)
	}
	dr, err := compare.ComputeDrift(context.Background(), nil, base, cur, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(dr.Changes) != compare.MaxDriftChanges || dr.ChangesLeft != 50 || dr.ChangeCount() != compare.MaxDriftChanges+50 {
		t.Errorf("%d changes listed, %d left; want %d and 50", len(dr.Changes), dr.ChangesLeft, compare.MaxDriftChanges)
	}
	if all := compare.Diff(base, cur); len(all) != compare.MaxDriftChanges+50 {
		t.Errorf("Diff lists %d changes, want them all", len(all))
	}
	for _, f := range []render.Format{render.FormatText, render.FormatMarkdown} {
		var b strings.Builder
		if err := render.Render(&b, f, cur, render.Options{Drift: dr}); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint(compare.MaxDriftChanges + 50); !strings.Contains(b.String(), want) {
			t.Errorf("the %s report does not count the %s changes", f, want)
		}
	}
}

// TestBaselineLeavesOutPolicyErrors checks that a baseline keeps no
// policy that failed on some cases, and that the report keeps them.
func TestBaselineLeavesOutPolicyErrors(t *testing.T) {
	r := goldenReport(t)
	r.PolicyErrors = []compare.PolicyError{{Policy: "no-v", Cases: 1,
		Errors: []compare.PolicyErrorGroup{{Reason: "no-v.hcl:1:1: failed", Cases: 1, Constraint: "~> 1.0", Version: "1.0.0"}}}}
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := compare.WriteBaseline(path, r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "policy_errors") {
		t.Error("the baseline keeps the policy errors")
	}
	if len(r.PolicyErrors) != 1 {
		t.Error("writing the baseline cleared the report's policy errors")
	}
}
