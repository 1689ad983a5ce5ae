# The example of SARIF output (docs/ci.md): each module call, provider
# and pin here is a finding prerel resolve --format sarif locates.

# A prerelease lower bound: today's installer skips every prerelease it
# does not name exactly, so init installs nothing.
module "app" {
  source  = "corp/app/aws"
  version = ">= 2.0.0-beta.1"
}

# "=" and a space: the module installer refuses the constraint and
# installs nothing.
module "exact" {
  source  = "corp/app/aws"
  version = "= 2.0.0-beta.1"
}

# A "v" prefix: OpenTofu reads it, Terraform refuses it.
module "db" {
  source  = "registry.example.com/corp/db/aws"
  version = "v1.1.0-alpha.1"
}

# No listed version is admitted by the policy prerel.hcl chooses.
module "gone" {
  source  = "corp/app/aws"
  version = ">= 9.0.0"
}

module "child" {
  source = "./modules/child"
}

terraform {
  required_providers {
    thing = {
      source  = "corp/thing"
      version = ">= 1.0.0"
    }
  }
}
