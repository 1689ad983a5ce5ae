package pin_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/pin"
)

// TestPlanRemoval reads the local module directories and the lock file
// of a tree, none with "-", and says what cannot be read.
func TestPlanRemoval(t *testing.T) {
	dir := filepath.Join("testdata", "tree")
	p, tree, locks, err := pin.PlanRemoval(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(dir, ".terraform.lock.hcl"))
	if p.Dir != dir || p.LockFile != abs || len(locks) == 0 || tree == nil {
		t.Errorf("plan %+v, %d locks", p, len(locks))
	}
	if len(p.Dirs) < 2 {
		t.Errorf("dirs %q: want the root and its local modules", p.Dirs)
	}
	for _, d := range p.Dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("dir %q: %v", d, err)
		}
	}
	p, _, locks, err = pin.PlanRemoval(dir, "", "-")
	if err != nil || p.LockFile != "" || locks != nil {
		t.Errorf("no lock file: %+v, %d locks, %v", p, len(locks), err)
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "main.tf"), []byte("module {"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := pin.PlanRemoval(bad, "", ""); !errors.As(err, new(hcl.Diagnostics)) {
		t.Errorf("a tree that cannot be read: %v, want diagnostics", err)
	}
}
