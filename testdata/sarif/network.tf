# Terraform reads this file; OpenTofu reads network.tofu instead.
module "network" {
  source  = "corp/app/aws"
  version = "1.2.0"
}
