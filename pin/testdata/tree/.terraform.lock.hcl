# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.31.0"
  constraints = ">= 5.0.0, ~> 5.0"
  hashes = [
    "h1:aaaa=",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version     = "3.5.0"
  constraints = "~> 3.0"
  hashes = [
    "h1:bbbb=",
  ]
}
