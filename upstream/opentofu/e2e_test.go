package opentofu_test

import (
	"os/exec"
	"testing"

	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/upstream/internal/e2e"
)

// tofu is the patched tofu .ci/run builds (build.sh), named by
// PREREL_PATCHED_TOFU, and the release .ci/run builds into its cache, or
// tofu on PATH.
var tofu = e2e.Installer{
	Env:     "PREREL_PATCHED_TOFU",
	Build:   "upstream/opentofu/build.sh",
	Release: installer.MustParse("tofu@1.12.6"),
	ReleaseBinary: func() string {
		if p := e2e.CachedBinary("tofu-v1.12.6", "tofu"); p != "" {
			return p
		}
		p, _ := exec.LookPath("tofu")
		return p
	},
	TodayModule: "opentofu-module",
}

func TestChosenPolicies(t *testing.T) { e2e.ChosenPolicies(t, tofu) }

func TestWithoutConfig(t *testing.T) { e2e.WithoutConfig(t, tofu) }

func TestDifferential(t *testing.T) { e2e.Differential(t, tofu) }
