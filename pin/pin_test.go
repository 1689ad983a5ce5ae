package pin_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

var policies = catalogue.New()

const treeDir = "testdata/tree"

// plan resolves the tree in dir as the CLI would, the files pin wrote
// left out, and plans the pins.
func plan(t *testing.T, dir string) (*resolve.Report, *config.Tree, *pin.Plan) {
	t.Helper()
	rep, tree := report(t, dir)
	p, err := pin.Build(rep, tree, pin.Options{Policies: policies})
	if err != nil {
		t.Fatal(err)
	}
	return rep, tree, p
}

func report(t *testing.T, dir string) (*resolve.Report, *config.Tree) {
	t.Helper()
	cfg, diags := policyconfig.Load(policies, filepath.Join(dir, "prerel.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	return runWith(t, dir, cfg, x)
}

func runWith(t *testing.T, dir string, cfg *policyconfig.Config, src registry.Source) (*resolve.Report, *config.Tree) {
	t.Helper()
	rep, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: src, Policies: policies, SkipFile: pin.Skip})
	if err != nil {
		t.Fatal(err)
	}
	tree, tdiags := config.LoadTree(dir, config.TreeOptions{SkipFile: pin.Skip})
	if tdiags.HasErrors() {
		t.Fatal(tdiags)
	}
	return rep, tree
}

func TestGolden(t *testing.T) {
	_, _, p := plan(t, treeDir)
	for _, f := range []struct {
		format pin.Format
		ext    string
	}{{pin.Text, "txt"}, {pin.Markdown, "md"}, {pin.JSON, "json"}} {
		var b bytes.Buffer
		if err := pin.Render(&b, f.format, p, pin.RenderOptions{Contents: f.format != pin.JSON}); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "golden", "plan."+f.ext), b.Bytes())
		if f.format != pin.JSON {
			for i, l := range strings.Split(b.String(), "\n") {
				if len(l) > pin.Width {
					t.Errorf("%s line %d is %d columns wide: %q", f.ext, i+1, len(l), l)
				}
			}
		}
	}
	for _, f := range p.Files {
		golden.Check(t, filepath.Join("testdata", "golden", strings.ReplaceAll(f.Rel, string(filepath.Separator), "_")), []byte(f.Content))
	}
}

// TestPlan checks what is pinned where and what is not, and why.
func TestPlan(t *testing.T) {
	_, _, p := plan(t, treeDir)
	var pins []string
	for _, x := range p.Pins {
		pins = append(pins, string(x.Kind)+" "+x.Name+" "+x.Version+" in "+x.File)
	}
	want := []string{
		"module net 2.0.0-beta.1 in prerel_override.tf",
		"provider aws 6.0.0-beta1 in prerel_override.tf",
		"provider random 4.0.0-beta1 in prerel_override.tf",
		"module app.db 3.0.0-rc.1 in " + filepath.Join("modules", "app", "prerel_override.tf"),
	}
	if strings.Join(pins, "\n") != strings.Join(want, "\n") {
		t.Errorf("pins:\n%s\nwant:\n%s", strings.Join(pins, "\n"), strings.Join(want, "\n"))
	}
	unpinned := map[string]string{}
	for _, u := range p.Unpinned {
		unpinned[u.Name] = u.Reason
	}
	for name, reason := range map[string]string{
		"net.inner": "downloaded by init",
		"fixed":     "user_override.tf already overrides the version",
		"regional":  "the version is an expression (\"~> ${var.region}\") that is not static: var.region has no default value",
	} {
		if !strings.Contains(unpinned[name], reason) {
			t.Errorf("%s: reason %q, want one containing %q", name, unpinned[name], reason)
		}
	}
	if len(p.Unpinned) != 3 {
		t.Errorf("%d unpinned, want 3: %+v", len(p.Unpinned), p.Unpinned)
	}
	if want := []string{filepath.Join("modules", "old", "prerel_override.tf")}; strings.Join(p.Stale, ",") != strings.Join(want, ",") {
		t.Errorf("stale %q, want %q", p.Stale, want)
	}
	var locks []string
	for _, l := range p.Lock {
		locks = append(locks, l.Address+" "+l.Locked+" -> "+l.Pinned)
	}
	if got, want := strings.Join(locks, "\n"), "registry.terraform.io/hashicorp/aws 5.31.0 -> 6.0.0-beta1\nregistry.terraform.io/hashicorp/random 3.5.0 -> 4.0.0-beta1"; got != want {
		t.Errorf("lock changes:\n%s\nwant:\n%s", got, want)
	}
}

