package pin

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/terraform/config"
)

// PlanRemoval reads what Remove and Kept need for the configuration
// rooted at dir, without listing any version: the tree (remote modules
// from modulesDir, as config.TreeOptions reads it, the files pin wrote
// left out) and the lock file lockFile (dir's .terraform.lock.hcl when
// empty, none for "-"; one that does not exist is none). The plan holds
// the tree's local module directories and the lock file's absolute path.
// An error is the hcl.Diagnostics of a tree or lock file that cannot be
// read, or the error of making the lock file's path absolute.
func PlanRemoval(dir, modulesDir, lockFile string) (*Plan, *config.Tree, []config.LockedProvider, error) {
	tree, diags := config.LoadTree(dir, config.TreeOptions{ModulesDir: modulesDir, SkipFile: Skip})
	if diags.HasErrors() {
		return nil, nil, nil, diags
	}
	p := &Plan{Dir: dir}
	for _, n := range tree.Nodes {
		if !n.Remote() && !slices.Contains(p.Dirs, n.Dir) {
			p.Dirs = append(p.Dirs, n.Dir)
		}
	}
	if lockFile == "" {
		lockFile = filepath.Join(dir, config.LockFileName)
	}
	if _, err := os.Lstat(lockFile); lockFile == "-" || err != nil {
		return p, tree, nil, nil
	}
	abs, err := filepath.Abs(lockFile)
	if err != nil {
		return nil, nil, nil, err
	}
	p.LockFile = abs
	var locks []config.LockedProvider
	if locks, diags = config.LoadLockFile(lockFile); diags.HasErrors() {
		return nil, nil, nil, hcl.Diagnostics(diags)
	}
	return p, tree, locks, nil
}
