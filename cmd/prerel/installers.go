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

// fromEnv fills the releases --installer did not name from
// PREREL_INSTALLER (installer.Today.FromEnv): compare, merge and impact
// on the corpus detect nothing.
func (f *installerFlag) fromEnv(e *env) error {
	_, err := f.FromEnv(e.getenv)
	return usage(err)
}

// detect fills the releases --installer did not name: from
// PREREL_INSTALLER, else those the user runs (installer.Today.Settle: the
// programs on e's PATH, then the tfenv and tofuenv version files in dir
// or above); notes go to stderr.
func (f *installerFlag) detect(e *env, dir string) error {
	notes, err := f.Settle(e.context(), dir, e.getenv)
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "prerel: today's installer: %s\n", printable.String(n))
	}
	return usage(err)
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
