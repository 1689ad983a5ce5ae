# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/corp/thing" {
  version     = "2.0.0-rc.1"
  constraints = ">= 1.0.0"
}
