# Written by prerel (prerel pin).
# These overrides make `terraform init` and `tofu init` install what
# the chosen prerelease policy selects. prerel rewrites and removes
# this file: choose policies in prerel.hcl instead of editing it.

module "app" {
  version = "2.0.0-beta.1"
}
