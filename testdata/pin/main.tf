# The configuration of hashicorp/terraform#36985, its source written as a
# full registry address: a module whose 2.0.0-beta.1 is to be tested,
# next to one that stays on its releases.

module "example" {
  source  = "example.com/example/example-module/aws"
  version = ">= 2.0.0-beta.1"
}

module "network" {
  source  = "example.com/example/network-module/aws"
  version = "~> 1.0"
}
