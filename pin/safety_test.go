package pin_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

// TestOwnedNeedsTheWholeHeader recognises pin's files by the whole
// header it writes, read alone, and never a link.
func TestOwnedNeedsTheWholeHeader(t *testing.T) {
	dir := t.TempDir()
	big := ownHeader + strings.Repeat("# padding\n", safefile.ConfigLimit/10+1)
	tests := []struct {
		name, content string
		own           bool
	}{
		{"pin's", ownHeader + "module \"a\" {}\n", true},
		{"another command", strings.Replace(ownHeader, "(prerel pin)", "(prerel pin --config ci.hcl)", 1), true},
		{"larger than a configuration file", big, true},
		{"a bot's", "# Written by prerelease-bot for team X; do not delete\nmodule \"a\" {}\n", false},
		{"the first line alone", "# Written by prerel (prerel pin).\nmodule \"a\" {}\n", false},
		{"the header edited", strings.Replace(ownHeader, "rewrites and removes", "keeps", 1), false},
		{"the header cut short", ownHeader[:len(ownHeader)-1], false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			writeFiles(t, sub, map[string]string{pin.FileName: tt.content})
			path := filepath.Join(sub, pin.FileName)
			if own, err := pin.Owned(path); err != nil || own != tt.own {
				t.Errorf("Owned: %v, %v; want %v", own, err, tt.own)
			}
			link := filepath.Join(sub, "link", pin.FileName)
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(path, link); err != nil {
				t.Fatal(err)
			}
			if own, err := pin.Owned(link); err != nil || own {
				t.Errorf("Owned of a link to it: %v, %v; want false", own, err)
			}
		})
	}
}

// TestRemoveKeepsForeignHeaders removes pin's own files and leaves a
// file whose first line merely starts as pin's does.
func TestRemoveKeepsForeignHeaders(t *testing.T) {
	dir := copyTree(t)
	bot := "# Written by prerelease-bot for team X; do not delete\n"
	writeFiles(t, dir, map[string]string{filepath.Join("modules", "app", pin.FileName): bot})
	tree, diags := config.LoadTree(dir, config.TreeOptions{SkipFile: pin.Skip})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p := &pin.Plan{Dir: dir}
	for _, n := range tree.Nodes {
		if !n.Remote() && !slices.Contains(p.Dirs, n.Dir) {
			p.Dirs = append(p.Dirs, n.Dir)
		}
	}
	removal, err := pin.Remove(p, pin.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join("modules", "old", pin.FileName)}; !slices.Equal(removal.Removed, want) {
		t.Errorf("removed %q, want %q", removal.Removed, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "modules", "app", pin.FileName)); string(b) != bot {
		t.Errorf("the bot's file became %q", b)
	}
}

// snapshot returns every file under dir with its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.Type()&os.ModeSymlink != 0 {
			to, _ := os.Readlink(path)
			out[rel] = "-> " + to
			return nil
		}
		b, err := os.ReadFile(path)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// failOn makes the n-th call of a step fail (counting from 1) with a
// full disk, for the rest of the test.
func failOn[F any](t *testing.T, step *F, n int, wrap func(F, func() error) F) {
	t.Helper()
	orig := *step
	calls := 0
	*step = wrap(orig, func() error {
		calls++
		if calls == n {
			return errors.New("no space left on device")
		}
		return nil
	})
	t.Cleanup(func() { *step = orig })
}

