package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/internal/testgc"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/installer/installertest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain makes the test binary prerel itself when a script runs
// "prerel": the scripts run the real main.
func TestMain(m *testing.M) {
	testscript.Main(testgc.Wrap(m), map[string]func(){"prerel": main})
}

// TestScripts runs the scripts of testdata/script, each a run of prerel
// with its output and exit status. $TESTDATA is the repository's
// testdata directory. Besides testscript's commands, a script has
//
//	exits N COMMAND [ARGS...]
//
// which runs COMMAND as exec does and checks that it exits with status
// N (exec checks for 0, ! exec for any other).
func TestScripts(t *testing.T) {
	longtest.SkipShort(t)
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("TESTDATA", testdata)
			// Today's releases are the fixtures' (installertest), whatever
			// terraform or tofu is on this machine's PATH and whichever
			// releases are the newest prerel knows: a release added to
			// the table changes no script. The script detect.txtar clears
			// it; $NEWEST_TERRAFORM and $NEWEST_TOFU are the newest
			// versions, for the scripts that follow the newest.
			env.Setenv("PREREL_INSTALLER", installertest.Env)
			env.Setenv("NEWEST_TERRAFORM", installer.Newest(installer.Terraform).Version)
			env.Setenv("NEWEST_TOFU", installer.Newest(installer.OpenTofu).Version)
			// The directory of the prerel command alone, for a script
			// that sets its own PATH.
			for _, dir := range filepath.SplitList(env.Getenv("PATH")) {
				if _, err := os.Stat(filepath.Join(dir, "prerel")); err == nil {
					env.Setenv("PRERELBIN", dir)
					break
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": exits,
		},
	})
}

// exits is the script command "exits N COMMAND [ARGS...]".
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits N COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}
