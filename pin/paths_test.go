package pin_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

// monoIndex lists the versions of the monorepo trees' calls and
// providers.
const monoIndex = `{
  "modules": {
    "corp/net/aws": {"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.2.0"}, {"version": "2.0.0-beta.1"}]}]}
  },
  "providers": {
    "hashicorp/random": {"versions": [{"version": "3.5.0"}, {"version": "4.0.0-beta1"}]}
  }
}`

// monoLock is a lock file that holds random at today's version.
const monoLock = `provider "registry.terraform.io/hashicorp/random" {
  version     = "3.5.0"
  constraints = "~> 3.0"
  hashes = [
    "h1:bbbb=",
  ]
}
`

// writeFiles writes files (path relative to dir: content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// monorepo writes the usual monorepo layout: envs/prod calls
// ../../modules/app, which makes a registry call, in a Git repository,
// with the lock file kept in locks/.
func monorepo(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	writeFiles(t, top, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"envs/prod/main.tf": `module "app" {
  source = "../../modules/app"
}

terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "~> 3.0"
    }
  }
}
`,
		"envs/prod/prerel.hcl": `default_policy = "linear"` + "\n",
		"modules/app/main.tf": `module "net" {
  source  = "corp/net/aws"
  version = "~> 1.0"
}
`,
		"locks/my.lock.hcl": monoLock,
		"index.json":        monoIndex,
		// The doubled path an earlier pin wrote to: it must stay empty.
		"envs/prod/modules/app/.keep": "",
	})
	return top
}