// TestWriteIsOneChange makes the second file of a plan fail to write,
// first while the files are prepared, then while they are put in place:
// the tree is left as it was, and the error names the file, not the
// temporary one.
func TestWriteIsOneChange(t *testing.T) {
	type prepare = func(string, safefile.WriteOptions, []byte) (*safefile.Prepared, error)
	type commit = func(*safefile.Prepared) error
	for _, tt := range []struct {
		name string
		fail func(t *testing.T)
		want string
	}{
		{"prepare", func(t *testing.T) {
			failOn(t, pin.PrepareFile, 2, func(f prepare, fail func() error) prepare {
				return func(path string, o safefile.WriteOptions, data []byte) (*safefile.Prepared, error) {
					if err := fail(); err != nil {
						return nil, fmt.Errorf("cannot write %s: %w", o.Name, err)
					}
					return f(path, o, data)
				}
			})
		}, "cannot write " + filepath.Join("modules", "app", pin.FileName) + ": no space left on device; nothing was changed"},
		{"commit", func(t *testing.T) {
			failOn(t, pin.CommitFile, 2, func(f commit, fail func() error) commit {
				return func(p *safefile.Prepared) error {
					if err := fail(); err != nil {
						p.Discard()
						return fmt.Errorf("cannot write it: %w", err)
					}
					return f(p)
				}
			})
		}, "nothing was changed: prerel_override.tf restored as they were"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyTree(t)
			// An older pin in the root, to be restored.
			writeFiles(t, dir, map[string]string{pin.FileName: ownHeader + "module \"net\" {\n  version = \"1.2.0\"\n}\n"})
			_, _, p := plan(t, dir)
			if len(p.Files) != 2 || len(p.Stale) != 1 {
				t.Fatalf("%d files, stale %q; want 2 files and a stale one", len(p.Files), p.Stale)
			}
			before := snapshot(t, dir)
			tt.fail(t)
			err := pin.Write(p, pin.WriteOptions{Unlock: true})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Write: %v, want an error containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "."+pin.FileName) {
				t.Errorf("the error names a temporary file: %v", err)
			}
			if after := snapshot(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("the tree changed:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// TestLeftovers finds the temporary files a killed run left, reports them
// in Check, and removes them in Write and Remove; a file of that name
// that pin did not start is left.
func TestLeftovers(t *testing.T) {
	for _, remove := range []bool{false, true} {
		t.Run(map[bool]string{false: "Write", true: "Remove"}[remove], func(t *testing.T) {
			dir := copyTree(t)
			left := []string{"." + pin.FileName + "9096", filepath.Join("modules", "app", "."+pin.FileName+"123")}
			foreign := "." + pin.FileName + "77"
			writeFiles(t, dir, map[string]string{left[0]: ownHeader[:10], left[1]: ownHeader + "module", foreign: "my notes\n"})
			_, _, p := plan(t, dir)
			if !slices.Equal(p.Leftovers, left) {
				t.Errorf("leftovers %q, want %q", p.Leftovers, left)
			}
			diffs, err := pin.Check(p)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, d := range diffs {
				if d.Kind == "leftover" {
					kinds = append(kinds, d.File)
				}
			}
			if !slices.Equal(kinds, left) {
				t.Errorf("Check's leftovers %q, want %q", kinds, left)
			}
			if remove {
				_, err = pin.Remove(p, pin.WriteOptions{})
			} else {
				err = pin.Write(p, pin.WriteOptions{})
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range left {
				if exists(filepath.Join(dir, f)) {
					t.Errorf("%s left", f)
				}
			}
			if !exists(filepath.Join(dir, foreign)) {
				t.Errorf("%s, which pin did not start, was removed", foreign)
			}
		})
	}
}

// TestVersionPrefix pins a module version the registry lists with a "v"
// in the form both installers take as exact, and does not pin one that
// no form makes them install.
func TestVersionPrefix(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": `module "net" {
  source  = "corp/net/aws"
  version = ">= 2.0.0-beta.1"
}
`,
		"prerel.hcl": `default_policy = "cargo"` + "\n",
		"index.json": `{"modules": {"corp/net/aws": {"modules": [{"versions": [{"version": "1.0.0"}, {"version": "v2.0.0-beta.1"}]}]}}}`,
	})
	p := planAt(t, dir, "-", filepath.Join(dir, "index.json"), pin.Options{})
	if len(p.Pins) != 1 || p.Pins[0].Version != "2.0.0-beta.1" || p.Pins[0].Listed != "v2.0.0-beta.1" {
		t.Fatalf("pins %+v, unpinned %+v; want net pinned as 2.0.0-beta.1", p.Pins, p.Unpinned)
	}
	if !strings.Contains(p.Files[0].Content, `version = "2.0.0-beta.1"`) {
		t.Errorf("the file:\n%s", p.Files[0].Content)
	}
}

// TestTofuReadings does not pin a call that Terraform and OpenTofu read
// differently (one override file serves both), and treats a
// prerel_override.tofu pin did not write as blocking its directory.
func TestTofuReadings(t *testing.T) {
	files := map[string]string{
		"main.tf": `module "net" {
  source  = "corp/net/aws"
  version = "~> 1.0"
}
`,
		"main.tofu": `module "net" {
  source  = "corp/net/aws"
  version = ">= 2.0.0-beta.1"
}
`,
		"prerel.hcl": `default_policy = "cargo"` + "\n",
		"index.json": monoIndex,
	}
	build := func(t *testing.T, dir string) *pin.Plan {
		tf, diags := config.LoadTree(dir, config.TreeOptions{SkipFile: pin.Skip, Terraform: true})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return planAt(t, dir, "-", filepath.Join(dir, "index.json"), pin.Options{TerraformTree: tf})
	}
	t.Run("readings differ", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		p := build(t, dir)
		if len(p.Pins) != 0 || len(p.Unpinned) != 1 || !strings.Contains(p.Unpinned[0].Reason, "read this call differently") {
			t.Errorf("pins %+v, unpinned %+v", p.Pins, p.Unpinned)
		}
		if !slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "read this configuration differently") }) {
			t.Errorf("warnings %q, want resolve's warning that the readings differ", p.Warnings)
		}
	})
	t.Run("on the trees the report read", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		cfg, diags := policyconfig.Load(policies, filepath.Join(dir, "prerel.hcl"))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: policies, SkipFile: pin.Skip, LockFile: "-"})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Tree() == nil || rep.TerraformTree() == nil {
			t.Fatalf("the report holds the tree %v and Terraform's %v, want both", rep.Tree() != nil, rep.TerraformTree() != nil)
		}
		p, err := pin.Build(rep, nil, pin.Options{Policies: policies})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Pins) != 0 || len(p.Unpinned) != 1 || !strings.Contains(p.Unpinned[0].Reason, "read this call differently") {
			t.Errorf("pins %+v, unpinned %+v", p.Pins, p.Unpinned)
		}
	})
	t.Run("a user's prerel_override.tofu", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		writeFiles(t, dir, map[string]string{"main.tofu": files["main.tf"], "main.tf": files["main.tofu"], "prerel_override.tofu": "# mine\n"})
		p := build(t, dir)
		if len(p.Pins) != 0 || !slices.Contains(p.Blocked, "prerel_override.tofu") {
			t.Errorf("pins %+v, blocked %q", p.Pins, p.Blocked)
		}
	})
}

// TestLargeConstraints clips the constraint each pin's comment quotes,
// so that calls with a 4 KB constraint give a file of about 400 bytes a
// call (1,000 of them, 400 KB, not 4.2 MB); and a file of pin's over the limit is still recognised, checked
// and removed.
func TestLargeConstraints(t *testing.T) {
	dir := t.TempDir()
	long := ">= 1.0.0" + strings.Repeat(", != 0.0.1", 400)
	var b strings.Builder
	const calls = 20
	for i := range calls {
		fmt.Fprintf(&b, "module \"m%d\" {\n  source  = \"corp/net/aws\"\n  version = %q\n}\n", i, long)
	}
	writeFiles(t, dir, map[string]string{"main.tf": b.String(), "prerel.hcl": `default_policy = "linear"` + "\n", "index.json": monoIndex})
	p := planAt(t, dir, "-", filepath.Join(dir, "index.json"), pin.Options{})
	if len(p.Files) != 1 || len(p.Pins) != calls {
		t.Fatalf("%d files, %d pins; unpinned %d", len(p.Files), len(p.Pins), len(p.Unpinned))
	}
	if n := len(p.Files[0].Content); n > calls*500 {
		t.Errorf("the file is %d bytes, %d a call", n, n/calls)
	}
	// An old file of pin's over the limit, as an earlier prerel wrote.
	huge := ownHeader + strings.Repeat("# "+long+"\n", safefile.ConfigLimit/len(long)+1)
	writeFiles(t, dir, map[string]string{pin.FileName: huge})
	p = planAt(t, dir, "-", filepath.Join(dir, "index.json"), pin.Options{})
	diffs, err := pin.Check(p)
	if err != nil || len(diffs) != 1 || diffs[0].Kind != "changed" {
		t.Errorf("Check: %v, %+v", err, diffs)
	}
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if diffs, err := pin.Check(p); err != nil || len(diffs) != 0 {
		t.Errorf("Check after Write: %v, %+v", err, diffs)
	}
}

// TestWant pins the version prerel.hcl wants for a module call, and does
// not pin a provider version another module's constraint refuses, naming
// that module, its constraint and its place.
func TestWant(t *testing.T) {
	dir := copyTree(t)
	writeFiles(t, dir, map[string]string{"prerel.hcl": `default_policy = "strict"

module "net" {
  want = "1.0.0"
}

provider "hashicorp/aws" {
  want = "6.0.0-beta1"
}
`})
	app := filepath.Join(dir, "modules", "app", "main.tf")
	src, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{filepath.Join("modules", "app", "main.tf"): strings.Replace(string(src), `"~> 5.0"`, `"<= 5.31.0"`, 1)})
	p := planAt(t, dir, "-", filepath.Join(dir, "index.json"), pin.Options{})
	var pins []string
	for _, x := range p.Pins {
		pins = append(pins, x.Name+" "+x.Version+" "+x.WantedFrom)
	}
	if want := []string{"net 1.0.0 " + filepath.Join(dir, "prerel.hcl") + ":4:10"}; !slices.Equal(pins, want) {
		t.Errorf("pins %q, want %q", pins, want)
	}
	found := false
	for _, u := range p.Unpinned {
		if u.Name == "aws" {
			found = true
			if want := `6.0.0-beta1 does not satisfy module.app's "<= 5.31.0" (` + filepath.Join("modules", "app", "main.tf"); !strings.Contains(u.Reason, want) {
				t.Errorf("aws: %q, want it to contain %q", u.Reason, want)
			}
		}
	}
	if !found {
		t.Errorf("aws is not among the unpinned: %+v", p.Unpinned)
	}
	if !strings.Contains(p.Files[0].Content, "# module.net: 1.0.0 wanted (") {
		t.Errorf("the file does not say the version is wanted:\n%s", p.Files[0].Content)
	}
}

// TestNotPinnedSaysWhatWould leads the report with an item whose chosen
// policy selects no version, why, and the fixes resolve verified: a
// constraint edit, a policy and the wish itself.
func TestNotPinnedSaysWhatWould(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf":    "module \"db\" {\n  source  = \"corp/net/aws\"\n  version = \"~> 2.0\"\n}\n",
		"prerel.hcl": "module \"db\" {\n  policy = \"cargo\"\n}\n",
		"index.json": `{"modules": {"corp/net/aws": {"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.5.0"}, {"version": "2.0.0-beta.1"}]}]}}}`,
	})
	p := planAt(t, dir, "-", filepath.Join(dir, "index.json"), pin.Options{})
	if len(p.Unpinned) != 1 {
		t.Fatalf("unpinned %+v", p.Unpinned)
	}
	u := p.Unpinned[0]
	for _, want := range []string{`"~> 2.0" names no prerelease`} {
		if !strings.Contains(u.Reason, want) {
			t.Errorf("why %q, want it to contain %q", u.Reason, want)
		}
	}
	for _, want := range []string{`write "~> 2.0.0-beta.1" (cargo then selects 2.0.0-beta.1)`, "ga-bound", "--want db=2.0.0-beta.1"} {
		if !strings.Contains(u.Instead, want) {
			t.Errorf("instead %q, want it to contain %q", u.Instead, want)
		}
	}
	var b strings.Builder
	if err := pin.Render(&b, pin.Text, p, pin.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if first := strings.Join(lines[:min(24, len(lines))], "\n"); !strings.Contains(first, "module.db") || !strings.Contains(first, "--want") {
		t.Errorf("the first screen does not name db and its fixes:\n%s", first)
	}
}

// TestWriteRefusesWhatItCannotRead refuses to write a file larger than
// prerel reads of a configuration file, before writing anything.
func TestWriteRefusesWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	p := &pin.Plan{Dir: dir, Files: []pin.File{
		{Path: filepath.Join(dir, pin.FileName), Rel: pin.FileName, Content: ownHeader},
		{Path: filepath.Join(dir, "m", pin.FileName), Rel: filepath.Join("m", pin.FileName), Content: ownHeader + strings.Repeat("#\n", safefile.ConfigLimit/2+1)},
	}}
	writeFiles(t, dir, map[string]string{"m/main.tf": ""})
	err := pin.Write(p, pin.WriteOptions{})
	if err == nil || !strings.Contains(err.Error(), "more than the 2 MiB prerel reads of a configuration file") {
		t.Fatalf("Write: %v", err)
	}
	if exists(filepath.Join(dir, pin.FileName)) {
		t.Error("a file was written before the refusal")
	}
}
