# Written by prerel (prerel pin).
# These overrides make `terraform init` and `tofu init` install what
# the chosen prerelease policy selects. prerel rewrites and removes
# this file: choose policies in prerel.hcl instead of editing it.

# module.net: linear selects 2.0.0-beta.1 for "~> 1.0"; today 1.2.0.
module "net" {
  version = "2.0.0-beta.1"
}

# provider hashicorp/aws: linear selects 6.0.0-beta1 for ">= 5.0, ~>
# 5.0"; today 5.31.0.
# provider hashicorp/random: linear selects 4.0.0-beta1 for "~> 3.0";
# today 3.5.0.
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "6.0.0-beta1"
    }
    random = {
      source  = "hashicorp/random"
      version = "4.0.0-beta1"
    }
  }
}
