# Written by prerel (prerel pin).
# These overrides make `terraform init` and `tofu init` install what
# the chosen prerelease policy selects. prerel rewrites and removes
# this file: choose policies in prerel.hcl instead of editing it.

# module.app.db: linear selects 3.0.0-rc.1 for "~> 2.0"; today 2.1.0.
module "db" {
  version = "3.0.0-rc.1"
}
