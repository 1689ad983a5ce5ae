package pin_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/pin"
)

// How a generated tree's module call reaches its module directory.
var sourceKinds = []string{
	"a directory under the root module",
	"a directory of the repository outside the root module (..)",
	"a link to a directory of the repository",
	"a link out of the repository",
	"a .. path out of the repository",
}

// What a generated module directory holds as prerel_override.tf before
// pin runs.
var overrideKinds = []string{
	"nothing",
	"pin's own file",
	"a file whose first line starts as pin's",
	"a link to pin's file elsewhere",
}

// genTree writes, under top, a repository whose root module
// (repo/envs/prod) calls one module per entry of calls (an entry picks a
// source kind and an override kind), each making a registry call pin
// pins; lockKind 1 makes the lock file a link to a lock file outside
// the repository, 2 a regular file. It returns the root module's
// directory.
func genTree(t *testing.T, top string, calls []int, lockKind int) string {
	t.Helper()
	root := filepath.Join(top, "repo", "envs", "prod")
	call := `module "net" {
  source  = "corp/net/aws"
  version = "~> 1.0"
}
`
	files := map[string]string{
		"repo/.git/HEAD":            "ref: refs/heads/main\n",
		"repo/envs/prod/prerel.hcl": `default_policy = "linear"` + "\n",
		"index.json":                monoIndex,
		"outside/lock.hcl":          monoLock,
		"outside/" + pin.FileName:   ownHeader + "module \"net\" {\n  version = \"9.9.9\"\n}\n",
	}
	main := `terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "~> 3.0"
    }
  }
}
`
	var links [][2]string
	for i, c := range calls {
		source, dir := "", ""
		switch sourceKinds[c%len(sourceKinds)] {
		case sourceKinds[0]:
			source, dir = fmt.Sprintf("./m%d", i), fmt.Sprintf("repo/envs/prod/m%d", i)
		case sourceKinds[1]:
			source, dir = fmt.Sprintf("../shared%d", i), fmt.Sprintf("repo/envs/shared%d", i)
		case sourceKinds[2]:
			source, dir = fmt.Sprintf("./link%d", i), fmt.Sprintf("repo/modules/x%d", i)
			links = append(links, [2]string{fmt.Sprintf("repo/envs/prod/link%d", i), fmt.Sprintf("../../modules/x%d", i)})
		case sourceKinds[3]:
			source, dir = fmt.Sprintf("./out%d", i), fmt.Sprintf("outside/x%d", i)
			links = append(links, [2]string{fmt.Sprintf("repo/envs/prod/out%d", i), fmt.Sprintf("../../../outside/x%d", i)})
		default:
			source, dir = fmt.Sprintf("../../../outside/y%d", i), fmt.Sprintf("outside/y%d", i)
		}
		main += fmt.Sprintf("\nmodule \"c%d\" {\n  source = %q\n}\n", i, source)
		files[dir+"/main.tf"] = call
		switch overrideKinds[c/len(sourceKinds)%len(overrideKinds)] {
		case overrideKinds[1]:
			files[dir+"/"+pin.FileName] = ownHeader + "module \"net\" {\n  version = \"1.0.0\"\n}\n"
		case overrideKinds[2]:
			files[dir+"/"+pin.FileName] = "# Written by prerelease-bot for team X; do not delete\n"
		case overrideKinds[3]:
			links = append(links, [2]string{dir + "/" + pin.FileName, filepath.Join(top, "outside", pin.FileName)})
		}
	}
	files["repo/envs/prod/main.tf"] = main
	switch lockKind {
	case 1:
		links = append(links, [2]string{"repo/envs/prod/.terraform.lock.hcl", filepath.Join(top, "outside", "lock.hcl")})
	case 2:
		files["repo/envs/prod/.terraform.lock.hcl"] = monoLock
	}
	writeFiles(t, top, files)
	for _, l := range links {
		if err := os.Symlink(l[1], filepath.Join(top, l[0])); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestNeverOutsideNorForeign generates trees with module directories
// reached through links and .. paths, in and out of the repository, with
// pin's own files, files with a header like pin's and links where pin's
// file would be, and a lock file that may link out of the repository;
// then runs pin, --check, pin --update-lock and --remove on each. Nothing
// outside the repository changes, no file pin did not write changes, and
// a run that fails changes nothing.
func TestNeverOutsideNorForeign(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(35)
	params.MinSuccessfulTests = longtest.Pick(12, 300)
	props := gopter.NewProperties(params)
	props.Property("pin writes and removes only its own files inside the repository", prop.ForAll(
		func(calls []int, lockKind int) string {
			top := t.TempDir()
			root := genTree(t, top, calls, lockKind)
			outside := snapshot(t, filepath.Join(top, "outside"))
			foreign := snapshot(t, filepath.Join(top, "repo"))
			maps.DeleteFunc(foreign, func(path, content string) bool {
				return filepath.Base(path) == pin.FileName && strings.HasPrefix(content, ownHeader) || strings.HasSuffix(path, ".terraform.lock.hcl")
			})
			check := func(step string) string {
				if got := snapshot(t, filepath.Join(top, "outside")); !maps.Equal(got, outside) {
					return step + " changed the files outside the repository"
				}
				got := snapshot(t, filepath.Join(top, "repo"))
				for path, content := range foreign {
					if got[path] != content {
						return fmt.Sprintf("%s changed %s, which pin did not write", step, path)
					}
				}
				return ""
			}
			for _, unlock := range []bool{false, true} {
				before := snapshot(t, top)
				p := planAt(t, root, "", filepath.Join(top, "index.json"), pin.Options{})
				err := pin.Write(p, pin.WriteOptions{Unlock: unlock})
				if err != nil && !maps.Equal(snapshot(t, top), before) {
					return fmt.Sprintf("Write (unlock %v) failed (%v) and changed the tree", unlock, err)
				}
				if err != nil && (lockKind != 1 || !unlock) {
					return fmt.Sprintf("Write (unlock %v): %v", unlock, err)
				}
				if msg := check(fmt.Sprintf("Write (unlock %v)", unlock)); msg != "" {
					return msg
				}
				if diffs, err := pin.Check(planAt(t, root, "", filepath.Join(top, "index.json"), pin.Options{})); err != nil || len(diffs) != 0 {
					return fmt.Sprintf("Check after Write: %v, %+v", err, diffs)
				}
			}
			if _, err := pin.Remove(planAt(t, root, "", filepath.Join(top, "index.json"), pin.Options{}), pin.WriteOptions{}); err != nil {
				return "Remove: " + err.Error()
			}
			if msg := check("Remove"); msg != "" {
				return msg
			}
			return ""
		},
		gen.SliceOfN(4, gen.IntRange(0, len(sourceKinds)*len(overrideKinds)-1)),
		gen.IntRange(0, 2),
	))
	props.TestingRun(t)
}
