package installer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Today is the pair of releases whose init a run takes as today's: at
// most one Terraform and one OpenTofu release, each named (Name, Fill) or
// found (Detect); a zero Release is one not named yet, which Releases
// gives as the newest of its product.
type Today struct {
	Terraform, OpenTofu Release
	// TerraformFrom and OpenTofuFrom say where a found release came from
	// (Found.From), "" for a named one.
	TerraformFrom, OpenTofuFrom string
}

// Name adds the release s names, as Parse reads it; a second release of
// a product is refused. The error of a release Parse refuses is its
// reason alone, without s, which the caller quotes.
func (t *Today) Name(s string) error {
	r, err := Parse(s)
	if pe := (*ParseError)(nil); errors.As(err, &pe) {
		return errors.New(pe.Reason)
	}
	if err != nil {
		return err
	}
	slot := &t.Terraform
	if r.Product == OpenTofu {
		slot = &t.OpenTofu
	}
	if !slot.IsZero() {
		return fmt.Errorf("%s given twice: %s and %s", r.Product.Display(), *slot, r)
	}
	*slot = r
	return nil
}

// Fill names, for the products not named yet, the releases of list,
// comma-separated (the value of an environment variable such as
// PREREL_INSTALLER); "newest" names none. set reports whether list is
// given (not blank), in which case nothing is to be detected.
func (t *Today) Fill(list string) (set bool, err error) {
	list = strings.TrimSpace(list)
	if list == "" || list == "newest" {
		return list != "", nil
	}
	var named Today
	for _, s := range strings.Split(list, ",") {
		if err := named.Name(s); err != nil {
			return true, err
		}
	}
	if t.Terraform.IsZero() {
		t.Terraform = named.Terraform
	}
	if t.OpenTofu.IsZero() {
		t.OpenTofu = named.OpenTofu
	}
	return true, nil
}

// Detect fills the products not named yet with the releases Detect
// finds for dir, and returns its notes; a product found nowhere stays
// unnamed.
func (t *Today) Detect(ctx context.Context, dir string, opts DetectOptions) (notes []string) {
	tf, tofu, notes := Detect(ctx, dir, opts)
	if t.Terraform.IsZero() && tf.From != FromNewest {
		t.Terraform, t.TerraformFrom = tf.Release, tf.From
	}
	if t.OpenTofu.IsZero() && tofu.From != FromNewest {
		t.OpenTofu, t.OpenTofuFrom = tofu.Release, tofu.From
	}
	return notes
}

// Releases returns the releases named, the newest of a product not
// named.
func (t *Today) Releases() (tf, tofu Release) {
	tf, tofu = t.Terraform, t.OpenTofu
	if tf.IsZero() {
		tf = Newest(Terraform)
	}
	if tofu.IsZero() {
		tofu = Newest(OpenTofu)
	}
	return tf, tofu
}

// Names names the releases for a report: "Terraform 1.15.9 and OpenTofu
// 1.12.6".
func (t *Today) Names() string {
	tf, tofu := t.Releases()
	return tf.Display() + " and " + tofu.Display()
}

// String lists the releases named, separated by a space.
func (t *Today) String() string {
	var parts []string
	for _, r := range []Release{t.Terraform, t.OpenTofu} {
		if !r.IsZero() {
			parts = append(parts, r.String())
		}
	}
	return strings.Join(parts, " ")
}

// LookPathIn finds a program as exec.LookPath does, in the directories
// of path (a PATH value) rather than the process's; an empty path holds
// none. It is a DetectOptions.LookPath for an environment of its own.
func LookPathIn(path string) func(string) (string, error) {
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

// Env names the environment variable that sets today's releases as
// prerel's --installer does, comma-separated (Fill), before any is
// detected; "newest" means the newest prerel knows.
const Env = "PREREL_INSTALLER"

// FromEnv fills the products not named yet from Env in getenv (Fill);
// set reports whether Env is set, in which case nothing is to be
// detected. The error names Env.
func (t *Today) FromEnv(getenv func(string) string) (set bool, err error) {
	set, err = t.Fill(getenv(Env))
	if err != nil {
		return true, fmt.Errorf("%s: %w", Env, err)
	}
	return set, nil
}

// Settle fills the products not named yet: from Env (FromEnv), else with
// the releases the user runs (Detect in dir, the programs found on
// getenv's PATH), and returns the notes of Detect. Nothing is read when
// both products are named.
func (t *Today) Settle(ctx context.Context, dir string, getenv func(string) string) (notes []string, err error) {
	if !t.Terraform.IsZero() && !t.OpenTofu.IsZero() {
		return nil, nil
	}
	if set, err := t.FromEnv(getenv); set || err != nil {
		return nil, err
	}
	return t.Detect(ctx, dir, DetectOptions{LookPath: LookPathIn(getenv("PATH"))}), nil
}
