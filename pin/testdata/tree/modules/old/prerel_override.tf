# Written by prerel (prerel pin).
# These overrides make `terraform init` and `tofu init` install what
# the chosen prerelease policy selects. prerel rewrites and removes
# this file: choose policies in prerel.hcl instead of editing it.
module "plain" {
  version = "1.1.0"
}
