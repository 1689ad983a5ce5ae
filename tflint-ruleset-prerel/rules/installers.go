package rules

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/terraform-linters/tflint-plugin-sdk/logger"

	"github.com/prerel/prerel/terraform/installer"
)

// installerEnv names the environment variable that sets today's
// releases, comma-separated, as it does for prerel's commands
// ("terraform@1.15.9,tofu@1.12.6"; "newest" for the newest prerel
// knows). tflint hands its environment on to the plugin.
const installerEnv = "PREREL_INSTALLER"

// installers returns the Terraform and OpenTofu releases whose init the
// rules take as today's, as prerel's commands take them: those
// PREREL_INSTALLER names, else the ones the user runs (the programs on
// PATH, the tfenv and tofuenv version files in the root module's
// directory or above), else the newest prerel knows. What detection
// notes goes to tflint's log (TFLINT_LOG=info). A PREREL_INSTALLER prerel
// cannot read is an error that names it. The answer is found once per
// root module.
func (rt *root) installers() (tf, tofu installer.Release, err error) {
	rt.today.once.Do(func() {
		var today installer.Today
		set, err := today.Fill(os.Getenv(installerEnv))
		if err != nil {
			rt.today.err = fmt.Errorf("prerel: %s: %w", installerEnv, err)
			return
		}
		if !set {
			for _, n := range today.Detect(context.Background(), rt.dir, installer.DetectOptions{}) {
				logger.Info("prerel: today's installer: " + n)
			}
		}
		rt.today.tf, rt.today.tofu = today.Releases()
	})
	return rt.today.tf, rt.today.tofu, rt.today.err
}

// todayReleases is what root.installers found.
type todayReleases struct {
	once     sync.Once
	tf, tofu installer.Release
	err      error
}
