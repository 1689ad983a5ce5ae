package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/terraform/installer"
)

// installerFlag is the repeatable --installer flag of resolve, pin,
// impact, compare and merge: the Terraform and OpenTofu releases whose
// init is today's, at most one of each; those PREREL_INSTALLER names
// (fromEnv), else the newest of each, or, for the commands that read a
// configuration, the ones the user runs (detect).
type installerFlag struct {
	terraform, tofu installer.Release
	// tfFrom and tofuFrom say where a detected release came from.
	tfFrom, tofuFrom string
}

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
	v := strings.TrimSpace(e.getenv(installerEnv))
	if v == "" || v == "newest" {
		return v != "", nil
	}
	var named installerFlag
	for _, s := range strings.Split(v, ",") {
		if err := named.Set(s); err != nil {
			return true, usagef("%s: %v", installerEnv, err)
		}
	}
	if f.terraform.IsZero() {
		f.terraform = named.terraform
	}
	if f.tofu.IsZero() {
		f.tofu = named.tofu
	}
	return true, nil
}

// detect fills the releases --installer did not name: from
// PREREL_INSTALLER, else those the user runs (installer.Detect: the
// programs on e's PATH, then the tfenv and tofuenv version files in dir
// or above); notes go to stderr.
func (f *installerFlag) detect(e *env, dir string) error {
	if !f.terraform.IsZero() && !f.tofu.IsZero() {
		return nil
	}
	if set, err := f.fromEnv(e); set || err != nil {
		return err
	}
	tf, tofu, notes := installer.Detect(e.context(), dir, installer.DetectOptions{LookPath: lookPathIn(e.getenv("PATH"))})
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "prerel: today's installer: %s\n", printable.String(n))
	}
	if f.terraform.IsZero() && tf.From != installer.FromNewest {
		f.terraform, f.tfFrom = tf.Release, tf.From
	}
	if f.tofu.IsZero() && tofu.From != installer.FromNewest {
		f.tofu, f.tofuFrom = tofu.Release, tofu.From
	}
	return nil
}

// froms says where each release came from, "" when a flag, the
// environment or the default named it.
func (f *installerFlag) froms() (tf, tofu string) { return f.tfFrom, f.tofuFrom }

// lookPathIn finds a program as exec.LookPath does, in the directories
// of path (a PATH value) rather than the process's; an empty path holds
// none.
func lookPathIn(path string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, dir := range filepath.SplitList(path) {
			if dir == "" {
				continue
			}
			p := filepath.Join(dir, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return p, nil
			}
		}
		return "", exec.ErrNotFound
	}
}

func (f *installerFlag) Type() string { return "RELEASE" }

func (f *installerFlag) String() string {
	var parts []string
	for _, r := range []installer.Release{f.terraform, f.tofu} {
		if !r.IsZero() {
			parts = append(parts, r.String())
		}
	}
	return strings.Join(parts, " ")
}

func (f *installerFlag) Set(s string) error {
	r, err := installer.Parse(s)
	if pe := (*installer.ParseError)(nil); errors.As(err, &pe) {
		return errors.New(pe.Reason) // the flag's error quotes s, once
	}
	if err != nil {
		return err
	}
	slot := &f.terraform
	if r.Product == installer.OpenTofu {
		slot = &f.tofu
	}
	if !slot.IsZero() {
		return fmt.Errorf("%s given twice: %s and %s", r.Product.Display(), *slot, r)
	}
	*slot = r
	return nil
}

// releases returns the releases named, the newest of a product not
// named.
func (f *installerFlag) releases() (tf, tofu installer.Release) {
	tf, tofu = f.terraform, f.tofu
	if tf.IsZero() {
		tf = installer.Newest(installer.Terraform)
	}
	if tofu.IsZero() {
		tofu = installer.Newest(installer.OpenTofu)
	}
	return tf, tofu
}

// names names the releases for a report: "Terraform 1.15.9 and OpenTofu
// 1.12.6".
func (f *installerFlag) names() string {
	tf, tofu := f.releases()
	return tf.Display() + " and " + tofu.Display()
}

// addInstallerFlag defines --installer.
func addInstallerFlag(fs *flagSet) *installerFlag {
	f := &installerFlag{}
	fs.Var(f, "installer", fmt.Sprintf("the `RELEASE` whose init is today's: terraform@VERSION or\ntofu@VERSION, at most one of each (repeatable; default:\n%s and %s); see docs/installers.md",
		installer.Newest(installer.Terraform), installer.Newest(installer.OpenTofu)))
	return f
}
