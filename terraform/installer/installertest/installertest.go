// Package installertest names the Terraform and OpenTofu releases that
// the tests, the scripts of cmd/prerel and the samples of the docs take
// as today's installers. They are written here once, as explicit
// versions, rather than taken from the newest releases prerel knows
// (installer.Newest), so that a release added to installer.Releases
// changes no golden file, script or sample.
//
// A package whose output depends on the release has, besides, one test
// that runs with the newest releases (the zero installer.Release, or no
// --installer) and checks what holds for any newest release, so that a
// new release is still exercised: see TestNewestReleases in resolve, pin,
// impact and cmd/prerel.
package installertest

import "github.com/prerel/prerel/terraform/installer"

// The releases, as --installer names them. They stay when a newer
// release is added; they change only if prerel stops knowing them.
const (
	Terraform = "terraform@1.15.9"
	OpenTofu  = "tofu@1.12.6"
)

// Env is the value of PREREL_INSTALLER that sets both releases, which
// the scripts of cmd/prerel and the samples of the docs run with:
// "terraform@1.15.9,tofu@1.12.6".
const Env = Terraform + "," + OpenTofu

// Releases returns the Terraform and the OpenTofu release, for
// resolve.Options, impact.Options and the like.
func Releases() (tf, tofu installer.Release) {
	return installer.MustParse(Terraform), installer.MustParse(OpenTofu)
}

// Fill sets *tf and *tofu, when zero, to the Terraform and the OpenTofu
// release: for options whose zero Release means the newest, such as
// resolve.Options and impact.Options.
func Fill(tf, tofu *installer.Release) {
	t, o := Releases()
	if tf.IsZero() {
		*tf = t
	}
	if tofu.IsZero() {
		*tofu = o
	}
}