// planAt resolves the tree at dir (as given, relative to the working
// directory or absolute) with the lock file at lock, as the CLI does,
// and plans the pins.
func planAt(t *testing.T, dir, lock string, index string, opts pin.Options) *pin.Plan {
	t.Helper()
	cfg, diags := policyconfig.Load(policies, filepath.Join(dir, "prerel.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	x, err := registry.LoadIndex(index)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: policies, SkipFile: pin.Skip, LockFile: lock})
	if err != nil {
		t.Fatal(err)
	}
	tree, tdiags := config.LoadTree(dir, config.TreeOptions{SkipFile: pin.Skip})
	if tdiags.HasErrors() {
		t.Fatal(tdiags)
	}
	opts.Policies = policies
	p, err := pin.Build(rep, tree, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// TestMonorepo pins, checks, unlocks and removes in the usual monorepo
// layout, run from the root module's directory, from the top of the
// repository and from a sibling, with relative and absolute paths: every
// file lands in the module directory the call is in, and the lock file
// named is the one edited.
func TestMonorepo(t *testing.T) {
	for _, from := range []string{"envs/prod", ".", "envs/dev"} {
		for _, absolute := range []bool{false, true} {
			name := from + map[bool]string{false: " relative", true: " absolute"}[absolute]
			t.Run(name, func(t *testing.T) {
				top := monorepo(t)
				cwd := filepath.Join(top, from)
				if err := os.MkdirAll(cwd, 0o755); err != nil {
					t.Fatal(err)
				}
				t.Chdir(cwd)
				path := func(rel string) string {
					if absolute {
						return filepath.Join(top, rel)
					}
					r, err := filepath.Rel(cwd, filepath.Join(top, rel))
					if err != nil {
						t.Fatal(err)
					}
					return r
				}
				dir, lock := path("envs/prod"), path("locks/my.lock.hcl")
				p := planAt(t, dir, lock, path("index.json"), pin.Options{})
				var files []string
				for _, f := range p.Files {
					files = append(files, f.Rel)
				}
				want := []string{"prerel_override.tf", filepath.Join("..", "..", "modules", "app", "prerel_override.tf")}
				if !slices.Equal(files, want) {
					t.Fatalf("files %q, want %q; unpinned %+v", files, want, p.Unpinned)
				}
				if want := filepath.Join("..", "..", "locks", "my.lock.hcl"); p.LockFile != want {
					t.Errorf("lock file %q, want %q", p.LockFile, want)
				}
				if err := pin.Write(p, pin.WriteOptions{Unlock: true}); err != nil {
					t.Fatal(err)
				}
				for _, f := range []string{"envs/prod/prerel_override.tf", "modules/app/prerel_override.tf"} {
					if !exists(filepath.Join(top, f)) {
						t.Errorf("%s not written", f)
					}
				}
				if entries, _ := os.ReadDir(filepath.Join(top, "envs/prod/modules/app")); len(entries) != 1 {
					t.Errorf("the doubled path envs/prod/modules/app holds %d entries", len(entries))
				}
				if exists(filepath.Join(top, "envs/prod/locks")) {
					t.Error("a lock file was written under envs/prod/locks")
				}
				if b, _ := os.ReadFile(filepath.Join(top, "locks/my.lock.hcl")); strings.Contains(string(b), "hashicorp/random") {
					t.Errorf("the lock file named still locks random:\n%s", b)
				}
				again := planAt(t, dir, lock, path("index.json"), pin.Options{})
				diffs, err := pin.Check(again)
				if err != nil || len(diffs) != 0 {
					t.Errorf("Check after Write: %v, %+v", err, diffs)
				}
				if len(again.Stale) != 0 {
					t.Errorf("stale after Write: %q", again.Stale)
				}
				removal, err := pin.Remove(again, pin.WriteOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(removal.Removed, want) {
					t.Errorf("removed %q, want %q", removal.Removed, want)
				}
				for _, f := range []string{"envs/prod/prerel_override.tf", "modules/app/prerel_override.tf"} {
					if exists(filepath.Join(top, f)) {
						t.Errorf("%s not removed", f)
					}
				}
			})
		}
	}
}

// TestMonorepoStale removes an older pin from the module directory the
// call is in when nothing is to be pinned there any more, and never a
// file at the doubled path.
func TestMonorepoStale(t *testing.T) {
	top := monorepo(t)
	t.Chdir(top)
	old := filepath.Join("modules", "app", pin.FileName)
	writeFiles(t, top, map[string]string{
		old:                   ownHeader + "module \"gone\" {\n  version = \"1.0.0\"\n}\n",
		"modules/app/main.tf": "",
	})
	doubled := filepath.Join("envs", "prod", "modules", "app", pin.FileName)
	writeFiles(t, top, map[string]string{doubled: ownHeader})
	p := planAt(t, "envs/prod", "-", "index.json", pin.Options{})
	if want := []string{filepath.Join("..", "..", old)}; !slices.Equal(p.Stale, want) {
		t.Fatalf("stale %q, want %q", p.Stale, want)
	}
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if exists(old) {
		t.Errorf("%s not removed", old)
	}
	if !exists(doubled) {
		t.Errorf("%s, outside the tree's module directories, was removed", doubled)
	}
}

// ownHeader is the header pin writes.
const ownHeader = `# Written by prerel (prerel pin).
# These overrides make ` + "`terraform init` and `tofu init`" + ` install what
# the chosen prerelease policy selects. prerel rewrites and removes
# this file: choose policies in prerel.hcl instead of editing it.
`

// linkedTree writes a repository at top/repo whose root module calls
// ./app, a link to dir (relative to the root module), and returns the
// repository's root module directory.
func linkedTree(t *testing.T, top, target string) string {
	t.Helper()
	writeFiles(t, top, map[string]string{
		"repo/.git/HEAD": "ref: refs/heads/main\n",
		"repo/envs/prod/main.tf": `module "app" {
  source = "./app"
}
`,
		"repo/envs/prod/prerel.hcl": `default_policy = "linear"` + "\n",
		"repo/modules/app/main.tf": `module "net" {
  source  = "corp/net/aws"
  version = "~> 1.0"
}
`,
		"outdir/app/main.tf": `module "net" {
  source  = "corp/net/aws"
  version = "~> 1.0"
}
`,
		"index.json": monoIndex,
	})
	root := filepath.Join(top, "repo", "envs", "prod")
	if err := os.Symlink(target, filepath.Join(root, "app")); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestLinkedModuleDirectory follows a module directory's link before it
// judges where a file lands: inside the repository the file is written
// where the link leads, and the report names both; outside it, nothing
// is written or removed there unless AllowOutside.
func TestLinkedModuleDirectory(t *testing.T) {
	t.Run("inside", func(t *testing.T) {
		top := t.TempDir()
		root := linkedTree(t, top, filepath.Join("..", "..", "modules", "app"))
		p := planAt(t, root, "-", filepath.Join(top, "index.json"), pin.Options{})
		if len(p.Files) != 1 {
			t.Fatalf("files %+v, unpinned %+v", p.Files, p.Unpinned)
		}
		f := p.Files[0]
		if want := filepath.Join("..", "..", "modules", "app", pin.FileName); f.Rel != want || f.Via != filepath.Join("app", pin.FileName) {
			t.Errorf("file rel %q via %q, want %q via app/%s", f.Rel, f.Via, want, pin.FileName)
		}
		if err := pin.Write(p, pin.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if !exists(filepath.Join(top, "repo", "modules", "app", pin.FileName)) {
			t.Error("not written where the link leads")
		}
	})
	t.Run("outside", func(t *testing.T) {
		top := t.TempDir()
		root := linkedTree(t, top, filepath.Join("..", "..", "..", "outdir", "app"))
		stale := filepath.Join(top, "outdir", "app", pin.FileName)
		writeFiles(t, top, map[string]string{filepath.Join("outdir", "app", pin.FileName): ownHeader})
		if err := os.Remove(stale); err != nil {
			t.Fatal(err)
		}
		p := planAt(t, root, "-", filepath.Join(top, "index.json"), pin.Options{})
		if len(p.Files) != 0 || len(p.Unpinned) != 1 || !strings.Contains(p.Unpinned[0].Reason, "outside the repository") {
			t.Fatalf("files %+v, unpinned %+v, want net unpinned as outside the repository", p.Files, p.Unpinned)
		}
		if len(p.Refused) != 1 || !strings.Contains(p.Refused[0].Reason, filepath.Join("outdir", "app")) {
			t.Errorf("refused %+v, want the resolved path named", p.Refused)
		}
		if err := pin.Write(p, pin.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if exists(stale) {
			t.Fatal("written outside the repository")
		}
		// An old pin there is neither stale nor removed.
		writeFiles(t, top, map[string]string{filepath.Join("outdir", "app", pin.FileName): ownHeader})
		removal, err := pin.Remove(p, pin.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !exists(stale) || len(removal.Removed) != 0 || len(removal.Refused) != 1 {
			t.Errorf("Remove: %+v; the file outside exists: %v", removal, exists(stale))
		}
		// With AllowOutside, it is pinned where the link leads.
		p = planAt(t, root, "-", filepath.Join(top, "index.json"), pin.Options{AllowOutside: true})
		if len(p.Files) != 1 || p.Files[0].Path != stale {
			t.Fatalf("with AllowOutside: files %+v", p.Files)
		}
		if err := pin.Write(p, pin.WriteOptions{AllowOutside: true}); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(stale); !strings.Contains(string(b), `module "net"`) {
			t.Errorf("with AllowOutside, the file there holds %q", b)
		}
		if _, err := pin.Remove(p, pin.WriteOptions{AllowOutside: true}); err != nil || exists(stale) {
			t.Errorf("Remove with AllowOutside: %v; the file exists: %v", err, exists(stale))
		}
	})
}

// TestLinkedFiles never writes through, replaces nor removes a link at
// the override file or the lock file, whatever it links to.
func TestLinkedFiles(t *testing.T) {
	top := monorepo(t)
	t.Chdir(top)
	// Another checkout's pin file, and another project's lock file.
	other := t.TempDir()
	otherPin := filepath.Join(other, pin.FileName)
	otherLock := filepath.Join(other, ".terraform.lock.hcl")
	writeFiles(t, other, map[string]string{pin.FileName: ownHeader + "module \"net\" {\n  version = \"9.9.9\"\n}\n", ".terraform.lock.hcl": monoLock})
	link := filepath.Join(top, "modules", "app", pin.FileName)
	if err := os.Symlink(otherPin, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(otherLock, filepath.Join(top, "envs", "prod", ".terraform.lock.hcl")); err != nil {
		t.Fatal(err)
	}
	p := planAt(t, "envs/prod", "", "index.json", pin.Options{})
	if !slices.Contains(p.Blocked, filepath.Join("..", "..", "modules", "app", pin.FileName)) {
		t.Errorf("blocked %q, want the linked override file", p.Blocked)
	}
	if !strings.Contains(p.LockRefused, "symbolic link") {
		t.Errorf("lock refused %q, want the link named", p.LockRefused)
	}
	if err := pin.Write(p, pin.WriteOptions{Unlock: true}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Write with Unlock: %v, want a refusal naming the link", err)
	}
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pin.Remove(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(otherPin); !strings.Contains(string(b), "9.9.9") {
		t.Errorf("the other checkout's pin file became %q", b)
	}
	if b, _ := os.ReadFile(otherLock); string(b) != monoLock {
		t.Errorf("the other project's lock file became %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link: %v, %v", fi, err)
	}
}
