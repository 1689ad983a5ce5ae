# A configuration under a minimum release age of seven days (prerel.hcl),
# its versions and their dates in index.json, counted at
# 2026-03-01T12:00:00Z.

# 5.2.0 was published two days before: held back, 5.1.0 installs.
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
}

# An exact pin: the cooldown does not apply.
module "db" {
  source  = "terraform-aws-modules/rds/aws"
  version = "6.10.0"
}

# fallback: a prerelease only when no release fits. 2.0.0 is one day
# old; held back, it still fits, so 2.0.0-rc.1 is not taken instead.
module "edge" {
  source  = "terraform-aws-modules/cloudfront/aws"
  version = ">= 2.0.0-rc.1"
}

terraform {
  required_providers {
    # 3.7.0 has no date: held back unless allow_undated.
    random = {
      source  = "hashicorp/random"
      version = "~> 3.6"
    }
  }
}
