package main

import (
	"fmt"

	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/terraform/installer"
)

// installerFlag is the repeatable --installer flag of resolve, pin,
// impact, compare and merge: the Terraform and OpenTofu releases whose
// init is today's (installer.Today), at most one of each; those
// PREREL_INSTALLER names (fromEnv), else the newest of each, or, for the
// commands that read a configuration, the ones the user runs (detect).
type installerFlag struct{ installer.Today }

// installerEnv names the environment variable that sets today's
// releases as --installer does, comma-separated, before any is
// detected; "newest" means the newest prerel knows, detecting none.
// Flags win over it.
const installerEnv = "PREREL_INSTALLER"

// fromEnv fills the releases --installer did not name from
// PREREL_INSTALLER; set reports whether the variable is set, in which
// case nothing is detected. compare, merge and impact on the corpus,
// which detect nothing, take it too.
func (f *installerFlag) fromEnv(e *env) (set bool, err error) {
	set, err = f.Fill(e.getenv(installerEnv))
	if err != nil {
		return true, usagef("%s: %v", installerEnv, err)
	}
	return set, nil
}

// detect fills the releases --installer did not name: from
// PREREL_INSTALLER, else those the user runs (installer.Detect: the
// programs on e's PATH, then the tfenv and tofuenv version files in dir
// or above); notes go to stderr.
func (f *installerFlag) detect(e *env, dir string) error {
	if !f.Terraform.IsZero() && !f.OpenTofu.IsZero() {
		return nil
	}
	if set, err := f.fromEnv(e); set || err != nil {
		return err
	}
	for _, n := range f.Detect(e.context(), dir, installer.DetectOptions{LookPath: installer.LookPathIn(e.getenv("PATH"))}) {
		fmt.Fprintf(e.stderr, "prerel: today's installer: %s\n", printable.String(n))
	}
	return nil
}

func (f *installerFlag) Type() string { return "RELEASE" }

func (f *installerFlag) Set(s string) error { return f.Name(s) }

// addInstallerFlag defines --installer.
func addInstallerFlag(fs *flagSet) *installerFlag {
	f := &installerFlag{}
	fs.Var(f, "installer", fmt.Sprintf("the `RELEASE` whose init is today's: terraform@VERSION or\ntofu@VERSION, at most one of each (repeatable; default:\n%s and %s); see docs/installers.md",
		installer.Newest(installer.Terraform), installer.Newest(installer.OpenTofu)))
	return f
}