// TestProviderRefused leaves a provider unpinned when another module's
// constraint does not admit the pin, naming the module, its constraint
// and its place.
func TestProviderRefused(t *testing.T) {
	rep, tree := report(t, treeDir)
	for i := range rep.Items {
		it := &rep.Items[i]
		if it.Name != "aws" {
			continue
		}
		for j := range it.Requirements {
			if it.Requirements[j].Module == "module.app" {
				it.Requirements[j].Constraint = "<= 5.31.0"
			}
		}
	}
	p, err := pin.Build(rep, tree, pin.Options{Policies: policies})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range p.Pins {
		if x.Name == "aws" {
			t.Fatalf("aws pinned at %s", x.Version)
		}
	}
	found := false
	for _, u := range p.Unpinned {
		if u.Name == "aws" {
			found = true
			want := `6.0.0-beta1 does not satisfy module.app's "<= 5.31.0" (` + filepath.Join("modules", "app", "main.tf") + `:3:5)`
			if u.Reason != want {
				t.Errorf("reason %q, want %q", u.Reason, want)
			}
		}
	}
	if !found {
		t.Error("aws is not among the unpinned")
	}
}

// copyTree copies testdata/tree into a temporary directory.
func copyTree(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(treeDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(treeDir, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestWriteCheckRemove writes the plan, reads the tree back as Terraform
// reads it (override files merged) and finds the pinned versions, checks
// the files up to date, then removes them and finds today's constraints
// again.
func TestWriteCheckRemove(t *testing.T) {
	dir := copyTree(t)
	_, _, p := plan(t, dir)
	if d, err := pin.Check(p); err != nil || len(d) != 3 {
		t.Fatalf("before writing, Check: %v, %+v; want 2 missing files and a stale one", err, d)
	}
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "modules", "old", pin.FileName)); !os.IsNotExist(err) {
		t.Errorf("the stale file is still there: %v", err)
	}
	if d, err := pin.Check(p); err != nil || len(d) != 0 {
		t.Fatalf("after writing, Check: %v, %+v", err, d)
	}
	// As Terraform reads it.
	tree, diags := config.LoadTree(dir, config.TreeOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := versions(tree)
	for k, v := range map[string]string{"net": "2.0.0-beta.1", "app.db": "3.0.0-rc.1", "fixed": "~> 1.0", "same": "~> 1.0",
		"provider aws": "hashicorp/aws 6.0.0-beta1", "provider random": "hashicorp/random 4.0.0-beta1"} {
		if got[k] != v {
			t.Errorf("%s: %q as Terraform reads it, want %q", k, got[k], v)
		}
	}
	for _, pr := range tree.Root.Module.Providers {
		if pr.LocalName == "aws" && len(pr.ConfigurationAliases) != 0 {
			t.Errorf("aws aliases %q in the root, want none", pr.ConfigurationAliases)
		}
	}
	// A plan made now, the files pin wrote left out, is the same.
	_, _, again := plan(t, dir)
	if len(again.Pins) != len(p.Pins) || len(again.Stale) != 0 {
		t.Errorf("planned again: %d pins, stale %q", len(again.Pins), again.Stale)
	}
	removal, err := pin.Remove(again, pin.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(removal.Removed) != 2 {
		t.Errorf("removed %q, want the 2 files written", removal.Removed)
	}
	if _, err := os.Stat(filepath.Join(dir, "user_override.tf")); err != nil {
		t.Errorf("the user's override file: %v", err)
	}
	tree, _ = config.LoadTree(dir, config.TreeOptions{})
	if got := versions(tree); got["net"] != "~> 1.0" || got["provider aws"] != "hashicorp/aws >= 5.0" {
		t.Errorf("after Remove: %v", got)
	}
}

// versions maps call paths to their version and "provider NAME" to the
// root's source and constraint.
func versions(tree *config.Tree) map[string]string {
	out := map[string]string{}
	for _, n := range tree.Nodes {
		for _, c := range n.Module.ModuleCalls {
			out[strings.Join(append(append([]string{}, n.Path...), c.Name), ".")] = c.Version
		}
	}
	for _, pr := range tree.Root.Module.Providers {
		out["provider "+pr.LocalName] = pr.Source + " " + pr.Constraint()
	}
	return out
}

// TestNeverTouchesUserFiles refuses to write over a prerel_override.tf
// prerel did not write, and Remove leaves it.
func TestNeverTouchesUserFiles(t *testing.T) {
	dir := copyTree(t)
	user := filepath.Join(dir, pin.FileName)
	const mine = "module \"net\" {\n  version = \"1.0.0\"\n}\n"
	if err := os.WriteFile(user, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, p := plan(t, dir)
	if len(p.Blocked) != 1 || p.Blocked[0] != pin.FileName {
		t.Errorf("blocked %q", p.Blocked)
	}
	for _, x := range p.Pins {
		if x.File == pin.FileName {
			t.Errorf("%s pinned in the user's %s", x.Name, pin.FileName)
		}
	}
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pin.Remove(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(user); string(b) != mine {
		t.Errorf("the user's file became %q", b)
	}
}

// TestUnlock removes exactly the provider blocks named, every other byte
// of the lock file kept.
func TestUnlock(t *testing.T) {
	dir := copyTree(t)
	_, _, p := plan(t, dir)
	lock := filepath.Join(dir, ".terraform.lock.hcl")
	before, _ := os.ReadFile(lock)
	if err := pin.Write(p, pin.WriteOptions{Unlock: true}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(lock)
	want := "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n\n"
	if string(after) != want {
		t.Errorf("lock file:\n%s\nwant:\n%s\n(before:\n%s)", after, want, before)
	}

	// One block of two: the other stays byte for byte.
	if err := os.WriteFile(lock, before, 0o644); err != nil {
		t.Fatal(err)
	}
	removed, err := pin.Unlock(lock, []string{"registry.terraform.io/hashicorp/aws"})
	if err != nil || len(removed) != 1 {
		t.Fatalf("Unlock: %q, %v", removed, err)
	}
	after, _ = os.ReadFile(lock)
	i := bytes.Index(before, []byte("provider \"registry.terraform.io/hashicorp/random\""))
	if want := string(before[:bytes.Index(before, []byte("provider"))]) + string(before[i:]); string(after) != want {
		t.Errorf("lock file:\n%s\nwant:\n%s", after, want)
	}
}

// TestCheckChanged reports a file edited after Write, line by line.
func TestCheckChanged(t *testing.T) {
	dir := copyTree(t)
	_, _, p := plan(t, dir)
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, pin.FileName)
	b, _ := os.ReadFile(path)
	edited := strings.Replace(string(b), `version = "2.0.0-beta.1"`, `version = "1.0.0"`, 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := pin.Check(p)
	if err != nil {
		t.Fatal(err)
	}
	want := "-  version = \"1.0.0\"\n+  version = \"2.0.0-beta.1\"\n"
	if len(d) != 1 || d[0].File != pin.FileName || d[0].Kind != "changed" || d[0].Diff != want {
		t.Errorf("Check: %+v, want %s changed:\n%s", d, pin.FileName, want)
	}
}

// TestRenderOutsideText escapes control characters in text and keeps
// outside text in code spans in Markdown.
func TestRenderOutsideText(t *testing.T) {
	v := "2.0.0-beta.1"
	p := &pin.Plan{Pins: []pin.Pin{{Kind: resolve.KindModule, Name: "net", Module: resolve.RootModule,
		Source: "corp/\x1b[31mnet/aws", Version: "2.0.0", Policy: "linear", File: pin.FileName, Terraform: &v}},
		Unpinned: []pin.Unpinned{{Kind: resolve.KindModule, Name: "x", Module: "root", Source: "a*b*<img>",
			Reason: "the version is an expression (var.*v*)", Instead: "write \x07it"}}}
	var text, md bytes.Buffer
	if err := pin.Render(&text, pin.Text, p, pin.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := pin.Render(&md, pin.Markdown, p, pin.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s holds a control character:\n%q", name, out)
		}
	}
	for _, want := range []string{"`a*b*<img>`", `var.\*v\*`} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if err := pin.Render(&text, pin.Text, nil, pin.RenderOptions{}); err == nil {
		t.Error("a nil plan rendered")
	}
}

// TestSharedModule pins a call of a local module called from two places
// once when both calls' policies select the same version, and not at all
// when they do not: one override file serves both.
func TestSharedModule(t *testing.T) {
	const dir = "testdata/shared"
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	same, err := policyconfig.New(policies)
	if err != nil {
		t.Fatal(err)
	}
	if diags := same.SetDefault("linear", policyconfig.FlagOrigin("--policy linear")); diags.HasErrors() {
		t.Fatal(diags)
	}
	differ, diags := policyconfig.Load(policies, filepath.Join(dir, "prerel.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, tt := range []struct {
		name     string
		cfg      *policyconfig.Config
		pins     string
		unpinned []string
	}{
		{"same", same, "net 2.0.0-beta.1 in " + filepath.Join("modules", "m", "prerel_override.tf"), nil},
		{"differ", differ, "", []string{"a.net", "b.net"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep, tree := runWith(t, dir, tt.cfg, x)
			p, err := pin.Build(rep, tree, pin.Options{Policies: policies})
			if err != nil {
				t.Fatal(err)
			}
			var pins []string
			for _, x := range p.Pins {
				label := x.Name[strings.LastIndex(x.Name, ".")+1:]
				pins = append(pins, label+" "+x.Version+" in "+x.File)
			}
			if got := strings.Join(pins, "\n"); got != tt.pins {
				t.Errorf("pins %q, want %q", got, tt.pins)
			}
			var names []string
			for _, u := range p.Unpinned {
				names = append(names, u.Name)
				if !strings.Contains(u.Reason, "called from several places (a.net, b.net)") {
					t.Errorf("%s: reason %q", u.Name, u.Reason)
				}
			}
			if strings.Join(names, ",") != strings.Join(tt.unpinned, ",") {
				t.Errorf("unpinned %q, want %q", names, tt.unpinned)
			}
			for _, f := range p.Files {
				if n := strings.Count(f.Content, `module "net"`); n != 1 {
					t.Errorf("%s has %d blocks for net", f.Rel, n)
				}
			}
		})
	}
}

// TestBuildRefusesOwnFiles refuses a tree read with the files pin wrote:
// the plan would take the pins for the configuration's own constraints.
func TestBuildRefusesOwnFiles(t *testing.T) {
	rep, _ := report(t, treeDir)
	tree, diags := config.LoadTree(treeDir, config.TreeOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if _, err := pin.Build(rep, tree, pin.Options{Policies: policies}); err == nil || !strings.Contains(err.Error(), "SkipFile") {
		t.Errorf("Build: %v, want an error naming SkipFile", err)
	}
}

// TestPinStaticVersion pins a module call whose version comes from a
// constant variable through a local, and reads the pin back.
func TestPinStaticVersion(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.tf": `variable "major" {
  type    = string
  const   = true
  default = "1"
}

locals {
  app = format("~> %s.0", var.major)
}

module "app" {
  source  = "corp/app/aws"
  version = local.app
}
`,
		"prerel.hcl": "default_policy = \"linear\"\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := policyconfig.Load(policies, filepath.Join(dir, "prerel.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	x, err := registry.ParseIndex([]byte(`{"modules": {"corp/app/aws": {"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.1.0-beta.1"}]}]}}}`), "index.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, tree := runWith(t, dir, cfg, x)
	p, err := pin.Build(rep, tree, pin.Options{Policies: policies})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Pins) != 1 || p.Pins[0].Version != "1.1.0-beta.1" || p.Pins[0].Constraint != "~> 1.0" || p.Pins[0].ConstraintFrom != "local.app (main.tf:8)" {
		t.Fatalf("pins: %+v; unpinned: %+v", p.Pins, p.Unpinned)
	}
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if c := m.ModuleCalls[0]; c.Version != "1.1.0-beta.1" || c.VersionExpr || c.VersionFrom != nil {
		t.Errorf("read back: version %q expr=%v from %v", c.Version, c.VersionExpr, c.VersionFrom)
	}
}

// TestSameProviderVersion checks the lock comparison: a version listed
// in short form is the version the lock file holds in full.
func TestSameProviderVersion(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"1.1.0", "1.1.0", true},
		{"1.1", "1.1.0", true},
		{"1", "1.0.0", true},
		{"2.0-beta1", "2.0.0-beta1", true},
		{"1.1.0", "1.1.1", false},
		{"2.0.0-beta1", "2.0.0", false},
		{"1.1", "1.1.0-rc1", false},
		{"not a version", "1.0.0", false},
	} {
		if got := pin.SameProviderVersion(tt.a, tt.b); got != tt.same {
			t.Errorf("SameProviderVersion(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}
