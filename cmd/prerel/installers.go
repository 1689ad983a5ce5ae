package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/prerel/prerel/terraform/installer"
)

// installerFlag is the repeatable --installer flag of resolve, pin,
// impact and compare: the Terraform and OpenTofu releases whose init is
// today's, at most one of each; the newest of each by default.
type installerFlag struct {
	terraform, tofu installer.Release
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
