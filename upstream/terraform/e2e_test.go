package terraform_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/upstream/internal/e2e"
)

// release is the Terraform release patched.
const release = "1.16.4"

// terraform is the patched terraform .ci/run builds (build.sh), named by
// PREREL_PATCHED_TERRAFORM, and the release build.sh builds into its
// cache, or terraform on PATH when it is that release.
var terraform = e2e.Installer{
	Env:           "PREREL_PATCHED_TERRAFORM",
	Build:         "upstream/terraform/build.sh",
	Release:       installer.MustParse("terraform@" + release),
	ReleaseBinary: releaseTerraform,
	TodayModule:   "terraform-module",
}

func releaseTerraform() string {
	if p := e2e.CachedBinary("terraform-v"+release, "terraform"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		return ""
	}
	out, err := exec.Command(p, "version", "-json").Output()
	if err != nil || !strings.Contains(string(out), `"terraform_version": "`+release+`"`) {
		return ""
	}
	return p
}

func TestChosenPolicies(t *testing.T) { e2e.ChosenPolicies(t, terraform) }

func TestWithoutConfig(t *testing.T) { e2e.WithoutConfig(t, terraform) }

func TestDifferential(t *testing.T) { e2e.Differential(t, terraform) }
